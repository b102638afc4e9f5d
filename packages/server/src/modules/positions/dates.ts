import type { PERIOD_PRESETS } from '@siteaudit/schema';

export type PeriodPreset = (typeof PERIOD_PRESETS)[number];

const DAY_MS = 86_400_000;

export const PERIOD_DAYS: Record<PeriodPreset, number> = { '7d': 7, '28d': 28, '30d': 30, '90d': 90, '180d': 180, '365d': 365 };

/** The UTC calendar day of an instant, YYYY-MM-DD. */
export function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function addDays(day: string, days: number): string {
  return isoDay(new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS));
}

/** Midnight UTC starting `day`. */
export function dayStartOf(day: string): Date {
  return new Date(`${day}T00:00:00.000Z`);
}

/** First day of the UTC calendar month of `day`. */
export function monthStartDay(day: string): string {
  return `${day.slice(0, 7)}-01`;
}

/** A preset of N days covers N days ending `to`, both inclusive (docs/decisions/periods.md). */
export function periodEnding(preset: PeriodPreset, to: string): { preset: PeriodPreset; from: string; to: string } {
  return { preset, from: addDays(to, -(PERIOD_DAYS[preset] - 1)), to };
}
