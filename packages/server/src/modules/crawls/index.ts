import { CrawlThreadPool } from '../../crawler/threads/pool.js';
import type { Services } from '../../services.js';
import { monthStart } from '../account/quotas.js';
import type { ServerModule } from '../module.js';
import { CrawlControl } from './control.js';
import { crawlHandlers } from './handlers.js';
import { registerCrawlJob, type CrawlRuntime } from './run.js';
import { registerCrawlSweep } from './lease.js';
import { ensureScheduler, registerScheduler } from './scheduler.js';

/** Stops the running crawls of a campaign or project: what their deletion needs of this module. */
export type CrawlStopper = Pick<CrawlControl, 'stopWhere'>;

/** What the crawls module is built with: the crawl runtime, and the size of its thread pool. */
export interface CrawlsModuleOptions extends Omit<CrawlRuntime, 'threads'> {
  /** Crawl threads at most (crawler/threads); 0 runs crawls on the thread that answers HTTP. Default: one per core. */
  threads?: number;
}

/** The crawls module: its operations, the crawl job, the scheduler, the quota and stopping. */
export function crawlsModule(services: Services, options: CrawlsModuleOptions = {}): ServerModule<ReturnType<typeof crawlHandlers>> & { control: CrawlStopper } {
  const control = new CrawlControl(services);
  // Threads start with the first crawl: a process that never crawls (role api) starts none.
  const threads = new CrawlThreadPool(options.threads);
  registerCrawlJob(services, control, { ...options, threads });
  registerScheduler(services);
  const sweep = registerCrawlSweep(services);
  services.quotas.register('crawls.monthly', async (caller, now) => {
    const [{ count }] = await services.knex('quota_usage').where({ team_id: caller.teamId, entitlement: 'crawls.monthly' }).andWhere('created_at', '>=', monthStart(now)).count({ count: '*' });
    return Number(count);
  });
  return {
    handlers: crawlHandlers(services),
    control,
    start: async () => {
      await ensureScheduler(services);
      await sweep.start();
    },
    // After the job runner stopped: no crawl runs any more.
    close: () => threads.close(),
  };
}
