import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normaliseUrl } from '../../src/rules/urls.js';

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
});
