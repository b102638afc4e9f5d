/**
 * Per-team rate limits over a minute and a day window, in cost units (docs/decisions/rate-limits.md;
 * docs/decisions/rate-limits.md): the windows, the decision and the response headers. The
 * server keeps the counters in memory or PostgreSQL, the mock in its in-memory store; both decide
 * and answer with these functions, so a 429 and its headers are the same from either.
 *
 * Fixed windows aligned on the clock: the minute on :00 seconds, the day on 00:00 UTC. A call is
 * checked against both windows before either is charged, so a refused call costs nothing.
 */
import { upgradeTo, type Plan, type PlanCatalogue } from './plans.js';

export type RateWindow = 'minute' | 'day';
export const RATE_WINDOWS: readonly RateWindow[] = ['minute', 'day'];
export const RATE_WINDOW_SECONDS: Record<RateWindow, number> = { minute: 60, day: 86_400 };

/** Cost units per window; null means unlimited (a plan's `rateLimits`). */
export type RateLimits = Record<RateWindow, number | null>;

/** One window of a team at an instant: what `GET /v1/usage` and the headers show. */
export interface RateWindowState {
  window: RateWindow;
  windowSeconds: number;
  limit: number | null;
  used: number;
  remaining: number | null;
  resetsInSeconds: number;
}

export type RateDecision =
  | { ok: true; states: RateWindowState[] }
  | { ok: false; exhausted: RateWindow; states: RateWindowState[] };

/** Epoch milliseconds at which the window holding `now` started. */
export function rateWindowStart(window: RateWindow, now: Date): number {
  const size = RATE_WINDOW_SECONDS[window] * 1000;
  return Math.floor(now.getTime() / size) * size;
}

/** The state of a window in which `used` units have been charged. */
export function rateWindowState(window: RateWindow, limit: number | null, used: number, now: Date): RateWindowState {
  const end = rateWindowStart(window, now) + RATE_WINDOW_SECONDS[window] * 1000;
  return {
    window,
    windowSeconds: RATE_WINDOW_SECONDS[window],
    limit,
    used,
    remaining: limit === null ? null : Math.max(0, limit - used),
    resetsInSeconds: Math.max(1, Math.ceil((end - now.getTime()) / 1000)),
  };
}

/** The states of both windows, charged `used`. */
export function rateWindowStates(used: Record<RateWindow, number>, limits: RateLimits, now: Date): RateWindowState[] {
  return RATE_WINDOWS.map((w) => rateWindowState(w, limits[w], used[w], now));
}

/**
 * Whether `cost` fits both windows given what they have `used`; when it does, the states are
 * those after charging it (the caller then charges it), else those before, with the window that
 * refused.
 */
export function decideRate(used: Record<RateWindow, number>, cost: number, limits: RateLimits, now: Date): RateDecision {
  const exhausted = RATE_WINDOWS.filter((w) => limits[w] !== null && used[w] + cost > (limits[w] as number));
  if (exhausted.length > 0) {
    // Report the window that frees up last: retrying earlier would only be refused again.
    const worst: RateWindow = exhausted.includes('day') ? 'day' : 'minute';
    return { ok: false, exhausted: worst, states: rateWindowStates(used, limits, now) };
  }
  return { ok: true, states: rateWindowStates({ minute: used.minute + cost, day: used.day + cost }, limits, now) };
}

/**
 * The rate-limit response headers (docs/decisions/rate-limits.md), in the IETF draft -10 syntax: `X-Request-Cost`, then,
 * for the limited windows, `RateLimit-Policy` and `RateLimit`, and `X-RateLimit-*` for the minute.
 *
 * @example
 * rateLimitHeaders(decision.states, entry.cost);
 * // { 'X-Request-Cost': '1', 'RateLimit-Policy': '"minute";q=600;w=60, "day";q=100000;w=86400', … }
 */
export function rateLimitHeaders(states: readonly RateWindowState[], cost: number): Record<string, string> {
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

/** `upgrade_to` of a 429: the first plan whose envelope for `window` is larger than the caller's. */
export function rateLimitUpgrade(plans: PlanCatalogue, plan: Plan, window: RateWindow): string | null {
  const current = plan.rateLimits[window];
  return upgradeTo(plans, plan.key, (p) => current !== null && (p.rateLimits[window] === null || (p.rateLimits[window] as number) > current));
}

/**
 * The 429 `rate_limited` of a refused call: the problem's extras (`window`, `retry_after`,
 * `upgrade_to`) and its headers (`Retry-After`, and the rate headers at cost 0, since a 429
 * costs nothing).
 */
export function rateLimitRefusal(
  decision: Extract<RateDecision, { ok: false }>,
  plans: PlanCatalogue,
  plan: Plan,
): { extras: { window: RateWindow; retry_after: number; upgrade_to: string | null }; headers: Record<string, string> } {
  const state = decision.states.find((s) => s.window === decision.exhausted)!;
  return {
    extras: { window: decision.exhausted, retry_after: state.resetsInSeconds, upgrade_to: rateLimitUpgrade(plans, plan, decision.exhausted) },
    headers: { 'Retry-After': String(state.resetsInSeconds), ...rateLimitHeaders(decision.states, 0) },
  };
}
