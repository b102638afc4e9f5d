import { compilePatterns, PatternError } from '@siteaudit/schema';
import { describe, expect, it } from 'vitest';
import { CrawlScope, fieldPatterns, siteKey } from '../../../src/crawler/run/crawl-scope.js';

const scope = (include: string | null = null, exclude: string | null = null) =>
  new CrawlScope('https://shop.example/', compilePatterns(include), compilePatterns(exclude));

describe('crawl scope', () => {
  it('keys a site by host and port, with or without www.', () => {
    expect(siteKey('https://www.Shop.example/a')).toBe('shop.example');
    expect(siteKey('http://shop.example:8080/')).toBe('shop.example:8080');
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
