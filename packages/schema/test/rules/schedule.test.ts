import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WEEKDAYS } from '../../src/resources/campaigns.js';
import { nextRunAt, normaliseSchedule } from '../../src/rules/schedule.js';

const NOW = new Date('2026-01-15T10:00:20Z'); // a Thursday

describe('schedules', () => {
  it('fills the blanks of a schedule', () => {
    expect(normaliseSchedule({ frequency: 'weekly' })).toEqual({ frequency: 'weekly', day: 'monday', time: '03:00', paused: false });
    expect(normaliseSchedule({ frequency: 'monthly', time: '12:00' })).toEqual({ frequency: 'monthly', day: '1', time: '12:00', paused: false });
    expect(normaliseSchedule({ frequency: 'daily', day: 'monday' })).toEqual({ frequency: 'daily', day: null, time: '03:00', paused: false });
    expect(normaliseSchedule({ frequency: 'manual', day: 'monday', time: '10:00', paused: true })).toEqual({ frequency: 'manual', day: null, time: null, paused: true });
  });

  it('runs next strictly after now, in UTC', () => {
    const next = (input: Parameters<typeof normaliseSchedule>[0], now = NOW) => nextRunAt(normaliseSchedule(input), now)?.toISOString() ?? null;
    expect(next({ frequency: 'daily', time: '10:00' })).toBe('2026-01-16T10:00:00.000Z');
    expect(next({ frequency: 'daily', time: '10:01' })).toBe('2026-01-15T10:01:00.000Z');
    expect(next({ frequency: 'weekly', day: 'thursday', time: '09:00' })).toBe('2026-01-22T09:00:00.000Z');
    expect(next({ frequency: 'weekly', day: 'thursday', time: '11:00' })).toBe('2026-01-15T11:00:00.000Z');
    expect(next({ frequency: 'weekly', day: 'sunday' })).toBe('2026-01-18T03:00:00.000Z');
    expect(next({ frequency: 'monthly', day: '15', time: '09:00' })).toBe('2026-02-15T09:00:00.000Z');
    expect(next({ frequency: 'monthly', day: '1' }, new Date('2026-12-20T00:00:00Z'))).toBe('2027-01-01T03:00:00.000Z');
    const onTheMinute = new Date('2026-01-15T10:00:00Z');
    expect(next({ frequency: 'daily', time: '10:00' }, onTheMinute)).toBe('2026-01-16T10:00:00.000Z');
    expect(next({ frequency: 'weekly', day: 'thursday', time: '10:00' }, onTheMinute)).toBe('2026-01-22T10:00:00.000Z');
    expect(next({ frequency: 'monthly', day: '15', time: '10:00' }, onTheMinute)).toBe('2026-02-15T10:00:00.000Z');
    expect(next({ frequency: 'weekly', paused: true })).toBeNull();
    expect(next({ frequency: 'manual' })).toBeNull();
  });

  it('runs on the schedule’s day and time, strictly after now and within one period (property)', () => {
    const time = fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 })).map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);
    const schedule = fc.oneof(
      fc.record({ frequency: fc.constant('daily' as const), time }),
      fc.record({ frequency: fc.constant('weekly' as const), day: fc.constantFrom(...WEEKDAYS), time }),
      fc.record({ frequency: fc.constant('monthly' as const), day: fc.integer({ min: 1, max: 28 }).map(String), time }),
    );
    const now = fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2035-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => new Date(Math.floor(d.getTime() / 60_000) * 60_000));
    const periodDays = { daily: 1, weekly: 7, monthly: 31 };
    fc.assert(
      fc.property(schedule, now, (input, at) => {
        const next = nextRunAt(normaliseSchedule(input), at)!;
        expect(next.getTime()).toBeGreaterThan(at.getTime());
        expect(next.getTime() - at.getTime()).toBeLessThanOrEqual(periodDays[input.frequency] * 86_400_000);
        expect(next.toISOString().slice(11, 16)).toBe(input.time);
        if (input.frequency === 'weekly') expect(WEEKDAYS[(next.getUTCDay() + 6) % 7]).toBe(input.day);
        if (input.frequency === 'monthly') expect(String(next.getUTCDate())).toBe(input.day);
      }),
    );
  });
});
