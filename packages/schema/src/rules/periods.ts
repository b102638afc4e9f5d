/**
 * Periods of the positions and Search Console reads (docs/decisions/periods.md) and the UTC day
 * arithmetic behind them. Days are `YYYY-MM-DD` strings in UTC.
 */
import type { Period, PeriodPreset } from '../common.js';

const DAY_MS = 86_400_000;

export const PERIOD_DAYS: Record<PeriodPreset, number> = { '7d': 7, '28d': 28, '30d': 30, '90d': 90, '180d': 180, '365d': 365 };

/** The default `period` of the positions read. */
export const POSITIONS_DEFAULT_PERIOD: PeriodPreset = '30d';
/** The default `period` of the Search Console read: Search Console's own default window. */
export const SEARCH_CONSOLE_DEFAULT_PERIOD: PeriodPreset = '28d';

/** The UTC calendar day of an instant, YYYY-MM-DD. */
export function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The day `days` after `day` (before, when negative). */
export function addDays(day: string, days: number): string {
  return isoDay(new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS));
}

/** Midnight UTC starting `day`. */
export function dayStartOf(day: string): Date {
  return new Date(`${day}T00:00:00.000Z`);
}

/** First day of the UTC calendar month of `day`: monthly quotas count from it. */
export function monthStartDay(day: string): string {
  return `${day.slice(0, 7)}-01`;
}

/** A preset of N days covers N days ending `to`, both inclusive. */
export function periodEnding(preset: PeriodPreset, to: string): Period {
  return { preset, from: addDays(to, -(PERIOD_DAYS[preset] - 1)), to };
}

/** The period of the positions read: it ends today (UTC). */
export function positionsPeriod(preset: PeriodPreset, now: Date): Period {
  return periodEnding(preset, isoDay(now));
}

/** The period of the Search Console read: it ends yesterday, since today's data is incomplete there. */
export function searchConsolePeriod(preset: PeriodPreset, now: Date): Period {
  return periodEnding(preset, addDays(isoDay(now), -1));
}
