/**
 * Campaign schedules (docs/decisions/campaign-fields.md): times are UTC; `daily` at `time`;
 * `weekly` on `day` (monday..sunday) at `time`; `monthly` on `day` (1..28) at `time`. Missing
 * parts default to 03:00, monday and the 1st. `manual` and paused schedules never run.
 */
import { WEEKDAYS, type ScheduleFrequency } from '../resources/campaigns.js';

/** A schedule as stored: blanks filled, `day` and `time` null only where they mean nothing. */
export interface StoredSchedule {
  frequency: ScheduleFrequency;
  day: string | null;
  time: string | null;
  paused: boolean;
}

export const DEFAULT_SCHEDULE_TIME = '03:00';

/**
 * Fills a schedule input's blanks: weekly on monday, monthly on the 1st, at 03:00 UTC; a manual
 * schedule keeps neither day nor time.
 */
export function normaliseSchedule(input: { frequency: ScheduleFrequency; day?: string | null; time?: string | null; paused?: boolean }): StoredSchedule {
  const { frequency } = input;
  const paused = input.paused ?? false;
  if (frequency === 'manual') return { frequency, day: null, time: null, paused };
  const time = input.time ?? DEFAULT_SCHEDULE_TIME;
  const day = frequency === 'weekly' ? (input.day ?? 'monday') : frequency === 'monthly' ? (input.day ?? '1') : null;
  return { frequency, day, time, paused };
}

/**
 * The first run strictly after `now` (the schedule's `next_run_at`), or null for manual and
 * paused schedules.
 *
 * @example
 * nextRunAt({ frequency: 'weekly', day: 'friday', time: '06:30', paused: false }, new Date('2026-01-15T10:00:00Z'));
 * // 2026-01-16T06:30:00.000Z
 */
export function nextRunAt(schedule: StoredSchedule, now: Date): Date | null {
  if (schedule.frequency === 'manual' || schedule.paused) return null;
  const [hours, minutes] = (schedule.time ?? DEFAULT_SCHEDULE_TIME).split(':').map(Number);
  const at = (y: number, m: number, d: number) => new Date(Date.UTC(y, m, d, hours, minutes));
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const d = now.getUTCDate();
  switch (schedule.frequency) {
    case 'daily': {
      const today = at(y, m, d);
      return today > now ? today : at(y, m, d + 1);
    }
    case 'weekly': {
      const target = (WEEKDAYS.indexOf(schedule.day as (typeof WEEKDAYS)[number]) + 1) % 7; // JS: 0 is Sunday
      const delta = (target - now.getUTCDay() + 7) % 7;
      const candidate = at(y, m, d + delta);
      return candidate > now ? candidate : at(y, m, d + delta + 7);
    }
    case 'monthly': {
      const day = Number(schedule.day ?? '1');
      const candidate = at(y, m, day);
      return candidate > now ? candidate : at(y, m + 1, day);
    }
  }
}
