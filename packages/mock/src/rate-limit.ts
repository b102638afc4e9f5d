/**
 * Per-team rate limits over a minute and a day window, in cost units (spec: Limits), counted in
 * memory on the mock clock. Same rules as the server: fixed windows aligned on :00 seconds and
 * 00:00 UTC, a call is checked against both windows before either is charged (a refused call
 * costs nothing), a 304 is refunded, and a 429 names the window that frees up last.
 */
import { upgradeTo, type Plan, type PlanCatalogue } from '@siteaudit/schema';
import type { MockDb, RateCounter } from './db.js';

export type WindowName = 'minute' | 'day';
const WINDOW_SECONDS: Record<WindowName, number> = { minute: 60, day: 86_400 };
const WINDOWS: WindowName[] = ['minute', 'day'];

export interface WindowState {
  window: WindowName;
  windowSeconds: number;
  limit: number | null;
  used: number;
  remaining: number | null;
  resetsInSeconds: number;
}

function windowStart(window: WindowName, now: number): number {
  const size = WINDOW_SECONDS[window] * 1000;
  return Math.floor(now / size) * size;
}

function counter(db: MockDb, teamId: string, now: number): RateCounter {
  let entry = db.rate.get(teamId);
  if (!entry) {
    entry = { minute: { start: 0, used: 0 }, day: { start: 0, used: 0 } };
    db.rate.set(teamId, entry);
  }
  for (const w of WINDOWS) {
    const start = windowStart(w, now);
    if (entry[w].start !== start) entry[w] = { start, used: 0 };
  }
  return entry;
}

function state(window: WindowName, limit: number | null, used: number, now: number): WindowState {
  const end = windowStart(window, now) + WINDOW_SECONDS[window] * 1000;
  return {
    window,
    windowSeconds: WINDOW_SECONDS[window],
    limit,
    used,
    remaining: limit === null ? null : Math.max(0, limit - used),
    resetsInSeconds: Math.max(1, Math.ceil((end - now) / 1000)),
  };
}

export type TakeResult = { ok: true; states: WindowState[] } | { ok: false; exhausted: WindowName; states: WindowState[] };

/** Charges `cost` to both windows of the team when it fits both, else charges nothing. */
export function take(db: MockDb, teamId: string, plan: Plan, cost: number, now: Date): TakeResult {
  const t = now.getTime();
  const entry = counter(db, teamId, t);
  const exhausted = WINDOWS.filter((w) => plan.rateLimits[w] !== null && entry[w].used + cost > (plan.rateLimits[w] as number));
  if (exhausted.length > 0) {
    const worst: WindowName = exhausted.includes('day') ? 'day' : 'minute';
    return { ok: false, exhausted: worst, states: WINDOWS.map((w) => state(w, plan.rateLimits[w], entry[w].used, t)) };
  }
  for (const w of WINDOWS) entry[w].used += cost;
  return { ok: true, states: WINDOWS.map((w) => state(w, plan.rateLimits[w], entry[w].used, t)) };
}

/** Gives units back: a 304 costs nothing. */
export function refund(db: MockDb, teamId: string, cost: number, now: Date): void {
  const entry = counter(db, teamId, now.getTime());
  for (const w of WINDOWS) entry[w].used = Math.max(0, entry[w].used - cost);
}

/** The current state of both windows, without charging (usage, forced answers). */
export function peek(db: MockDb, teamId: string, plan: Plan, now: Date): WindowState[] {
  const t = now.getTime();
  const entry = counter(db, teamId, t);
  return WINDOWS.map((w) => state(w, plan.rateLimits[w], entry[w].used, t));
}

/** The response headers of spec Limits §3, in the IETF draft -10 syntax (as the server sends). */
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

/** The first plan whose envelope for `window` is larger than the caller's. */
export function rateUpgrade(plans: PlanCatalogue, plan: Plan, window: WindowName): string | null {
  const current = plan.rateLimits[window];
  return upgradeTo(plans, plan.key, (p) => current !== null && (p.rateLimits[window] === null || (p.rateLimits[window] as number) > current));
}
