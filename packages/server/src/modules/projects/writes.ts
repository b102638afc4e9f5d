/** What other modules write of the projects: the latest completed crawl a project shows. */
import type { Knex } from 'knex';
import type { Dialect } from '../../store/database.js';

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

/**
 * After crawls were deleted (a campaign and its crawls), the project names `latest()`, the latest
 * settled completed crawl left, or none: never a crawl that answers 404. The project's row is
 * locked first (PostgreSQL), so a crawl settling meanwhile records itself after this, not before.
 */
export async function replaceLatestCrawl(
  trx: Knex.Transaction,
  dialect: Dialect,
  projectId: string,
  latest: () => Promise<{ id: string; finished_at: string | Date | null } | undefined>,
): Promise<void> {
  const row = trx('projects').where({ id: projectId }).first('id');
  if (!(await (dialect === 'postgres' ? row.forUpdate() : row))) return;
  const crawl = await latest();
  await trx('projects')
    .where({ id: projectId })
    .update({ latest_crawl_id: crawl?.id ?? null, latest_crawl_finished_at: crawl?.finished_at ?? null });
}
