/** The ends of a crawl: stopped, failed, or completed and then settled by post-processing. */
import type { Knex } from 'knex';
import type { JobLease } from '../../jobs/job-runner.js';
import { transaction } from '../../store/retry.js';
import { json } from '../../store/database.js';
import { toCrawl, type CrawlRow, type StagePlanStep } from './crawl-row.js';
import type { CrawlJob } from './crawl-context.js';
import { crawlLog, crawlOutcome } from './crawl-log.js';
import { orderCrawlLinks } from './link-order.js';

async function reload(knex: Knex | Knex.Transaction, crawlId: string): Promise<CrawlRow | undefined> {
  return (await knex('crawls').where({ id: crawlId }).first()) as CrawlRow | undefined;
}

/** Marks every step not done as skipped, with the reason. */
function skipRemaining(plan: string, reason: string): string {
  const steps = json<StagePlanStep[]>(plan, []);
  return JSON.stringify(steps.map((s) => (s.state === 'done' || s.state === 'skipped' ? s : { ...s, state: 'skipped', skip_reason: reason })));
}

/**
 * The crawl to settle: a run of the crawl job (CrawlJob), whose lease fences the write so that a
 * run that lost the crawl writes nothing, or a crawl outside any run (a queued crawl stopped, a
 * job failed for good), without a lease.
 */
export type SettlingCrawl = Pick<CrawlJob, 'services'> & { row: Pick<CrawlRow, 'id'>; lease?: JobLease };

/**
 * Settles the crawl `stopped` or `failed` and publishes its event, once: the update that settles
 * it must be the one that finds it unsettled, in the transaction that publishes.
 */
async function end(crawl: SettlingCrawl, status: 'stopped' | 'failed', error: string | null): Promise<void> {
  const { services, lease } = crawl;
  const crawlId = crawl.row.id;
  const settle = async (trx: Knex.Transaction) => {
    const row = await reload(trx, crawlId);
    if (!row) return;
    const now = services.clock().toISOString();
    const settled = await trx('crawls')
      .where({ id: crawlId, settled: false })
      .update({
        status,
        stage: 'done',
        active: false,
        settled: true,
        error,
        stage_plan: skipRemaining(row.stage_plan, status),
        finished_at: row.finished_at ?? now,
      });
    if (settled !== 1) return;
    const updated = (await reload(trx, crawlId))!;
    const log = crawlLog(services);
    if (status === 'failed') log.warn(crawlOutcome(updated), 'crawl failed');
    else log.info(crawlOutcome(updated), 'crawl stopped');
    await services.events.publish({ type: status === 'stopped' ? 'crawl.stopped' : 'crawl.failed', teamId: row.team_id, data: { crawl: toCrawl(updated) } }, trx);
  };
  // What the fetch stored stays readable (the pages, their inlinks): the links found are ordered first.
  await orderCrawlLinks(crawl);
  await (lease ? lease.write(settle) : transaction(services.knex, settle));
}

export const finishStopped = (crawl: SettlingCrawl) => end(crawl, 'stopped', null);
/** `error` is a value of the crawl error catalogue (crawl-errors.ts). */
export const finishFailed = (crawl: SettlingCrawl, error: string) => end(crawl, 'failed', error);
