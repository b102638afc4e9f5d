/** The account module: who the caller is (getMe), what it has used (getUsage), its running work. */
import type { RateLimiter } from '../../http/rate-limit.js';
import type { Services } from '../../services.js';
import { defineModule } from '../module.js';
import { accountHandlers } from './handlers.js';
import type { QuotaReader } from './usage.js';

export { QuotaReader } from './usage.js';

export interface AccountOptions {
  rateLimiter: RateLimiter;
  /** Filled by server.ts with every module's quota counters. */
  quotas: QuotaReader;
}

export function accountModule(services: Services, options: AccountOptions) {
  return defineModule({ name: 'account', handlers: accountHandlers(services, options) });
}
