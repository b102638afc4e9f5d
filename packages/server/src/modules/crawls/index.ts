import type { Handlers } from '../../http/binder.js';
import type { Services } from '../../services.js';
import { monthStart } from '../account/quotas.js';
import { CrawlControl } from './control.js';
import { crawlHandlers } from './handlers.js';
import { registerCrawlJob } from './run.js';
import { ensureScheduler, registerScheduler } from './scheduler.js';

/** The crawls module: its operations, the crawl job, the scheduler, the quota and stopping. */
export function crawlsModule(services: Services) {
  const control = new CrawlControl(services);
  registerCrawlJob(services, control);
  registerScheduler(services);
  services.quotas.register('crawls.monthly', async (caller, now) => {
    const [{ count }] = await services.knex('quota_usage').where({ team_id: caller.teamId, entitlement: 'crawls.monthly' }).andWhere('created_at', '>=', monthStart(now)).count({ count: '*' });
    return Number(count);
  });
  return {
    handlers: crawlHandlers(services) satisfies Partial<Handlers>,
    control,
    start: () => ensureScheduler(services),
  };
}
