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
 * PostgreSQL: shared by every server process on the database. Both rows of the team are locked
 * (`FOR UPDATE`) for the decision, so concurrent takes are serialised per team.
 */
export function createPostgresRateLimiter(knex: Knex): RateLimiter {
  const locked = async (trx: Knex.Transaction, teamId: string, now: Date) => {
    await trx('rate_counters')
      .insert(RATE_WINDOWS.map((w) => ({ team_id: teamId, window: w, window_start: rateWindowStart(w, now), used: 0 })))
      .onConflict(['team_id', 'window'])
      .ignore();
    const rows: { window: RateWindow; window_start: string | number; used: number }[] = await trx('rate_counters')
      .where({ team_id: teamId })
      .forUpdate()
      .select('window', 'window_start', 'used');
    const used = { minute: 0, day: 0 } as Record<RateWindow, number>;
    for (const row of rows) used[row.window] = Number(row.window_start) === rateWindowStart(row.window, now) ? row.used : 0;
    return used;
  };
  const write = (trx: Knex.Transaction, teamId: string, used: Record<RateWindow, number>, now: Date) =>
    Promise.all(
      RATE_WINDOWS.map((w) =>
        trx('rate_counters').where({ team_id: teamId, window: w }).update({ window_start: rateWindowStart(w, now), used: used[w] }),
      ),
    );
  return {
    take: (teamId, cost, limits, now) =>
      knex.transaction(async (trx) => {
        const used = await locked(trx, teamId, now);
        const result = decideRate(used, cost, limits, now);
        if (result.ok) await write(trx, teamId, { minute: used.minute + cost, day: used.day + cost }, now);
        return result;
      }),
    refund: (teamId, cost, now) =>
      knex.transaction(async (trx) => {
        const used = await locked(trx, teamId, now);
        await write(trx, teamId, { minute: Math.max(0, used.minute - cost), day: Math.max(0, used.day - cost) }, now);
      }),
    peek: async (teamId, limits, now) => {
      const rows: { window: RateWindow; window_start: string | number; used: number }[] = await knex('rate_counters').where({ team_id: teamId });
      const used = { minute: 0, day: 0 } as Record<RateWindow, number>;
      for (const row of rows) used[row.window] = Number(row.window_start) === rateWindowStart(row.window, now) ? row.used : 0;
      return rateWindowStates(used, limits, now);
    },
  };
}
