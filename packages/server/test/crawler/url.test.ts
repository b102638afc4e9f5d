import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compilePatterns, normaliseUrl, PatternError, validatePatterns } from '../../src/crawler/index.js';

describe('normaliseUrl', () => {
  it.each([
    ['HTTP://Example.COM', 'http://example.com/'],
    ['http://example.com:80/a', 'http://example.com/a'],
    ['https://example.com:443/a', 'https://example.com/a'],
    ['https://example.com:8443/a', 'https://example.com:8443/a'],
    ['https://example.com/a#section', 'https://example.com/a'],
    ['https://example.com/a/', 'https://example.com/a/'],
    ['https://example.com/a', 'https://example.com/a'],
    ['https://example.com/?b=2&a=1&c', 'https://example.com/?a=1&b=2&c'],
    ['https://example.com/?a=2&b=1&a=1', 'https://example.com/?a=2&a=1&b=1'],
    ['https://example.com/?', 'https://example.com/'],
    ['https://example.com/?&&x=1&', 'https://example.com/?x=1'],
    ['https://example.com/a%2fb?q=%2f+x', 'https://example.com/a%2Fb?q=%2F+x'],
    ['https://user:pw@example.com/x', 'https://example.com/x'],
    ['https://example.com/a/./b/../c', 'https://example.com/a/c'],
    ['https://bücher.example/', 'https://xn--bcher-kva.example/'],
  ])('%s → %s', (input, expected) => {
    expect(normaliseUrl(input)).toBe(expected);
  });

  it('resolves relative references against a base', () => {
    expect(normaliseUrl('../x?b=1&a=2#f', 'https://example.com/dir/sub/page')).toBe('https://example.com/dir/x?a=2&b=1');
    expect(normaliseUrl('//cdn.example.com/y', 'https://example.com/')).toBe('https://cdn.example.com/y');
  });

  it('refuses what is not an http(s) URL', () => {
    for (const bad of ['mailto:a@b.c', 'javascript:void(0)', 'ftp://x/y', 'data:text/html,x', 'not a url', 'http://']) {
      expect(normaliseUrl(bad), bad).toBeNull();
    }
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), (url) => {
        const once = normaliseUrl(url);
        if (once !== null) expect(normaliseUrl(once)).toBe(once);
      }),
      { numRuns: 300 },
    );
  });

  it('does not depend on the order of query parameters (distinct names)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.stringMatching(/^[a-z]{1,6}$/), { minLength: 1, maxLength: 6 }), (names) => {
        const query = names.map((n, i) => `${n}=${i}`);
        const a = normaliseUrl(`https://example.com/p?${query.join('&')}`);
        const b = normaliseUrl(`https://example.com/p?${[...query].reverse().join('&')}`);
        expect(a).toBe(b);
      }),
    );
  });
});

describe('URL patterns', () => {
  const u = (path: string) => `https://example.com${path}`;

  it('globs match from the start of the path, as prefixes, with * and a final $', () => {
    const m = compilePatterns('/blog/\n/shop/*/reviews, *.pdf$');
    expect(m.matches(u('/blog/'))).toBe(true);
    expect(m.matches(u('/blog/post?x=1'))).toBe(true);
    expect(m.matches(u('/about/blog/'))).toBe(false);
    expect(m.matches(u('/shop/shoes/reviews/2'))).toBe(true);
    expect(m.matches(u('/files/a.pdf'))).toBe(true);
    expect(m.matches(u('/files/a.pdf?dl=1'))).toBe(false);
  });

  it('treats ? and . literally in globs, and matches the query', () => {
    const m = compilePatterns('/search?q=');
    expect(m.matches(u('/search?q=x'))).toBe(true);
    expect(m.matches(u('/searchXq='))).toBe(false);
    expect(compilePatterns('utm_source=').matches(u('/p?utm_source=x'))).toBe(true);
  });

  it('globs with a scheme match the whole URL', () => {
    const m = compilePatterns('https://example.com/en/');
    expect(m.matches(u('/en/page'))).toBe(true);
    expect(m.matches('http://example.com/en/page')).toBe(false);
  });

  it('re: entries are regular expressions on the whole URL, commas included', () => {
    const m = compilePatterns('re:/p/\\d{2,3}$\n# a comment\n\n');
    expect(m.size).toBe(1);
    expect(m.matches(u('/p/123'))).toBe(true);
    expect(m.matches(u('/p/1'))).toBe(false);
  });

  it('reports an invalid regular expression', () => {
    expect(() => compilePatterns('re:([')).toThrow(PatternError);
    expect(validatePatterns('re:([')).toMatch(/^Pattern "re:\(\[": not a valid RE2 expression/);
    expect(validatePatterns('/ok/, /fine/')).toBeNull();
  });

  it('an empty list matches nothing', () => {
    expect(compilePatterns(null).matches(u('/x'))).toBe(false);
    expect(compilePatterns('  \n ').size).toBe(0);
  });
});
