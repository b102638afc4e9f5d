/**
 * The crawl job: the fetch stage (fetch-stage.ts), then post-processing (post-process.ts) until
 * the crawl is settled and `crawl.completed` published. A run interrupted by a restart starts the
 * fetch again from scratch; one that keeps failing ends `failed` with an `error`. Every write goes
 * through the crawl's lease (lease.ts): a run that lost its crawl to another worker writes nothing more.
 */
import { throwIfAborted } from '../../abort.js';
import { PatternError } from '@siteaudit/schema/rules';
import { defineJobHandler, type ModuleJob } from '../module.js';
import { CRAWL_RUN } from './jobs.js';
import type { Services } from '../../services.js';
import { bool } from '../../store/database.js';
import type { RunningCrawls } from './running-crawls.js';
import { crawlError, crawlErrorFor } from './crawl-errors.js';
import type { CrawlRow } from './crawl-row.js';
import type { CrawlJob, CrawlRuntime } from './crawl-context.js';
import { fetchStage } from './fetch-stage.js';
import { finishFailed, finishStopped } from './finish.js';
import { claimCrawl, type CrawlLease } from './lease.js';
import { postProcess } from './post-process.js';

export function crawlJob(services: Services, control: RunningCrawls, runtime: CrawlRuntime): ModuleJob {
  return defineJobHandler(CRAWL_RUN, {
    async run({ crawlId }, ctx) {
      const row = (await services.knex('crawls').where({ id: crawlId }).first()) as CrawlRow | undefined;
      if (!row || bool(row.settled)) return;
      // One run per crawl across workers: a live lease elsewhere means that run goes on.
      const lease = await claimCrawl(services, crawlId, ctx.lease);
      if (!lease) return;
      const signal = AbortSignal.any([ctx.signal, lease.lost]);
      try {
        await runCrawl({ services, runtime, row, signal, lease }, control);
      } catch (error) {
        // Another run holds the crawl now: this one ends without a word.
        if (lease.lost.aborted) return;
        throw error;
      } finally {
        await lease.release();
      }
      if (lease.lost.aborted) return;
      throwIfAborted(ctx.signal);
    },
    async onFailed({ crawlId }, _message, cause) {
      await finishFailed({ services, row: { id: crawlId } }, crawlErrorFor(cause));
    },
  });
}

/** The crawl's stages under its lease: fetch (unless done), then post-processing. */
async function runCrawl(job: CrawlJob & { lease: CrawlLease }, control: RunningCrawls): Promise<void> {
  const { services, row, signal } = job;
  const crawlId = row.id;
  if (bool(row.stop_requested)) return finishStopped(job);
  if (row.status !== 'completed') {
    const controller = new AbortController();
    const onAbort = () => controller.abort();
    signal.addEventListener('abort', onAbort);
    // Aborted by a stop, the fetch is a stop whatever it ended with: before it could say so (its
    // first requests still open, an error), or as its last page came in (a normal end).
    const stoppedByAbort = async () => controller.signal.aborted && (await stopRequested(services, crawlId));
    const done = fetchStage({ ...job, signal: controller.signal }).then(
      async (end) => (end !== 'stopped' && (await stoppedByAbort()) ? ('stopped' as const) : end),
      async (error: unknown) => {
        if (await stoppedByAbort()) return 'stopped' as const;
        throw error;
      },
    );
    // What a stop waits for: the fetch and, when it ends stopped, the crawl settled `stopped` with
    // its crawl.stopped event. Awaiting the fetch alone let the campaign deletion that asked for the
    // stop delete the crawl before it was settled: its subscribers never heard of it.
    const stoppedSettled = done.then((end) => (end === 'stopped' ? finishStopped(job) : undefined));
    control.track(crawlId, stoppedSettled.then(() => undefined, () => undefined), controller);
    try {
      const end = await done;
      if (end === 'stopped') return await stoppedSettled;
      // The site could not be reached: a failure the subscriber hears of (crawl.failed), docs/decisions/crawl-lifecycle.md.
      if (typeof end === 'object') return finishFailed(job, end.unreachable);
    } catch (error) {
      // A stored pattern the campaign rules now refuse: another attempt would fail alike.
      if (error instanceof PatternError) return finishFailed(job, crawlError('crawl.invalid_pattern', error.message));
      throw error;
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
    if (signal.aborted) return;
  }
  await postProcess(job);
}

/** Whether a stop was asked for the crawl (a deleted campaign or project), by this process or another. */
async function stopRequested(services: Services, crawlId: string): Promise<boolean> {
  const row = (await services.knex('crawls').where({ id: crawlId }).first('stop_requested')) as { stop_requested: boolean | number } | undefined;
  return row !== undefined && bool(row.stop_requested);
}
