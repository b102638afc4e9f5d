/** What other modules write of the projects: the latest completed crawl a project shows. */
import type { Knex } from 'knex';

/**
 * Records a completed crawl as the project's latest, unless a crawl that finished later is
 * already recorded (crawls settle in any order).
 */
export async function recordLatestCrawl(knex: Knex, crawl: { id: string; project_id: string; finished_at: string | Date | null }): Promise<void> {
  await knex('projects')
    .where({ id: crawl.project_id })
    .andWhere((q) => q.whereNull('latest_crawl_finished_at').orWhere('latest_crawl_finished_at', '<=', crawl.finished_at))
    .update({ latest_crawl_id: crawl.id, latest_crawl_finished_at: crawl.finished_at });
}
