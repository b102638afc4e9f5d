/** The rank-tracking module: its jobs, its quota counters for GET /v1/usage, and its handlers. */
import { isoDay, monthStartDay } from '@siteaudit/schema';
import type { Providers } from '../../providers/index.js';
import type { Services } from '../../services.js';
import type { ServerModule } from '../module.js';
import { positionHandlers } from './handlers.js';
import { registerPositionJobs } from './jobs.js';
import { liveChecksSince, poolUsed } from './store.js';

export function positionsModule(services: Services, providers: Providers): ServerModule<ReturnType<typeof positionHandlers>> {
  registerPositionJobs(services, providers);
  services.quotas.register('positions.tracked_keywords', (caller) => poolUsed(services.knex, caller.teamId));
  services.quotas.register('positions.live_checks_per_day', (caller, now) => liveChecksSince(services.knex, caller.teamId, isoDay(now), isoDay(now)));
  services.quotas.register('positions.monthly_spend', (caller, now) => liveChecksSince(services.knex, caller.teamId, monthStartDay(isoDay(now))));
  return { handlers: positionHandlers(services, providers) };
}
