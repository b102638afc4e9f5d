/**
 * The mock's generated findings include checks of the deeper catalogue, with details built by the
 * crawler's templates: they read (and render in French) as a real crawl's do.
 */
import { describe, expect, it } from 'vitest';
import { isKnownIssueDetail, localiseIssueDetails } from '@siteaudit/schema/rules';
import type { CampaignRecord } from '../src/db.js';
import { generateFindings } from '../src/modules/generate.js';

const campaign = { start_url: 'https://shop.example.com/', max_depth: 5, max_urls: 100 } as CampaignRecord;

describe('generated findings', () => {
  it('include checks of the deeper catalogue, detailed with the shared templates', () => {
    const { issues } = generateFindings('crawl_1', campaign);
    const deeper = issues.filter((i) => ['anchor_text_generic', 'single_inlink', 'schema_product_incomplete', 'not_in_sitemap', 'sitemap_redirect'].includes(i.name));
    expect(deeper.map((i) => i.name).sort()).toEqual(['anchor_text_generic', 'not_in_sitemap', 'schema_product_incomplete', 'single_inlink', 'sitemap_redirect']);
    for (const i of deeper) {
      expect(isKnownIssueDetail(i.details!), i.details!).toBe(true);
      expect(localiseIssueDetails(i.details, 'fr')).not.toBe(i.details);
    }
    expect(deeper.find((i) => i.name === 'sitemap_redirect')).toMatchObject({ url: 'https://shop.example.com/old-page', severity: 'warning', category: 'robots_sitemaps' });
  });
});
