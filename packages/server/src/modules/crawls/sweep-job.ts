import type { Services } from '../../services.js';
import { transaction } from '../../store/retry.js';
import { defineJobHandler, type ModuleJob } from '../module.js';
import { CRAWL_RUN, CRAWL_SWEEP } from './jobs.js';

/** A dead worker's crawl is queued again within CRAWL_LEASE_MS (lease.ts) + SWEEP_EVERY_MS (+ polling). */
const SWEEP_EVERY_MS = 5_000;

/**
 * The crawl sweep: a crawl whose lease expired (its worker died) is queued again, once per
 * expired lease (the update that clears the dead owner is the one that queues, in its transaction).
 */
export function crawlSweepJob(services: Services): ModuleJob {
  return defineJobHandler(CRAWL_SWEEP, {
    async run() {
      const expired = (await services
        .knex('crawls')
        .where({ settled: false })
        .whereNotNull('lease_owner')
        .andWhere('lease_until_ms', '<', Date.now())
        .select('id', 'lease_token')) as { id: string; lease_token: number }[];
      for (const crawl of expired) {
        await transaction(services.knex, async (trx) => {
          const freed = await trx('crawls')
            .where({ id: crawl.id, lease_token: crawl.lease_token })
            .whereNotNull('lease_owner')
            .andWhere('lease_until_ms', '<', Date.now())
            .update({ lease_owner: null });
          if (freed !== 1) return;
          services.logger.child({ module: 'crawls' }).warn({ crawl: crawl.id }, 'crawl lease expired: queued again for another worker');
          await services.jobs.enqueue(CRAWL_RUN, { crawlId: crawl.id }, { trx });
        });
      }
      return { retryAt: new Date(services.clock().getTime() + SWEEP_EVERY_MS) };
    },
  });
}

/** Queues the sweep unless it is queued already (one chain across processes). */
export async function ensureCrawlSweep(services: Services): Promise<void> {
  await services.jobs.enqueue(CRAWL_SWEEP, {});
}
