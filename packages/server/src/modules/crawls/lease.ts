/**
 * A crawl's own lease, whatever job engine runs it (docs/reliability.md, "Crawls across workers").
 * The run that claims a crawl writes its owner, a new fencing token and an end a few seconds
 * ahead (real time); a heartbeat pushes the end on. Every write of the run first renews the lease
 * with `where lease_token = mine`, in the write's transaction, so a run that lost the crawl (it
 * stalled past its lease, and another worker claimed it) can never write again. A run that ends
 * or is stopped releases the lease at once; a worker that dies leaves it to expire, and the
 * crawl sweep (sweep-job.ts) queues the crawl again for another worker.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { LeaseLostError, type JobLease } from '../../jobs/job-runner.js';
import type { Services } from '../../services.js';
import { transaction } from '../../store/retry.js';

/** A dead worker's crawl is queued again within CRAWL_LEASE_MS + the sweep's period (sweep-job.ts). */
export const CRAWL_LEASE_MS = 15_000;
const HEARTBEAT_MS = 2_500;

/** This process, as a lease owner. */
const PROCESS_OWNER = randomUUID();

export interface CrawlLease extends JobLease {
  /** Aborted when a heartbeat finds the crawl taken by another run. */
  lost: AbortSignal;
  /** Ends the heartbeat and frees the crawl for another run at once (when still held). */
  release(): Promise<void>;
}

/**
 * Claims the crawl for this run unless another run holds a live lease (then null: that run goes
 * on, this one has nothing to do). `jobLease` is the job's own lease, checked in the same writes.
 */
export async function claimCrawl(services: Services, crawlId: string, jobLease: JobLease): Promise<CrawlLease | null> {
  const { knex } = services;
  const now = Date.now();
  const token = await transaction(knex, async (trx) => {
    const row = await trx('crawls').where({ id: crawlId, settled: false }).first('lease_token', 'lease_until_ms');
    if (!row || (row.lease_until_ms !== null && Number(row.lease_until_ms) > now)) return null;
    const next = Number(row.lease_token) + 1;
    const taken = await trx('crawls')
      .where({ id: crawlId, lease_token: row.lease_token })
      .update({ lease_owner: PROCESS_OWNER, lease_token: next, lease_until_ms: now + CRAWL_LEASE_MS });
    return taken === 1 ? next : null;
  });
  if (token === null) return null;

  const lost = new AbortController();
  const mine = (db: Knex | Knex.Transaction) => db('crawls').where({ id: crawlId, lease_token: token });
  const renew = async (db: Knex | Knex.Transaction) => (await mine(db).update({ lease_until_ms: Date.now() + CRAWL_LEASE_MS })) === 1;
  const heartbeat = setInterval(() => {
    renew(knex)
      .then((held) => {
        if (!held) lost.abort(new LeaseLostError(crawlId));
      })
      // The next beat tries again; only a lease left unrenewed for its whole length is lost.
      .catch((err) => services.logger.child({ module: 'crawls' }).warn({ err, crawl: crawlId }, 'crawl lease not renewed'));
  }, HEARTBEAT_MS);
  heartbeat.unref();

  const lease: CrawlLease = {
    lost: lost.signal,
    async fence(trx) {
      await jobLease.fence(trx);
      if (!(await renew(trx))) {
        lost.abort(new LeaseLostError(crawlId));
        throw new LeaseLostError(crawlId);
      }
    },
    write: (work) =>
      jobLease.write(async (trx) => {
        if (!(await renew(trx))) {
          lost.abort(new LeaseLostError(crawlId));
          throw new LeaseLostError(crawlId);
        }
        return work(trx);
      }),
    async release() {
      clearInterval(heartbeat);
      await mine(knex)
        .update({ lease_owner: null, lease_until_ms: null })
        .catch((err) => services.logger.child({ module: 'crawls' }).warn({ err, crawl: crawlId }, 'crawl lease not released'));
    },
  };
  return lease;
}
