/**
 * The numbers of webhook delivery that are ours to choose: the retry schedule and the failure
 * count that triggers automatic disablement. Those fixed for all (24 h rotation overlap,
 * 30-day delivery log, the test event) are shared with the mock from `@siteaudit/schema/rules` and
 * re-exported here. Reasons in docs/decisions/webhook-delivery.md.
 */
export {
  DELIVERY_LOG_RETENTION_DAYS,
  DELIVERY_LOG_RETENTION_MS,
  SECRET_ROTATION_OVERLAP_MS,
  TEST_EVENT_TYPE,
  deliveryLogCutoff,
  isRetriedEvent,
  secretRotationEndsAt,
} from '@siteaudit/schema/rules';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * Delay before each attempt, the first immediate (Svix's schedule): a receiver that is down for
 * a deploy gets the retry within minutes, one down for a day still gets the event (about 28 h).
 */
export const RETRY_SCHEDULE_MS: readonly number[] = [0, 5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR];
export const MAX_ATTEMPTS = RETRY_SCHEDULE_MS.length;
/** ±20 %: spreads the retries of many deliveries that failed together (a receiver outage). */
export const RETRY_JITTER = 0.2;
/** A receiver's Retry-After can delay an attempt up to our longest step, not park it for ever. */
export const MAX_RETRY_AFTER_SECONDS = 10 * 60 * 60;

/**
 * The subscription is disabled after this many consecutive failed deliveries, a failed delivery
 * being one whose last attempt failed (all MAX_ATTEMPTS used, about 28 h each). 15 means a dead
 * endpoint is given many events' worth of chances, and a single flaky one never trips it, since
 * any success resets the counter.
 */
export const DISABLE_AFTER_CONSECUTIVE_FAILURES = 15;
export const DISABLED_REASON_CONSECUTIVE_FAILURES = 'consecutive_failures';

/**
 * Delay before the next attempt, given how many attempts were already made (the delivery's
 * `attempts`): 0 → 0 (first attempt, immediate), 1 → about 5 s, ..., 7 → about 10 h, and null when
 * none is left. A Retry-After (seconds, from a 429 or 503) raises the delay when it is larger.
 *
 * @example
 * const delay = nextAttemptDelayMs(delivery.attempts, Math.random, result.retryAfterSeconds);
 * if (delay === null) markFailed(); else scheduleAt(Date.now() + delay);
 */
export function nextAttemptDelayMs(
  attemptsMade: number,
  random: () => number = Math.random,
  retryAfterSeconds: number | null = null,
): number | null {
  if (!Number.isInteger(attemptsMade) || attemptsMade < 0 || attemptsMade >= MAX_ATTEMPTS) return null;
  const base = RETRY_SCHEDULE_MS[attemptsMade];
  const jittered = Math.round(base * (1 - RETRY_JITTER + 2 * RETRY_JITTER * random()));
  const requested = retryAfterSeconds && retryAfterSeconds > 0 ? Math.min(retryAfterSeconds, MAX_RETRY_AFTER_SECONDS) * SECOND : 0;
  return Math.max(jittered, requested);
}

/** True when the subscription's consecutive failure counter has reached the disablement point. */
export function shouldDisable(consecutiveFailures: number): boolean {
  return consecutiveFailures >= DISABLE_AFTER_CONSECUTIVE_FAILURES;
}

/**
 * The secrets that sign a delivery made at `now`: the current one, plus the previous one until
 * the rotation overlap ends. Pass the result to `signWebhook`.
 */
export function secretsValidAt(
  current: string,
  previous: string | null | undefined,
  rotationEndsAt: Date | string | null | undefined,
  now: Date = new Date(),
): string[] {
  if (!previous || !rotationEndsAt || previous === current) return [current];
  const ends = new Date(rotationEndsAt).getTime();
  return now.getTime() < ends ? [current, previous] : [current];
}
