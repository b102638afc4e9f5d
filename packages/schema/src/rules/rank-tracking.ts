/**
 * The arithmetic of the positions read (docs/decisions/positions.md): each listed keyword's
 * latest position and deltas, the summary, the visibility from a CTR curve, and the status. The
 * server feeds it rows of `keyword_positions`, the mock its in-memory histories; the read they
 * answer is computed here once.
 */
import { addDays } from './periods.js';
import type { Positions, PositionsKeyword } from '../resources/positions.js';

/**
 * Visibility: the share of the clicks the keywords would get if every one ranked first, from a
 * published organic CTR curve. SISTRIX, "Why (almost) everything you knew about Google CTR is no
 * longer valid" (2020, 80 million keywords): average CTR of positions 1 to 10. The study measured
 * well under 1 % on page two without per-position values, so positions past 10 weigh 0 rather
 * than a number we would make up.
 */
export const CTR_CURVE_PERCENT = [28.5, 15.7, 11.0, 8.0, 7.2, 5.1, 4.0, 3.2, 2.8, 2.5] as const;

/** Weight of a position, position 1 = 1; 0 outside the first page or the top 100. */
export function visibilityWeight(position: number | null): number {
  if (position === null || position < 1 || position > CTR_CURVE_PERCENT.length) return 0;
  return CTR_CURVE_PERCENT[position - 1] / CTR_CURVE_PERCENT[0];
}

/**
 * Mean weight over the measured keywords, in percent with two decimals; null when none is
 * measured (a mean of nothing, as `average_position` with nothing ranking: 0 would read as
 * "measured, nothing on page one").
 */
export function visibilityPercent(positions: readonly (number | null)[]): number | null {
  if (positions.length === 0) return null;
  const total = positions.reduce<number>((sum, p) => sum + visibilityWeight(p), 0);
  return Math.round((10_000 * total) / positions.length) / 100;
}

/** One measurement of a keyword: its UTC day, and its position (null: outside the top 100). */
export interface PositionPoint {
  date: string;
  position: number | null;
}

/** Deltas shown per keyword: `delta_1d`, `delta_7d`, `delta_30d`. */
export const POSITION_DELTA_DAYS = [1, 7, 30] as const;

/**
 * `delta_Nd`: the position N days before the latest measurement minus the latest position, so
 * positive means the keyword moved up the page, as rank trackers show it. Null when either side
 * is missing or outside the top 100.
 */
export function positionDelta(latest: PositionPoint | undefined, then: PositionPoint | undefined): number | null {
  if (!latest || latest.position === null || !then || then.position === null) return null;
  return then.position - latest.position;
}

export type PositionMovement = 'improved' | 'declined' | 'entered' | 'exited';

/**
 * How a keyword moved over the period: its latest position against its position at the start
 * (the last measurement on or before `from`, else the first within the period). A keyword
 * measured once has no movement; one ranking both times with the same position neither.
 */
export function positionMovement(start: PositionPoint | undefined, latest: PositionPoint | undefined): PositionMovement | null {
  if (!start || !latest || start.date === latest.date) return null;
  if (start.position === null) return latest.position === null ? null : 'entered';
  if (latest.position === null) return 'exited';
  if (latest.position < start.position) return 'improved';
  if (latest.position > start.position) return 'declined';
  return null;
}

/** What the read needs of one listed (tracked or paused) keyword. */
export interface ListedKeyword {
  keyword: string;
  /** Tracked (true) or paused (false). */
  active: boolean;
  /** The latest measurement on or before the period's end, with what it found. */
  latest: (PositionPoint & { url: string | null; serp_features: readonly string[] }) | undefined;
  /** The position at the start of the period (see `positionMovement`). */
  start: PositionPoint | undefined;
  /** The measurement of an exact day, for the deltas. */
  measuredOn(day: string): PositionPoint | undefined;
  search_volume: number | null;
  keyword_difficulty: number | null;
  search_intent: string | null;
}

/**
 * The keywords, summary and status of the positions read, from the project's listed keywords.
 * `hasTracker` is false until a keyword was first tracked (`unconfigured`).
 */
export function readListedKeywords(
  listed: readonly ListedKeyword[],
  hasTracker: boolean,
): { status: Positions['status']; keywords: PositionsKeyword[]; summary: Positions['summary']; activeKeywords: number; lastTrackedOn: string | null } {
  const sorted = [...listed].sort((a, b) => a.keyword.localeCompare(b.keyword));
  const keywords: PositionsKeyword[] = sorted.map((k) => {
    const { latest } = k;
    const delta = (days: number) => (latest ? positionDelta(latest, k.measuredOn(addDays(latest.date, -days))) : null);
    return {
      keyword: k.keyword,
      active: k.active,
      measured: latest !== undefined,
      position: latest?.position ?? null,
      url: latest && latest.position !== null ? latest.url : null,
      delta_1d: delta(1),
      delta_7d: delta(7),
      delta_30d: delta(30),
      search_volume: k.search_volume,
      keyword_difficulty: k.keyword_difficulty,
      search_intent: k.search_intent,
      serp_features: latest ? [...latest.serp_features] : [],
    };
  });

  const measured = keywords.filter((k) => k.measured);
  const ranking = measured.filter((k) => k.position !== null).map((k) => k.position as number);
  const movements = { improved: 0, declined: 0, entered: 0, exited: 0 };
  for (const k of sorted) {
    const movement = positionMovement(k.start, k.latest);
    if (movement) movements[movement]++;
  }
  const activeKeywords = sorted.filter((k) => k.active).length;
  const status: Positions['status'] = !hasTracker ? 'unconfigured' : activeKeywords === 0 ? 'paused' : measured.some((k) => k.active) ? 'active' : 'pending';
  const lastTrackedOn = sorted.map((k) => k.latest?.date).filter((d): d is string => d !== undefined).sort().pop() ?? null;

  return {
    status,
    keywords,
    summary: {
      // Only ranking keywords have a position to average (docs/decisions/positions.md).
      average_position: ranking.length ? Math.round((10 * ranking.reduce((n, p) => n + p, 0)) / ranking.length) / 10 : null,
      ranking_keywords: ranking.length,
      measured_keywords: measured.length,
      tracked_keywords: keywords.length,
      top3: ranking.filter((p) => p <= 3).length,
      top10: ranking.filter((p) => p <= 10).length,
      visibility_percent: visibilityPercent(measured.map((k) => k.position)),
      ...movements,
    },
    activeKeywords,
    lastTrackedOn,
  };
}
