/** The account answers the server and the mock build alike: usage, API access, the operations cap. */
import type { Usage } from '../resources/account.js';
import type { Plan } from './plans.js';
import type { RateWindowState } from './rate-limits.js';

/** How many running operations `GET /v1/operations` shows at most; `meta.total` counts them all. */
export const OPERATIONS_CAP = 50;

/** What the plan lets a token do, as `GET /v1/me` says it. */
export function apiAccess(plan: Pick<Plan, 'api'>): ('read' | 'write')[] {
  return plan.api === 'write' ? ['read', 'write'] : plan.api === 'read' ? ['read'] : [];
}

/** `GET /v1/usage`: both rate windows, in cost units, and the quotas the team consumes. */
export function usageAnswer(states: readonly RateWindowState[], quotas: Usage['quotas']): Usage {
  return {
    rate_limits: states.map((s) => ({
      window: s.window,
      window_seconds: s.windowSeconds,
      unit: 'cost' as const,
      limit: s.limit,
      used: s.used,
      remaining: s.remaining,
      resets_in_seconds: s.resetsInSeconds,
    })),
    quotas,
  };
}
