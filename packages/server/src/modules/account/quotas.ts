import { quotaOf, type Entitlement, type Usage } from '@siteaudit/schema';
import type { Caller } from '../../http/context.js';
import type { Knex } from 'knex';

/** Start of the calendar month (UTC): monthly quotas reset then. */
export function monthStart(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
}

export function dayStart(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())).toISOString();
}

/**
 * Counts each quota of GET /v1/usage from the rows that consume it. Each module adds its own
 * counter (crawls, keywords, webhooks…); entitlements without one are reported with used 0.
 */
export type QuotaCounter = (caller: Caller, now: Date) => Promise<number>;

export class QuotaReader {
  private readonly counters = new Map<Entitlement, QuotaCounter>();

  constructor(knex: Knex) {
    this.register('projects.max', async (caller) => {
      const [{ count }] = await knex('projects').where({ team_id: caller.teamId }).count({ count: '*' });
      return Number(count);
    });
  }

  register(entitlement: Entitlement, counter: QuotaCounter): void {
    this.counters.set(entitlement, counter);
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
