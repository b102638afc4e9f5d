/** The crawls module: its operations, the crawl job, the scheduler, the sweep, the quota and stopping. */
import { CrawlThreadPool } from '../../crawl-threads/pool.js';
import type { Services } from '../../services.js';
import { defineModule, defineQuota } from '../module.js';
import { RunningCrawls } from './running-crawls.js';
import { crawlJob } from './crawl-job.js';
import type { CrawlRuntime } from './fetch-stage.js';
import { crawlHandlers } from './handlers.js';
import { monthStart } from './launch.js';
import { ensureScheduler, scheduleJob } from './schedule-job.js';
import { crawlSweepJob, ensureCrawlSweep } from './sweep-job.js';

/** What the crawls module is built with: the crawl runtime, and the size of its thread pool. */
export interface CrawlsModuleOptions extends Omit<CrawlRuntime, 'threads'> {
  /** Crawl threads at most (crawl-threads/); 0 runs crawls on the thread that answers HTTP. Default: one per core. */
  threads?: number;
  /** Page-analysis threads shared by the crawl threads. Default: threads − 1. */
  analysisThreads?: number;
}

export function crawlsModule(services: Services, options: CrawlsModuleOptions = {}) {
  const running = new RunningCrawls(services);
  // Threads start with the first crawl: a process that never crawls (role api) starts none.
  const threads = new CrawlThreadPool(options.threads, options.analysisThreads);
  return defineModule({
    name: 'crawls',
    handlers: crawlHandlers(services),
    jobs: [crawlJob(services, running, { ...options, threads }), scheduleJob(services), crawlSweepJob(services)],
    quotas: [
      defineQuota('crawls.monthly', async (caller, now) => {
        const [{ count }] = await services.knex('quota_usage').where({ team_id: caller.teamId, entitlement: 'crawls.monthly' }).andWhere('created_at', '>=', monthStart(now)).count({ count: '*' });
        return Number(count);
      }),
    ],
    // Deleting a campaign or a project stops its running crawls first (their modules' `needs`).
    provides: { stopper: running as Pick<RunningCrawls, 'stopThen'> },
    start: async () => {
      await ensureScheduler(services);
      await ensureCrawlSweep(services);
    },
    // After the job runner stopped: no crawl runs any more.
    close: () => threads.close(),
  });
}
