/**
 * Per-team rate limits over a minute and a day window, in cost units (spec: Limits). The windows,
 * the decision and the headers are the shared rules of `@siteaudit/schema` (the mock uses them
 * too); here are the counters, in memory or in PostgreSQL.
 *
 * Written here rather than with rate-limiter-flexible because our rule is that a call is checked
 * against both windows before either is charged, so a refused call costs nothing, and N parallel
 * calls against K remaining units pass exactly as many as fit. rate-limiter-flexible charges a
 * rejected consume and its union charges every window even when one refuses.
 */
import type { Knex } from 'knex';
import {
  RATE_WINDOWS,
  decideRate,
  rateWindowStart,
  rateWindowStates,
  type RateDecision,
  type RateLimits,
  type RateWindow,
  type RateWindowState,
} from '@siteaudit/schema';
import { retryTransient } from '../store/retry.js';

export interface RateLimiter {
  /** Charges `cost` to every window if it fits all of them, else charges nothing. */
  take(teamId: string, cost: number, limits: RateLimits, now: Date): Promise<RateDecision>;
  /** Gives units back (a 304 costs nothing). */
  refund(teamId: string, cost: number, now: Date): Promise<void>;
  peek(teamId: string, limits: RateLimits, now: Date): Promise<RateWindowState[]>;
}

/** One process (the SQLite default): JavaScript runs each take to completion, so it is exact. */
export function createMemoryRateLimiter(): RateLimiter {
  const counters = new Map<string, Record<RateWindow, { start: number; used: number }>>();
  const current = (teamId: string, now: Date) => {
    let entry = counters.get(teamId);
    if (!entry) {
      entry = { minute: { start: 0, used: 0 }, day: { start: 0, used: 0 } };
      counters.set(teamId, entry);
    }
    for (const w of RATE_WINDOWS) {
      const start = rateWindowStart(w, now);
      if (entry[w].start !== start) entry[w] = { start, used: 0 };
    }
    return entry;
  };
  return {
    async take(teamId, cost, limits, now) {
      const entry = current(teamId, now);
      const result = decideRate({ minute: entry.minute.used, day: entry.day.used }, cost, limits, now);
      if (result.ok) for (const w of RATE_WINDOWS) entry[w].used += cost;
      return result;
    },
    async refund(teamId, cost, now) {
      const entry = current(teamId, now);
      for (const w of RATE_WINDOWS) entry[w].used = Math.max(0, entry[w].used - cost);
    },
    async peek(teamId, limits, now) {
      const entry = current(teamId, now);
      return rateWindowStates({ minute: entry.minute.used, day: entry.day.used }, limits, now);
    },
  };
}

/**
 * PostgreSQL: shared by every server process on the database. A team has one row holding both
 * windows, and each decision is one statement on that row: an upsert that rolls the windows over,
 * checks the cost against both and charges both or neither. Two calls never hold a lock while
 * waiting for another, so they cannot deadlock, and the row lock serialises a team's calls, so
 * exactly as many pass as fit.
 */
export function createPostgresRateLimiter(knex: Knex): RateLimiter {
  // Units charged in a window of the stored row, read as of the window holding `now`.
  const current = (w: RateWindow) => `case when r.${w}_start = excluded.${w}_start then r.${w}_used else 0 end`;
  const fits = RATE_WINDOWS.map((w) => `(cast(:${w}_limit as integer) is null or ${current(w)} + :cost <= cast(:${w}_limit as integer))`).join(' and ');
  const TAKE = `
    insert into team_rate_counters as r (team_id, minute_start, minute_used, day_start, day_used, charged)
    values (:team, :minute_start, :fresh_used, :day_start, :fresh_used, :fresh_charged)
    on conflict (team_id) do update set
      charged = ${fits},
      minute_used = ${current('minute')} + case when ${fits} then :cost else 0 end,
      day_used = ${current('day')} + case when ${fits} then :cost else 0 end,
      minute_start = excluded.minute_start,
      day_start = excluded.day_start
    returning minute_used, day_used, charged`;
  const REFUND = `
    update team_rate_counters set
      minute_used = case when minute_start = :minute_start then greatest(0, minute_used - :cost) else 0 end,
      day_used = case when day_start = :day_start then greatest(0, day_used - :cost) else 0 end,
      minute_start = :minute_start,
      day_start = :day_start
    where team_id = :team`;
  const starts = (now: Date) => ({ minute_start: rateWindowStart('minute', now), day_start: rateWindowStart('day', now) });

  return {
    async take(teamId, cost, limits, now) {
      // A team's first call inserts the row: charged if the cost fits empty windows.
      const fresh = decideRate({ minute: 0, day: 0 }, cost, limits, now).ok;
      const { rows } = await retryTransient(() =>
        knex.raw(TAKE, {
          team: teamId,
          ...starts(now),
          cost,
          minute_limit: limits.minute,
          day_limit: limits.day,
          fresh_used: fresh ? cost : 0,
          fresh_charged: fresh,
        }),
      );
      const row = rows[0] as { minute_used: number; day_used: number; charged: boolean };
      const spent = row.charged ? cost : 0;
      // The same decision, from the units used before this call: its states are the headers.
      const result = decideRate({ minute: row.minute_used - spent, day: row.day_used - spent }, cost, limits, now);
      if (result.ok !== row.charged) throw new Error('rate limiter: the stored decision differs from decideRate');
      return result;
    },
    async refund(teamId, cost, now) {
      await retryTransient(() => knex.raw(REFUND, { team: teamId, cost, ...starts(now) }));
    },
    async peek(teamId, limits, now) {
      const row = await knex('team_rate_counters').where({ team_id: teamId }).first();
      const used = { minute: 0, day: 0 } as Record<RateWindow, number>;
      if (row) for (const w of RATE_WINDOWS) used[w] = Number(row[`${w}_start`]) === rateWindowStart(w, now) ? row[`${w}_used`] : 0;
      return rateWindowStates(used, limits, now);
    },
  };
}
