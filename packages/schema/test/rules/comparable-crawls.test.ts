import { describe, expect, it } from 'vitest';
import { crawlSettingsText } from '../../src/rules/comparable-crawls.js';

const campaign = { start_url: 'https://example.com/', max_depth: 3, max_urls: 100, pagespeed: false, include_patterns: null };

describe('comparable crawls (docs/decisions/crawl-lifecycle.md)', () => {
  it('gives two campaigns with the same crawl settings the same text, whatever else differs', () => {
    const other = { ...campaign, name: 'Renamed', notify: true, regression_threshold: 'error', http_user: 'u', http_password: 'p', schedule: { frequency: 'daily' } };
    expect(crawlSettingsText(other as never)).toBe(crawlSettingsText(campaign));
  });

  it('tells apart campaigns that crawl differently', () => {
    expect(crawlSettingsText({ ...campaign, max_urls: 101 })).not.toBe(crawlSettingsText(campaign));
    expect(crawlSettingsText({ ...campaign, include_patterns: '/blog' })).not.toBe(crawlSettingsText(campaign));
  });

  it('reads a reloaded campaign alike: booleans as 0/1, a missing setting as null', () => {
    expect(crawlSettingsText({ ...campaign, pagespeed: 0 })).toBe(crawlSettingsText(campaign));
    const { include_patterns: _dropped, ...withoutPatterns } = campaign;
    expect(crawlSettingsText(withoutPatterns)).toBe(crawlSettingsText(campaign));
  });
});
