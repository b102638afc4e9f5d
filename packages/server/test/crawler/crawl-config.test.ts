import { describe, expect, it } from 'vitest';
import { CRAWL_DEFAULTS, crawlSite, PatternError, resolveCrawlConfig } from '../../src/crawler/index.js';
import { config, memorySink } from '../../../../tests/support/crawler.js';

describe('resolveCrawlConfig', () => {
  it('applies the documented defaults of the nullable campaign fields', () => {
    const c = resolveCrawlConfig({ start_url: 'https://example.com/', max_depth: 3, max_urls: 500, timeout: null, retries: null, duplication_threshold: null });
    expect(c).toMatchObject({
      startUrl: 'https://example.com/',
      maxDepth: 3,
      maxUrls: 500,
      timeoutMs: 20_000,
      retries: 2,
      duplicationThreshold: 90,
      httpAuth: null,
      allowPrivateAddresses: false,
      userAgent: CRAWL_DEFAULTS.userAgent,
    });
  });

  it('converts seconds and credentials, and takes overrides', () => {
    const c = resolveCrawlConfig(
      { start_url: 'https://example.com/', max_depth: 1, max_urls: 10, timeout: 5, retries: 0, http_user: 'u', http_password: 'p', check_external_links: true },
      { allowPrivateAddresses: true },
    );
    expect(c).toMatchObject({ timeoutMs: 5000, retries: 0, httpAuth: { user: 'u', password: 'p' }, checkExternalLinks: true, allowPrivateAddresses: true });
  });
});

describe('crawlSite input checks', () => {
  it('refuses a start URL that is not http(s) and an invalid pattern, before any request', async () => {
    const { sink } = memorySink();
    await expect(crawlSite(config('ftp://example.com/'), sink)).rejects.toThrow(TypeError);
    await expect(crawlSite(config('https://example.com/', { excludePatterns: 're:(' }), sink)).rejects.toThrow(PatternError);
  });
});
