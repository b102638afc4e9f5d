import { compilePatterns, PatternError } from '@siteaudit/schema/rules';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CrawlScope, fieldPatterns, siteKey, SiteSet } from '../../../src/crawler/run/crawl-scope.js';

const scope = (include: string | null = null, exclude: string | null = null) =>
  new CrawlScope('https://shop.example/', compilePatterns(include), compilePatterns(exclude));

describe('crawl scope', () => {
  it('keys a site by host and port, with or without www.', () => {
    expect(siteKey('https://www.Shop.example/a')).toBe('shop.example');
    expect(siteKey('http://shop.example:8080/')).toBe('shop.example:8080');
  });

  it('reads the key off the string exactly as the URL parser would', () => {
    const byParser = (url: string) => {
      const u = new URL(url);
      return (u.hostname.startsWith('www.') ? u.hostname.slice(4) : u.hostname) + (u.port ? `:${u.port}` : '');
    };
    const label = fc.stringMatching(/^[a-zA-Z0-9-]{1,8}$/);
    const host = fc.oneof(
      fc.array(label, { minLength: 1, maxLength: 4 }).map((labels) => labels.join('.')),
      fc.tuple(fc.nat(300), fc.nat(300), fc.nat(300), fc.nat(300), fc.constantFrom('', '0', '.')).map(([a, b, c, d, odd]) => `${a}.${odd === '0' ? '0' : ''}${b}.${c}.${d}${odd === '.' ? '.' : ''}`),
      fc.constantFrom('www.shop.example', '127.0.0.1', '0x7f.1', '2130706433', 'shop.example.', 'a.0x', '[::1]', 'Shop.Example', 'user@shop.example', 'xn--bcher-kva.example'),
    );
    const port = fc.oneof(fc.constant(''), fc.constantFrom(':80', ':443', ':0', ':080', ':8080', ':65535', ':65536', ':99999', ':'), fc.integer({ min: 0, max: 70000 }).map((n) => `:${n}`));
    const rest = fc.constantFrom('', '/', '/a?b=1', '?q', '#top', '\\x', '@evil.example/', '/%41');
    fc.assert(
      fc.property(fc.constantFrom('http', 'https', 'HTTP', 'ftp'), host, port, rest, (scheme, h, p, r) => {
        const url = `${scheme}://${h}${p}${r}`;
        let expected: string | null;
        try {
          expected = byParser(url);
        } catch {
          expected = null;
        }
        let actual: string | null;
        try {
          actual = siteKey(url);
        } catch {
          actual = null;
        }
        // Where the parser refuses a URL the key may be anything: isInternal answers false for it
        // unless it equals a site's key, and those come from URLs the parser read.
        if (expected !== null) expect(actual).toBe(expected);
      }),
      { numRuns: 3000 },
    );
  });

  it('tells a URL on its sites from its origin as text exactly as by reading its key', () => {
    const label = fc.stringMatching(/^[a-z0-9-]{1,6}$/);
    // Mostly a few hosts, so that the sites and the URL share one often.
    const host = fc.oneof(
      { arbitrary: fc.array(label, { minLength: 1, maxLength: 3 }).map((labels) => labels.join('.')), weight: 1 },
      { arbitrary: fc.constantFrom('shop.example', 'www.shop.example', 'www.www.shop.example', '127.0.0.1', '0x7f.0.0.1', '[::1]', 'Shop.Example', 'xn--bcher-kva.example', 'shop.example.'), weight: 6 },
    );
    const port = fc.constantFrom('', ':80', ':443', ':8080', ':080', ':');
    const rest = fc.constantFrom('', '/', '/a?b=1', '?q', '#top', '\\x', '@evil.example/', '.evil/', '-x/', '0/', ':8080/');
    const url = fc.tuple(fc.constantFrom('http', 'https', 'HTTP', 'ftp'), fc.constantFrom('', 'www.', 'user@'), host, port, rest).map(([scheme, www, h, p, r]) => `${scheme}://${www}${h}${p}${r}`);
    const keyOf = (u: string) => {
      try {
        return siteKey(u);
      } catch {
        return null;
      }
    };
    fc.assert(
      fc.property(fc.array(url, { minLength: 1, maxLength: 3 }), url, (starts, candidate) => {
        const keys = starts.map(keyOf).filter((k): k is string => k !== null);
        const key = keyOf(candidate);
        expect(new SiteSet(keys).has(candidate)).toBe(key !== null && keys.includes(key));
      }),
      { numRuns: 2000 },
    );
  });

  it('treats the start host, with or without www., as internal; other hosts and ports are not', () => {
    const s = scope();
    expect(s.isInternal('https://www.shop.example/p')).toBe(true);
    expect(s.isInternal('http://shop.example/p')).toBe(true);
    expect(s.isInternal('https://shop.example:8443/p')).toBe(false);
    expect(s.isInternal('https://blog.shop.example/')).toBe(false);
    expect(s.isInternal('not a url')).toBe(false);
  });

  it('keeps what the include patterns name, drops what the exclude patterns name, and always the start URL', () => {
    const s = scope('/shop/', '/shop/private/');
    expect(s.inScope('https://shop.example/')).toBe(true);
    expect(s.inScope('https://shop.example/shop/a')).toBe(true);
    expect(s.inScope('https://shop.example/shop/private/a')).toBe(false);
    expect(s.inScope('https://shop.example/blog/a')).toBe(false);
    expect(s.inScope('https://other.example/shop/a')).toBe(false);
  });

  it('makes a site internal once the start URL moves there', () => {
    const s = scope();
    expect(s.isInternal('https://shop.example.com/')).toBe(false);
    s.addSite('https://www.shop.example.com/new');
    expect(s.isInternal('https://shop.example.com/x')).toBe(true);
  });

  it('names the field of a pattern list that no longer compiles', () => {
    let error: unknown;
    try {
      fieldPatterns('exclude_patterns', 're:(?<=a)b');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PatternError);
    expect((error as PatternError).problem.en).toMatch(/^exclude_patterns: /);
  });
});
