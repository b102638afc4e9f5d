/** Request targets as the server resolved them (log-paths.ts): RFC 3986 normalisation, `//` kept, log escapes decoded. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { joinPath } from '../../src/rules/log-analysis.js';
import { decodeLogEscapes, normaliseLogPath, redactTokens, removeDotSegments } from '../../src/rules/log-paths.js';
import { parseLogLine } from '../../src/rules/logs.js';

describe('normaliseLogPath', () => {
  it('decodes escapes of unreserved characters, upper-cases the others, removes dot segments, keeps //', () => {
    expect(normaliseLogPath('/a%2Db.html')).toBe('/a-b.html');
    expect(normaliseLogPath('/a%2db.html')).toBe('/a-b.html');
    expect(normaliseLogPath('/%7et.html')).toBe('/~t.html');
    expect(normaliseLogPath('/%78/page.html')).toBe('/x/page.html');
    expect(normaliseLogPath('/a%5cb.html')).toBe('/a%5Cb.html');
    expect(normaliseLogPath('/caf%c3%a9.html')).toBe('/caf%C3%A9.html');
    expect(normaliseLogPath('/café.html')).toBe('/caf%C3%A9.html');
    expect(normaliseLogPath('/x%2Fpage.html')).toBe('/x%2Fpage.html');
    expect(normaliseLogPath('/x/../page.html')).toBe('/page.html');
    expect(normaliseLogPath('/x/./page.html')).toBe('/x/page.html');
    expect(normaliseLogPath('/x/%2E%2E/page.html')).toBe('/page.html');
    expect(normaliseLogPath('/x/..')).toBe('/');
    expect(normaliseLogPath('/../../a')).toBe('/a');
    expect(normaliseLogPath('//x/page.html')).toBe('//x/page.html');
    expect(normaliseLogPath('/a b|c')).toBe('/a%20b%7Cc');
    expect(normaliseLogPath('/100%')).toBe('/100%25');
    expect(normaliseLogPath('/.well-known/x')).toBe('/.well-known/x');
    expect(normaliseLogPath('/p?q=%7e&r=/../x&s=%2f')).toBe('/p?q=~&r=/../x&s=%2F');
    expect(normaliseLogPath('/plain/path?a=1&b=2')).toBe('/plain/path?a=1&b=2');
  });

  it('removes dot segments as RFC 3986 5.2.4 does', () => {
    expect(removeDotSegments('/a/b/c/./../../g')).toBe('/a/g');
    expect(removeDotSegments('/mid/content=5/../6')).toBe('/mid/6');
    expect(removeDotSegments('/a/b/.')).toBe('/a/b/');
    expect(removeDotSegments('/a//b/../c')).toBe('/a//c');
  });

  // Hostile input: any text after the slash.
  const target = fc.string({ unit: fc.oneof(fc.constantFrom('/', '.', '%', '?', '#', '\\', 'a', 'Z', '2', 'e', 'é', '~', ' ', '"', '+', '%2D', '%2d', '%5c', '%7E', '%C3%A9', '../', './', '//'), fc.string({ maxLength: 1 })), maxLength: 40 }).map((s) => `/${s}`);

  it('never throws, is idempotent, starts with "/" and leaves only characters a URI holds raw', () => {
    fc.assert(
      fc.property(target, (t) => {
        const n = normaliseLogPath(t);
        expect(n.startsWith('/')).toBe(true);
        expect(normaliseLogPath(n)).toBe(n);
        expect(n).toMatch(/^[A-Za-z0-9\-._~!$&'()*+,;=:@/?%]*$/);
        // Every % starts an escape of a reserved or non-ASCII byte, in upper case.
        for (const m of n.matchAll(/%(..)/g)) expect(m[1]).toMatch(/^[0-9A-F]{2}$/);
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 500) },
    );
  });

  it('gives one string for every spelling of one target (unreserved characters escaped or not, escapes in either case)', () => {
    const unreserved = fc.constantFrom(...'abcXYZ019-._~');
    const segment = fc.array(unreserved, { minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 4 }), fc.array(fc.boolean(), { minLength: 30, maxLength: 30 }), fc.array(fc.boolean(), { minLength: 30, maxLength: 30 }), (segments, escaped, lower) => {
        const plain = '/' + segments.map((s) => s.join('')).join('/');
        let k = 0;
        const spelled =
          '/' +
          segments
            .map((s) =>
              s
                .map((c) => {
                  const i = k++ % 30;
                  if (!escaped[i]) return c;
                  const hex = c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0');
                  return `%${lower[i] ? hex.toLowerCase() : hex}`;
                })
                .join(''),
            )
            .join('/');
        // A segment of dots only is a dot segment either way: compare normalised forms.
        expect(normaliseLogPath(spelled)).toBe(normaliseLogPath(plain));
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 500) },
    );
  });
});

describe('e-mail addresses', () => {
  it('are replaced by (email) in the path and the query, raw or escaped, and nothing else is', () => {
    expect(normaliseLogPath('/users/frank@example.com/profile')).toBe('/users/(email)/profile');
    expect(normaliseLogPath('/p?email=bob%40example.com&tab=2')).toBe('/p?email=(email)&tab=2');
    expect(normaliseLogPath('/p?e=jane%2Bshop%40Example.ORG')).toBe('/p?e=(email)');
    expect(normaliseLogPath('/x?to=a.b-c_d@sub.example.co.uk')).toBe('/x?to=(email)');
    expect(normaliseLogPath('/img/logo@2x.png')).toBe('/img/logo@2x.png');
    expect(normaliseLogPath('/@jane')).toBe('/@jane');
    expect(normaliseLogPath('/a%40b')).toBe('/a%40b');
    expect(normaliseLogPath(normaliseLogPath('/u/x%40example.com'))).toBe('/u/(email)');
  });

  it('leave a crawled URL with one joined with the logged path (both sides are normalised alike)', () => {
    expect(joinPath('https://shop.example/users/frank@example.com/profile')).toBe(joinPath(normaliseLogPath('/users/frank%40example.com/profile')));
  });
});

describe('tokens in the path of a fetch a person set off', () => {
  it('are replaced segment by segment; slugs, words and numbers stay', () => {
    expect(redactTokens('/invite/ABCDEF0123456789TOKENPATH')).toBe('/invite/(token)');
    expect(redactTokens('/reset/MQ/5ur-3d2f2f0c9b7e4a6c8d1e/')).toBe('/reset/MQ/(token)/');
    expect(redactTokens('/d/123e4567-e89b-12d3-a456-426614174000/edit')).toBe('/d/(token)/edit');
    for (const path of ['/blog/2026-11-30-my-first-post', '/products/iphone-15-pro-max-256gb', '/p/abcdefghijklmnopqrst', '/p/1234567890123456789', '/caf%C3%A9-tr%C3%A8s-longue-page', '/']) expect(redactTokens(path)).toBe(path);
    expect(redactTokens(redactTokens('/invite/ABCDEF0123456789TOKENPATH'))).toBe('/invite/(token)');
  });
});

describe('log escapes', () => {
  it("reads nginx's \\xHH and Apache's \\\" \\\\ as the bytes sent, so \\x5C is a backslash, not /", () => {
    expect(decodeLogEscapes('/a\\x5Cb.html')).toBe('/a%5Cb.html');
    expect(decodeLogEscapes('/caf\\xC3\\xA9.html')).toBe('/caf%C3%A9.html');
    expect(decodeLogEscapes('/a\\"b')).toBe('/a%22b');
    expect(decodeLogEscapes('/a\\\\b')).toBe('/a%5Cb');
    const line = (path: string) => {
      const parsed = parseLogLine(`127.0.0.1 - - [27/Nov/2026:22:53:02 +0000] "GET ${path} HTTP/1.1" 200 2 "-" "Applebot/0.1"`);
      if (!parsed.ok) throw new Error(parsed.reason);
      return normaliseLogPath(parsed.request.path);
    };
    expect(line('/a\\x5Cb.html')).toBe('/a%5Cb.html');
    expect(line('/a%5cb.html')).toBe('/a%5Cb.html');
    expect(line('/caf\\xC3\\xA9.html')).toBe(line('/caf%c3%a9.html'));
    // In a JSON line the backslash is the client's own.
    const json = parseLogLine(JSON.stringify({ time: '2026-11-27T22:53:02Z', path: '/a\\b.html', status: 200 }));
    expect(json.ok && normaliseLogPath(json.request.path)).toBe('/a%5Cb.html');
  });
});

describe('joinPath', () => {
  it('normalises crawled URLs and logged paths alike, and never reads //x/ as a host', () => {
    expect(joinPath('//x/page.html')).toBe('//x/page.html');
    expect(joinPath('http://127.0.0.1:8080/x/page.html')).toBe('/x/page.html');
    expect(joinPath('http://127.0.0.1:8080/a%5cb.html')).toBe(joinPath('/a\\b.html'));
    expect(joinPath('https://example.com/caf%C3%A9.html')).toBe(joinPath('/café.html'));
    expect(joinPath('https://example.com/%7Et.html')).toBe('/~t.html');
    expect(joinPath('https://example.com/a?b=1#x')).toBe('/a?b=1');
  });
});
