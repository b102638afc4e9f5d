/**
 * Per-team rate limits over a minute and a day window, in cost units (spec: Limits), counted in
 * memory on the mock clock. The windows, the decision, the headers and the 429 are the server's
 * own rules from `@siteaudit/schema`; only the counters live here.
 */
import { RATE_WINDOWS, decideRate, rateWindowStart, rateWindowStates, type Plan, type RateDecision, type RateWindowState } from '@siteaudit/schema';
import type { MockDb, RateCounter } from './db.js';

function counter(db: MockDb, teamId: string, now: Date): RateCounter {
  let entry = db.rate.get(teamId);
  if (!entry) {
    entry = { minute: { start: 0, used: 0 }, day: { start: 0, used: 0 } };
    db.rate.set(teamId, entry);
  }
  for (const w of RATE_WINDOWS) {
    const start = rateWindowStart(w, now);
    if (entry[w].start !== start) entry[w] = { start, used: 0 };
  }
  return entry;
}

/** Charges `cost` to both windows of the team when it fits both, else charges nothing. */
export function take(db: MockDb, teamId: string, plan: Plan, cost: number, now: Date): RateDecision {
  const entry = counter(db, teamId, now);
  const decision = decideRate({ minute: entry.minute.used, day: entry.day.used }, cost, plan.rateLimits, now);
  if (decision.ok) for (const w of RATE_WINDOWS) entry[w].used += cost;
  return decision;
}

/** Gives units back: a 304 costs nothing. */
export function refund(db: MockDb, teamId: string, cost: number, now: Date): void {
  const entry = counter(db, teamId, now);
  for (const w of RATE_WINDOWS) entry[w].used = Math.max(0, entry[w].used - cost);
}

/** The current state of both windows, without charging (usage, forced answers). */
export function peek(db: MockDb, teamId: string, plan: Plan, now: Date): RateWindowState[] {
  const entry = counter(db, teamId, now);
  return rateWindowStates({ minute: entry.minute.used, day: entry.day.used }, plan.rateLimits, now);
}
