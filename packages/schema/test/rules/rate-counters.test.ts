import { describe, expect, it } from 'vitest';
import { MemoryRateCounters } from '../../src/rules/rate-counters.js';

const limits = { minute: 5, day: 8 };
const at = (time: string) => new Date(`2026-01-15T${time}Z`);

describe('rate counters in memory (docs/decisions/rate-limits.md)', () => {
  it('charges both windows, and nothing when the cost does not fit', () => {
    const counters = new MemoryRateCounters();
    expect(counters.take('t', 4, limits, at('10:00:00')).ok).toBe(true);
    expect(counters.take('t', 2, limits, at('10:00:10')).ok).toBe(false);
    expect(counters.peek('t', limits, at('10:00:20')).map((s) => s.used)).toEqual([4, 4]);
  });

  it('rolls the minute over on the clock, the day going on counting', () => {
    const counters = new MemoryRateCounters();
    counters.take('t', 5, limits, at('10:00:59'));
    expect(counters.take('t', 1, limits, at('10:00:59')).ok).toBe(false);
    expect(counters.take('t', 3, limits, at('10:01:00')).ok).toBe(true);
    const refused = counters.take('t', 1, limits, at('10:02:00'));
    expect(refused).toMatchObject({ ok: false, exhausted: 'day' });
    expect(counters.peek('t', limits, new Date('2026-01-16T00:00:00Z')).map((s) => s.used)).toEqual([0, 0]);
  });

  it('counts each team apart, and gives units back without going below zero', () => {
    const counters = new MemoryRateCounters();
    counters.take('a', 5, limits, at('10:00:00'));
    expect(counters.take('b', 5, limits, at('10:00:00')).ok).toBe(true);
    counters.refund('a', 2, at('10:00:01'));
    expect(counters.peek('a', limits, at('10:00:02')).map((s) => s.used)).toEqual([3, 3]);
    counters.refund('a', 10, at('10:00:03'));
    expect(counters.peek('a', limits, at('10:00:04')).map((s) => s.used)).toEqual([0, 0]);
  });
});

describe('a clock set back by more than a window (the mock\'s, a test\'s)', () => {
  it('starts that window afresh, as a new one', () => {
    const counters = new MemoryRateCounters();
    counters.take('t', 5, limits, at('10:05:00'));
    expect(counters.take('t', 1, limits, at('10:05:01')).ok).toBe(false);
    // Two minutes earlier: the minute window starts over; the day's units stay charged.
    expect(counters.peek('t', limits, at('10:03:00')).map((s) => s.used)).toEqual([0, 5]);
  });
});

describe('a call dated before the window that has begun', () => {
  it('counts in the new window and never sets it back to the ended one', () => {
    const counters = new MemoryRateCounters();
    expect(counters.take('t', 4, limits, at('10:01:00')).ok).toBe(true);
    expect(counters.take('t', 2, limits, at('10:00:59')).ok).toBe(false);
    expect(counters.take('t', 1, limits, at('10:00:59')).ok).toBe(true);
    expect(counters.peek('t', limits, at('10:01:01')).map((s) => s.used)).toEqual([5, 5]);
  });

  it('is refunded only from the window it was dated in', () => {
    const counters = new MemoryRateCounters();
    counters.take('t', 3, limits, at('10:01:00'));
    counters.refund('t', 2, at('10:00:59'));
    expect(counters.peek('t', limits, at('10:01:01')).map((s) => s.used)).toEqual([3, 1]);
  });
});
