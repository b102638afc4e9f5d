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

/** The crawls module: its operations, the crawl job, the scheduler, the quota and stopping. */
export function crawlsModule(services: Services, runtime: CrawlRuntime = {}): ServerModule<ReturnType<typeof crawlHandlers>> & { control: CrawlStopper } {
  const control = new CrawlControl(services);
  registerCrawlJob(services, control, runtime);
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
  };
}
