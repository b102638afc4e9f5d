import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normaliseUrl, parsedNormalised } from '../../src/rules/urls.js';

describe('URL normalisation (docs/decisions/url-normalisation.md)', () => {
  it('normalises URLs as the crawler does', () => {
    expect(normaliseUrl('HTTP://Example.com:80/a?b=1&a=2&a=1#x')).toBe('http://example.com/a?a=2&a=1&b=1');
    expect(normaliseUrl('https://user:pw@example.com:443')).toBe('https://example.com/');
    expect(normaliseUrl('https://example.com/x/../a%2fb?x=%2f&&')).toBe('https://example.com/a%2Fb?x=%2F');
    expect(normaliseUrl('about', 'https://example.com/a/b')).toBe('https://example.com/a/about');
    expect(normaliseUrl('/relative')).toBeNull();
    expect(normaliseUrl('mailto:a@example.com')).toBeNull();
  });

  it('is idempotent: a normalised URL normalises to itself (property)', () => {
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), (url) => {
        const once = normaliseUrl(url);
        if (once !== null) expect(normaliseUrl(once)).toBe(once);
      }),
    );
  });

  it('reads plain URLs and absolute paths off the string as the parser would (property)', () => {
    const pick = (chars: string, max: number) => fc.string({ unit: fc.constantFrom(...chars), maxLength: max });
    const host = fc.oneof(
      fc.array(pick('abcxyz019-.', 6), { minLength: 1, maxLength: 4 }).map((labels) => labels.join('.')),
      fc.tuple(fc.nat(300), fc.nat(300), fc.nat(300), fc.nat(300)).map((n) => n.join('.')),
      fc.constantFrom('xn--bcher-kva.example', 'xn--a.example', '0x7f.1', '127.1', '010.0.0.1', 'a..b', 'A.example', 'example.com.', '1.example.com', 'a_b.example'),
    );
    const port = fc.option(fc.oneof(fc.nat(70000).map(String), fc.constantFrom('80', '443', '0', '08080')), { nil: undefined });
    const path = pick('/.abAZ09-_~!$&\'()*+,;=:@%?#\\ ', 14);
    const origin = fc.tuple(fc.constantFrom('http', 'https', 'HTTP', 'ftp'), host, port).map(([s, h, p]) => `${s}://${h}${p === undefined ? '' : `:${p}`}`);
    fc.assert(
      fc.property(origin, path, origin, (o, p, base) => {
        const absolute = o + (p.startsWith('/') || p === '' ? p : `/${p}`);
        expect(normaliseUrl(absolute)).toBe(parsedNormalised(absolute));
        const relative = `/${p}`;
        expect(normaliseUrl(relative, `${base}/dir/page?q=1`)).toBe(parsedNormalised(relative, `${base}/dir/page?q=1`));
      }),
      { numRuns: 5000 },
    );
  });
});
