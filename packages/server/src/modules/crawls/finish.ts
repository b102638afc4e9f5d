/** The ends of a crawl: stopped, failed, or completed and then settled by post-processing. */
import type { Knex } from 'knex';
import type { Services } from '../../services.js';
import { json } from '../../store/database.js';
import { toCrawl, type CrawlRow, type StagePlanStep } from './crawl-row.js';

async function reload(knex: Knex | Knex.Transaction, crawlId: string): Promise<CrawlRow | undefined> {
  return (await knex('crawls').where({ id: crawlId }).first()) as CrawlRow | undefined;
}

/** Marks every step not done as skipped, with the reason. */
function skipRemaining(plan: string, reason: string): string {
  const steps = json<StagePlanStep[]>(plan, []);
  return JSON.stringify(steps.map((s) => (s.state === 'done' || s.state === 'skipped' ? s : { ...s, state: 'skipped', skip_reason: reason })));
}

async function end(services: Services, crawlId: string, status: 'stopped' | 'failed', error: string | null): Promise<void> {
  await services.knex.transaction(async (trx) => {
    const row = await reload(trx, crawlId);
    if (!row || row.status === 'stopped' || row.status === 'failed') return;
    if (row.status === 'completed' && (row.settled === true || row.settled === 1)) return;
    const now = services.clock().toISOString();
    await trx('crawls')
      .where({ id: crawlId })
      .update({
        status,
        stage: 'done',
        active: false,
        settled: true,
        error,
        stage_plan: skipRemaining(row.stage_plan, status),
        finished_at: row.finished_at ?? now,
      });
    const updated = (await reload(trx, crawlId))!;
    await services.events.publish({ type: status === 'stopped' ? 'crawl.stopped' : 'crawl.failed', teamId: row.team_id, data: { crawl: toCrawl(updated) } }, trx);
  });
}

export const finishStopped = (services: Services, crawlId: string) => end(services, crawlId, 'stopped', null);
export const finishFailed = (services: Services, crawlId: string, error: string) => end(services, crawlId, 'failed', error);
