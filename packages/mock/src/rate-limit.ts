/**
 * Per-team rate limits over a minute and a day window, in cost units (docs/decisions/rate-limits.md),
 * counted in memory on the mock clock. The windows, the decision, the headers, the 429 and the
 * counters themselves are the server's own rules from `@siteaudit/schema/rules`.
 */
import type { Plan, RateDecision, RateWindowState } from '@siteaudit/schema/rules';
import type { MockDb } from './db.js';

/** Charges `cost` to both windows of the team when it fits both, else charges nothing. */
export function take(db: MockDb, teamId: string, plan: Plan, cost: number, now: Date): RateDecision {
  return db.rate.take(teamId, cost, plan.rateLimits, now);
}

/** Gives units back: a 304 costs nothing. */
export function refund(db: MockDb, teamId: string, cost: number, now: Date): void {
  db.rate.refund(teamId, cost, now);
}

/** The current state of both windows, without charging (usage, forced answers). */
export function peek(db: MockDb, teamId: string, plan: Plan, now: Date): RateWindowState[] {
  return db.rate.peek(teamId, plan.rateLimits, now);
}
