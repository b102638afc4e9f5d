/** The latest settled crawl's pages as the log join reads them (rules/log-analysis.ts). */
import type { Knex } from 'knex';
import type { JoinPage } from '@siteaudit/schema/rules';

export async function latestCrawlPages(knex: Knex, projectId: string): Promise<{ id: string; pages: JoinPage[] } | null> {
  const crawl = (await knex('crawls')
    .where({ project_id: projectId, status: 'completed', settled: true })
    .orderBy([{ column: 'finished_at', order: 'desc' }, { column: 'id', order: 'desc' }])
    .first('id')) as { id: string } | undefined;
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
