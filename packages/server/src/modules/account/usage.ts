import { type Usage } from '@siteaudit/schema';
import { quotaOf, type Entitlement } from '@siteaudit/schema/rules';
import type { Caller } from '../../http/context.js';
import type { ModuleQuota, QuotaCounter } from '../module.js';

/**
 * Counts each quota of GET /v1/usage from the rows that consume it, with the counters the modules
 * declare (`quotas` of defineModule), registered by server.ts; entitlements without one are not
 * reported.
 */
export class QuotaReader {
  private readonly counters = new Map<Entitlement, QuotaCounter>();

  register({ entitlement, count }: ModuleQuota): void {
    this.counters.set(entitlement, count);
  }

  async read(caller: Caller, now: Date): Promise<Usage['quotas']> {
    const out: Usage['quotas'] = [];
    for (const [entitlement, limit] of Object.entries(caller.plan.limits) as [Entitlement, number | null][]) {
      const counter = this.counters.get(entitlement);
      if (!counter) continue;
      const used = await counter(caller, now);
      out.push({ entitlement, ...quotaOf(used, limit) });
    }
    return out;
  }
}
