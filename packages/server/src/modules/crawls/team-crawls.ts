/** Crawl reads other modules make outside a crawl's own requests. */
import type { Knex } from 'knex';
import type { CrawlRow } from './crawl-row.js';

/** A team's running crawls (queued or crawling), newest first, at most `limit`, and how many there are. */
export async function activeCrawlsOfTeam(knex: Knex, teamId: string, limit: number): Promise<{ total: number; rows: CrawlRow[] }> {
  const running = knex('crawls').where({ team_id: teamId, active: true });
  const [{ count }] = await running.clone().count({ count: '*' });
  const rows = (await running
    .clone()
    .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
    .limit(limit)) as CrawlRow[];
  return { total: Number(count), rows };
}

/** The ids of every crawl of a team, a project or a campaign, whatever its status: what their deletion takes with it. */
export async function crawlIdsWhere(knex: Knex, where: { team_id: string } | { project_id: string } | { campaign_id: string }): Promise<string[]> {
  return knex('crawls').where(where).pluck('id');
}

/** The URLs of a crawl's internal HTML pages answered 200, shallowest first, in crawl order. */
export async function shallowHtmlPageUrls(knex: Knex, crawlId: string, limit: number): Promise<string[]> {
  return knex('crawl_pages')
    .where({ crawl_id: crawlId, is_internal: true, status_code: 200 })
    .andWhere('content_type', 'like', 'text/html%')
    .orderBy([{ column: 'depth' }, { column: 'seq' }])
    .limit(limit)
    .pluck('url');
}
