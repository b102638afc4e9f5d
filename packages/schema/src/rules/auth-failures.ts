/**
 * Failed authentications per client address (docs/decisions/rate-limits.md, "Failed
 * authentications"): an address that has failed `limit` times in the current minute gets 429
 * `rate_limited` instead of 401 until the minute ends. Only a failing request is refused: a valid
 * token is answered as usual, whatever other tokens did from the same address. Fixed windows on
 * the clock, like the team limits; the server counts per address, the mock as one client.
 */
import type { Localized } from './problem-bodies.js';
import { rateWindowStart, RATE_WINDOW_SECONDS } from './rate-limits.js';
import { refusalDetails } from './refusal-details.js';

export const DEFAULT_AUTH_FAILURES_PER_MINUTE = 20;

/** Failures of one address in the window starting at `start` (epoch ms). */
export interface AuthFailureCount {
  start: number;
  failures: number;
}

export interface AuthFailureRefusal {
  extras: { window: 'minute'; retry_after: number; upgrade_to: null; detail: Localized };
  headers: Record<string, string>;
}

/**
 * Records one more failure of an address, or refuses it when the address already failed `limit`
 * times this minute; `limit` null never refuses. Returns the count to keep.
 */
export function recordAuthFailure(
  count: AuthFailureCount | undefined,
  limit: number | null,
  now: Date,
): { count: AuthFailureCount; refusal: AuthFailureRefusal | null } {
  const start = rateWindowStart('minute', now);
  const current = count && count.start === start ? count : { start, failures: 0 };
  if (limit === null || current.failures < limit) return { count: { start, failures: current.failures + 1 }, refusal: null };
  const retryAfter = Math.max(1, Math.ceil((start + RATE_WINDOW_SECONDS.minute * 1000 - now.getTime()) / 1000));
  return {
    count: current,
    refusal: {
      extras: { window: 'minute', retry_after: retryAfter, upgrade_to: null, detail: refusalDetails.authFailures(retryAfter) },
      headers: { 'Retry-After': String(retryAfter) },
    },
  };
}
