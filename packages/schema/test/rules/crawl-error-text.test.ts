import { describe, expect, it } from 'vitest';
import { CRAWL_ERROR_MESSAGES, localiseCrawlError, siteUnreachableError } from '../../src/rules/crawl-error-text.js';

describe('a crawl error in the reader language', () => {
  it('keeps the code and renders a known message in French', () => {
    const stored = `crawl.interrupted: ${CRAWL_ERROR_MESSAGES['crawl.interrupted'].en}`;
    expect(localiseCrawlError(stored, 'en')).toBe(stored);
    expect(localiseCrawlError(stored, 'fr')).toBe(`crawl.interrupted: ${CRAWL_ERROR_MESSAGES['crawl.interrupted'].fr}`);
  });

  it('says why a site could not be reached, with the cause as the crawler wrote it', () => {
    const stored = siteUnreachableError('connection', 'connect ECONNREFUSED 127.0.0.1:9');
    expect(stored).toMatch(/^crawl\.site_unreachable: The site could not be reached: .*\(connection: connect ECONNREFUSED 127\.0\.0\.1:9\)\.$/);
    const french = localiseCrawlError(stored, 'fr');
    expect(french.startsWith('crawl.site_unreachable: Le site n’a pas pu être joint : ')).toBe(true);
    expect(french).toContain('ECONNREFUSED 127.0.0.1:9');
  });

  it('returns a value it does not know, and null, unchanged', () => {
    expect(localiseCrawlError('crawl.invalid_pattern: include_patterns[0] "(" is not a valid pattern', 'fr')).toBe(
      'crawl.invalid_pattern: include_patterns[0] "(" is not a valid pattern',
    );
    expect(localiseCrawlError('something else', 'fr')).toBe('something else');
    expect(localiseCrawlError(null, 'fr')).toBeNull();
  });
});
