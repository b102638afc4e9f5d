/**
 * Pillar formulas (docs/scorecard.md). Every pillar reuses the technique health formula of the
 * crawler (score.ts) on the checks it covers, so a sub-score means the same thing everywhere:
 * 100 × exp(−Σ weight(severity) × √share of pages affected).
 */
import type { Knex } from 'knex';
import { CHECKS } from '../../crawler/checks.js';
import { healthScore } from '../../crawler/score.js';

export interface Axis {
  key: string;
  score: number | null;
  weight: number;
}

interface CheckCount {
  name: string;
  severity: 'error' | 'warning' | 'info';
  category: string;
  pages: number;
}

/** Distinct pages affected per check of a crawl, and the number of scored pages. */
export async function crawlChecks(knex: Knex, crawlId: string): Promise<{ pages: number; checks: CheckCount[] }> {
  const checks = (await knex('crawl_issues')
    .where({ crawl_id: crawlId })
    .select('name', 'severity', 'category')
    .countDistinct({ pages: 'url_hash' })
    .groupBy('name', 'severity', 'category')) as { name: string; severity: CheckCount['severity']; category: string; pages: string | number }[];
  // The crawler's denominator (docs/health-score.md): every internal URL recorded, since issues
  // such as http_4xx sit on non-2xx URLs.
  const [{ count }] = await knex('crawl_pages').where({ crawl_id: crawlId, is_internal: true }).count({ count: '*' });
  return { pages: Number(count), checks: checks.map((c) => ({ ...c, pages: Number(c.pages) })) };
}

const site = (name: string) => (CHECKS as Record<string, { scope?: 'site' }>)[name]?.scope === 'site';

/** The formula restricted to some categories; null without scored pages. */
export function scoreOf(data: { pages: number; checks: CheckCount[] }, categories: readonly string[]): number | null {
  const score = healthScore({
    pages: data.pages,
    checks: data.checks.filter((c) => categories.includes(c.category)).map((c) => ({ severity: c.severity, pages: c.pages, site: site(c.name) })),
  });
  return score === null ? null : Math.round(score);
}

/** The technique pillar's axes: one per technical category, equally weighted. */
export const TECHNIQUE_AXES = ['http', 'indexability', 'canonicals', 'robots_sitemaps', 'links_images', 'international', 'performance_security'] as const;
/** Content and GEO: on-page content, structured data, and reachability by AI agents. */
export const CONTENT_AXES = ['titles', 'content', 'structured_data', 'ai_reachability'] as const;
