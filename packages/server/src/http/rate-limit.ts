/**
 * Per-team rate limits over a minute and a day window, in cost units (spec: Limits).
 *
 * Written here rather than with rate-limiter-flexible because our rule is that a call is checked
 * against both windows before either is charged, so a refused call costs nothing, and N parallel
 * calls against K remaining units pass exactly as many as fit. rate-limiter-flexible charges a
 * rejected consume and its union charges every window even when one refuses.
 *
 * Fixed windows aligned on the clock: the minute on :00 seconds, the day on 00:00 UTC.
 */
import type { Knex } from 'knex';

export type WindowName = 'minute' | 'day';
export const WINDOW_SECONDS: Record<WindowName, number> = { minute: 60, day: 86_400 };
const WINDOWS: WindowName[] = ['minute', 'day'];

export type Limits = Record<WindowName, number | null>;

export interface WindowState {
  window: WindowName;
  windowSeconds: number;
  limit: number | null;
  used: number;
  remaining: number | null;
  resetsInSeconds: number;
}

export type TakeResult = { ok: true; states: WindowState[] } | { ok: false; exhausted: WindowName; states: WindowState[] };

export interface RateLimiter {
  /** Charges `cost` to every window if it fits all of them, else charges nothing. */
  take(teamId: string, cost: number, limits: Limits, now: Date): Promise<TakeResult>;
  /** Gives units back (a 304 costs nothing). */
  refund(teamId: string, cost: number, now: Date): Promise<void>;
  peek(teamId: string, limits: Limits, now: Date): Promise<WindowState[]>;
}

function windowStart(window: WindowName, now: Date): number {
  const size = WINDOW_SECONDS[window] * 1000;
  return Math.floor(now.getTime() / size) * size;
}

function state(window: WindowName, limit: number | null, used: number, now: Date): WindowState {
  const end = windowStart(window, now) + WINDOW_SECONDS[window] * 1000;
  return {
    window,
    windowSeconds: WINDOW_SECONDS[window],
    limit,
    used,
    remaining: limit === null ? null : Math.max(0, limit - used),
    resetsInSeconds: Math.max(1, Math.ceil((end - now.getTime()) / 1000)),
  };
}

function decide(used: Record<WindowName, number>, cost: number, limits: Limits, now: Date): TakeResult {
  const exhausted = WINDOWS.filter((w) => limits[w] !== null && used[w] + cost > (limits[w] as number));
  if (exhausted.length > 0) {
    // Report the window that frees up last: retrying earlier would only be refused again.
    const worst = exhausted.includes('day') ? 'day' : 'minute';
    return { ok: false, exhausted: worst, states: WINDOWS.map((w) => state(w, limits[w], used[w], now)) };
  }
  return { ok: true, states: WINDOWS.map((w) => state(w, limits[w], used[w] + cost, now)) };
}

/** One process (the SQLite default): JavaScript runs each take to completion, so it is exact. */
export function createMemoryRateLimiter(): RateLimiter {
  const counters = new Map<string, Record<WindowName, { start: number; used: number }>>();
  const current = (teamId: string, now: Date) => {
    let entry = counters.get(teamId);
    if (!entry) {
      entry = { minute: { start: 0, used: 0 }, day: { start: 0, used: 0 } };
      counters.set(teamId, entry);
    }
    for (const w of WINDOWS) {
      const start = windowStart(w, now);
      if (entry[w].start !== start) entry[w] = { start, used: 0 };
    }
    return entry;
  };
  return {
    async take(teamId, cost, limits, now) {
      const entry = current(teamId, now);
      const result = decide({ minute: entry.minute.used, day: entry.day.used }, cost, limits, now);
      if (result.ok) for (const w of WINDOWS) entry[w].used += cost;
      return result;
    },
    async refund(teamId, cost, now) {
      const entry = current(teamId, now);
      for (const w of WINDOWS) entry[w].used = Math.max(0, entry[w].used - cost);
    },
    async peek(teamId, limits, now) {
      const entry = current(teamId, now);
      return WINDOWS.map((w) => state(w, limits[w], entry[w].used, now));
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
      .insert(WINDOWS.map((w) => ({ team_id: teamId, window: w, window_start: windowStart(w, now), used: 0 })))
      .onConflict(['team_id', 'window'])
      .ignore();
    const rows: { window: WindowName; window_start: string | number; used: number }[] = await trx('rate_counters')
      .where({ team_id: teamId })
      .forUpdate()
      .select('window', 'window_start', 'used');
    const used = { minute: 0, day: 0 } as Record<WindowName, number>;
    for (const row of rows) used[row.window] = Number(row.window_start) === windowStart(row.window, now) ? row.used : 0;
    return used;
  };
  const write = (trx: Knex.Transaction, teamId: string, used: Record<WindowName, number>, now: Date) =>
    Promise.all(
      WINDOWS.map((w) =>
        trx('rate_counters').where({ team_id: teamId, window: w }).update({ window_start: windowStart(w, now), used: used[w] }),
      ),
    );
  return {
    take: (teamId, cost, limits, now) =>
      knex.transaction(async (trx) => {
        const used = await locked(trx, teamId, now);
        const result = decide(used, cost, limits, now);
        if (result.ok) await write(trx, teamId, { minute: used.minute + cost, day: used.day + cost }, now);
        return result;
      }),
    refund: (teamId, cost, now) =>
      knex.transaction(async (trx) => {
        const used = await locked(trx, teamId, now);
        await write(trx, teamId, { minute: Math.max(0, used.minute - cost), day: Math.max(0, used.day - cost) }, now);
      }),
    peek: async (teamId, limits, now) => {
      const rows: { window: WindowName; window_start: string | number; used: number }[] = await knex('rate_counters').where({ team_id: teamId });
      return WINDOWS.map((w) => {
        const row = rows.find((r) => r.window === w);
        const used = row && Number(row.window_start) === windowStart(w, now) ? row.used : 0;
        return state(w, limits[w], used, now);
      });
    },
  };
}

/** The response headers of spec Limits §3, in the IETF draft -10 syntax. */
export function rateLimitHeaders(states: WindowState[], cost: number): Record<string, string> {
  const limited = states.filter((s) => s.limit !== null);
  const headers: Record<string, string> = { 'X-Request-Cost': String(cost) };
  if (limited.length === 0) return headers;
  headers['RateLimit-Policy'] = limited.map((s) => `"${s.window}";q=${s.limit};w=${s.windowSeconds}`).join(', ');
  headers.RateLimit = limited.map((s) => `"${s.window}";r=${s.remaining};t=${s.resetsInSeconds}`).join(', ');
  const minute = limited.find((s) => s.window === 'minute');
  if (minute) {
    headers['X-RateLimit-Limit'] = String(minute.limit);
    headers['X-RateLimit-Remaining'] = String(minute.remaining);
    headers['X-RateLimit-Reset'] = String(minute.resetsInSeconds);
  }
  return headers;
}
