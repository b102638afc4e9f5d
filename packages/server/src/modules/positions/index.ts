/** The rank-tracking module: its handlers, its jobs and its quota counters for GET /v1/usage. */
import { isoDay, monthStartDay } from '@siteaudit/schema/rules';
import type { Providers } from '../../providers/index.js';
import type { Services } from '../../services.js';
import { defineModule, defineQuota } from '../module.js';
import { positionHandlers } from './handlers.js';
import { liveChecksSince, poolUsed } from './store.js';
import { positionJobs } from './tracking-jobs.js';

export function positionsModule(services: Services, providers: Providers) {
  const { knex } = services;
  return defineModule({
    name: 'positions',
    handlers: positionHandlers(services, providers),
    jobs: positionJobs(services, providers),
    quotas: [
      defineQuota('positions.tracked_keywords', (caller) => poolUsed(knex, caller.teamId)),
      defineQuota('positions.live_checks_per_day', (caller, now) => liveChecksSince(knex, caller.teamId, isoDay(now), isoDay(now))),
      defineQuota('positions.monthly_spend', (caller, now) => liveChecksSince(knex, caller.teamId, monthStartDay(isoDay(now)))),
    ],
  });
}
