/**
 * What every module receives: the store, the clock, the plans and the shared machinery. Built
 * once by server.ts and frozen; modules declare their jobs and quotas instead of adding to it.
 */
import type { Knex } from 'knex';
import type { PlanCatalogue } from '@siteaudit/schema/rules';
import type { SecretBox } from './crypto/secret-box.js';
import type { EventBus } from './events/bus.js';
import type { JobRunner } from './jobs/job-runner.js';
import type { PublicLinks } from './http/public-url.js';
import type { Logger } from './observability/logger.js';
import type { Metrics } from './observability/metrics.js';
import type { Dialect } from './store/database.js';

export interface Services {
  knex: Knex;
  /** Where reads of a request that writes nothing go (store/database.ts): never inside a transaction of `knex`. */
  reads: Knex;
  dialect: Dialect;
  clock: () => Date;
  plans: () => PlanCatalogue;
  network: { allowPrivateAddresses: boolean };
  /** Absolute links in answers and webhook payloads (publicUrl), never from the request's Host. */
  links: PublicLinks;
  secrets: SecretBox;
  jobs: JobRunner;
  events: EventBus;
  /** Modules log with a child of it: `services.logger.child({ module: 'crawls' })`. */
  logger: Logger;
  /** Null unless the server was created with `metrics`. */
  metrics: Metrics | null;
}
