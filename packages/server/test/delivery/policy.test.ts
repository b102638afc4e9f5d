import { describe, expect, it } from 'vitest';
import {
  DELIVERY_LOG_RETENTION_DAYS,
  DISABLE_AFTER_CONSECUTIVE_FAILURES,
  MAX_ATTEMPTS,
  MAX_RETRY_AFTER_SECONDS,
  RETRY_SCHEDULE_MS,
  deliveryLogCutoff,
  isRetriedEvent,
  nextAttemptDelayMs,
  secretRotationEndsAt,
  secretsValidAt,
  shouldDisable,
} from '../../src/delivery/policy.js';

const middle = () => 0.5;
const H = 3_600_000;

describe('retry schedule', () => {
  it('follows immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then stops', () => {
    expect(MAX_ATTEMPTS).toBe(8);
    const delays = Array.from({ length: 9 }, (_, attempts) => nextAttemptDelayMs(attempts, middle));
    expect(delays).toEqual([0, 5_000, 300_000, 1_800_000, 2 * H, 5 * H, 10 * H, 10 * H, null]);
    expect(nextAttemptDelayMs(20)).toBeNull();
    expect(nextAttemptDelayMs(-1)).toBeNull();
  });

  it('jitters each step by at most 20 %', () => {
    for (let attempts = 1; attempts < MAX_ATTEMPTS; attempts++) {
      const base = RETRY_SCHEDULE_MS[attempts];
      expect(nextAttemptDelayMs(attempts, () => 0)).toBe(Math.round(base * 0.8));
      expect(nextAttemptDelayMs(attempts, () => 0.999999)).toBeLessThanOrEqual(Math.round(base * 1.2));
      expect(nextAttemptDelayMs(attempts, () => 0.999999)).toBeGreaterThan(base);
    }
  });

  it('lets Retry-After raise the delay, never lower it, and caps it', () => {
    expect(nextAttemptDelayMs(1, middle, 60)).toBe(60_000);
    expect(nextAttemptDelayMs(4, middle, 60)).toBe(2 * H);
    expect(nextAttemptDelayMs(1, middle, 10 ** 9)).toBe(MAX_RETRY_AFTER_SECONDS * 1000);
    expect(nextAttemptDelayMs(1, middle, null)).toBe(5_000);
    expect(nextAttemptDelayMs(MAX_ATTEMPTS, middle, 60)).toBeNull();
  });
});

describe('disablement and test events', () => {
  it('disables after the documented number of consecutive failed deliveries', () => {
    expect(DISABLE_AFTER_CONSECUTIVE_FAILURES).toBe(15);
    expect(shouldDisable(14)).toBe(false);
    expect(shouldDisable(15)).toBe(true);
  });

  it('never retries nor counts webhook.test', () => {
    expect(isRetriedEvent('webhook.test')).toBe(false);
    expect(isRetriedEvent('crawl.completed')).toBe(true);
  });
});

describe('secret rotation', () => {
  const now = new Date('2025-01-01T12:00:00Z');

  it('signs with both secrets for 24 h after a rotation, then the new one only', () => {
    const ends = secretRotationEndsAt(now);
    expect(ends.toISOString()).toBe('2025-01-02T12:00:00.000Z');
    expect(secretsValidAt('new', 'old', ends, now)).toEqual(['new', 'old']);
    expect(secretsValidAt('new', 'old', ends.toISOString(), new Date(ends.getTime() - 1))).toEqual(['new', 'old']);
    expect(secretsValidAt('new', 'old', ends, ends)).toEqual(['new']);
  });

  it('uses the current secret alone without a previous one or an end date', () => {
    expect(secretsValidAt('new', null, null, now)).toEqual(['new']);
    expect(secretsValidAt('new', 'old', null, now)).toEqual(['new']);
    expect(secretsValidAt('new', 'new', secretRotationEndsAt(now), now)).toEqual(['new']);
  });
});

describe('delivery log retention', () => {
  it('keeps 30 days', () => {
    expect(DELIVERY_LOG_RETENTION_DAYS).toBe(30);
    expect(deliveryLogCutoff(new Date('2025-03-31T00:00:00Z')).toISOString()).toBe('2025-03-01T00:00:00.000Z');
  });
});
