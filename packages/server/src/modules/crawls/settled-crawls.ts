/**
 * A project's settled crawls as the scorecard, the reports and the log join read them: the latest
 * first, the comparable ones before a crawl, the pages of the latest one.
 */
import type { Knex } from 'knex';
import type { JoinPage } from '@siteaudit/schema/rules';
import type { CrawlRow } from './crawl-row.js';

const settled = (knex: Knex, projectId: string) =>
  knex('crawls')
    .where({ project_id: projectId, status: 'completed', settled: true })
    .orderBy([{ column: 'finished_at', order: 'desc' }, { column: 'id', order: 'desc' }]);

/** The project's settled completed crawls, latest first, at most `limit`. */
export async function settledCrawls(knex: Knex, projectId: string, limit: number): Promise<CrawlRow[]> {
  return (await settled(knex, projectId).limit(limit)) as CrawlRow[];
}

/** The project's latest settled completed crawl, or undefined. */
export async function latestSettledCrawl(knex: Knex, projectId: string): Promise<CrawlRow | undefined> {
  return (await settled(knex, projectId).first()) as CrawlRow | undefined;
}

/**
 * The health score of the project's comparable crawls before `crawl` (completed, settled, same
 * settings: the `config_hash` that makes crawls comparable), latest first, at most `limit`.
 */
export async function earlierComparableScores(
  knex: Knex,
  crawl: CrawlRow,
  limit: number,
): Promise<{ id: string; finished_at: string | Date; health_score: number | null }[]> {
  const q = knex('crawls')
    .where({ project_id: crawl.project_id, config_hash: crawl.config_hash, status: 'completed', settled: true })
    .whereNot({ id: crawl.id })
    .whereNotNull('finished_at');
  if (crawl.finished_at) q.andWhere('finished_at', '<=', crawl.finished_at);
  return q
    .orderBy([{ column: 'finished_at', order: 'desc' }, { column: 'id', order: 'desc' }])
    .limit(limit)
    .select('id', 'finished_at', 'health_score');
}

/**
 * The latest settled crawl's internal pages as the log join reads them (rules/log-analysis.ts):
 * with whether each is noindex or blocked by robots.txt. Null without a settled crawl.
 */
export async function latestCrawlPages(knex: Knex, projectId: string): Promise<{ id: string; pages: JoinPage[] } | null> {
  const crawl = (await settled(knex, projectId).first('id')) as { id: string } | undefined;
  if (!crawl) return null;
  const flagged = (await knex('crawl_issues').where({ crawl_id: crawl.id }).whereIn('name', ['noindex', 'blocked_by_robots']).select('name', 'url_hash')) as { name: string; url_hash: string }[];
  const noindex = new Set(flagged.filter((f) => f.name === 'noindex').map((f) => f.url_hash));
  const blocked = new Set(flagged.filter((f) => f.name === 'blocked_by_robots').map((f) => f.url_hash));
  const rows = (await knex('crawl_pages')
    .where({ crawl_id: crawl.id, is_internal: true })
    .select('url', 'url_hash', 'status_code', 'content_type', 'canonical_url', 'depth')) as (Omit<JoinPage, 'noindex' | 'robots_disallowed'> & { url_hash: string })[];
  return {
    id: crawl.id,
    pages: rows.map(({ url_hash, ...page }) => ({ ...page, depth: page.depth === null ? null : Number(page.depth), noindex: noindex.has(url_hash), robots_disallowed: blocked.has(url_hash) })),
  };
}
