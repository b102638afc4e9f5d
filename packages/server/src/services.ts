/** What every module receives: the store, the clock, the plans and the shared machinery. */
import type { Knex } from 'knex';
import type { PlanCatalogue } from '@siteaudit/schema';
import type { SecretBox } from './crypto/secret-box.js';
import type { Dialect } from './store/database.js';

export interface Services {
  knex: Knex;
  dialect: Dialect;
  clock: () => Date;
  plans: () => PlanCatalogue;
  network: { allowPrivateAddresses: boolean };
  secrets: SecretBox;
}
