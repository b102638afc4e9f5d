/**
 * Per-team rate limits over a minute and a day window, in cost units (docs/decisions/rate-limits.md).
 * The windows, the decision, the headers and the in-memory counters are the shared rules of
 * `@siteaudit/schema/rules` (the mock uses them too); here the counters are chosen, and kept in
 * PostgreSQL when the server shares a database with others.
 *
 * Written here rather than with rate-limiter-flexible because our rule is that a call is checked
 * against both windows before either is charged, so a refused call costs nothing, and N parallel
 * calls against K remaining units pass exactly as many as fit. rate-limiter-flexible charges a
 * rejected consume and its union charges every window even when one refuses.
 */
import type { Knex } from 'knex';
import {
  MemoryRateCounters,
  RATE_WINDOWS,
  decideRate,
  rateWindowStart,
  rateWindowStates,
  type RateDecision,
  type RateLimits,
  type RateWindow,
  type RateWindowState,
} from '@siteaudit/schema/rules';
import { retryTransient } from '../store/retry.js';

export interface RateLimiter {
  /** Charges `cost` to every window if it fits all of them, else charges nothing. */
  take(teamId: string, cost: number, limits: RateLimits, now: Date): Promise<RateDecision>;
  /** Gives units back (a 304 costs nothing). */
  refund(teamId: string, cost: number, now: Date): Promise<void>;
  peek(teamId: string, limits: RateLimits, now: Date): Promise<RateWindowState[]>;
}

/** One process (the SQLite default): the schema's in-memory counters, the mock's too. */
export function createMemoryRateLimiter(): RateLimiter {
  const counters = new MemoryRateCounters();
  return {
    take: async (teamId, cost, limits, now) => counters.take(teamId, cost, limits, now),
    refund: async (teamId, cost, now) => counters.refund(teamId, cost, now),
    peek: async (teamId, limits, now) => counters.peek(teamId, limits, now),
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
  // Units charged in the window of the stored row, read as of the window holding `now`. A window
  // only moves forward: a call that read the clock before the boundary and arrives after another
  // began the next window (or a process whose clock lags) counts in the window that has begun,
  // instead of setting the row back to the ended one and losing the new window's units.
  const current = (w: RateWindow) => `case when r.${w}_start >= excluded.${w}_start then r.${w}_used else 0 end`;
  const fits = RATE_WINDOWS.map((w) => `(cast(:${w}_limit as integer) is null or ${current(w)} + :cost <= cast(:${w}_limit as integer))`).join(' and ');
  const TAKE = `
    insert into team_rate_counters as r (team_id, minute_start, minute_used, day_start, day_used, charged)
    values (:team, :minute_start, :fresh_used, :day_start, :fresh_used, :fresh_charged)
    on conflict (team_id) do update set
      charged = ${fits},
      minute_used = ${current('minute')} + case when ${fits} then :cost else 0 end,
      day_used = ${current('day')} + case when ${fits} then :cost else 0 end,
      minute_start = greatest(r.minute_start, excluded.minute_start),
      day_start = greatest(r.day_start, excluded.day_start)
    returning minute_used, day_used, charged`;
  // Gives back to a window still current only: units charged in a window that has ended are not
  // taken from the next one (nor is the row set back to the ended window).
  const REFUND = `
    update team_rate_counters set
      minute_used = case when minute_start = :minute_start then greatest(0, minute_used - :cost) when minute_start > :minute_start then minute_used else 0 end,
      day_used = case when day_start = :day_start then greatest(0, day_used - :cost) when day_start > :day_start then day_used else 0 end,
      minute_start = greatest(minute_start, :minute_start),
      day_start = greatest(day_start, :day_start)
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
      if (row) for (const w of RATE_WINDOWS) used[w] = Number(row[`${w}_start`]) >= rateWindowStart(w, now) ? row[`${w}_used`] : 0;
      return rateWindowStates(used, limits, now);
    },
  };
}
