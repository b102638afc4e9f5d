/**
 * Why a pillar's score moved between two crawls, check by check (docs/decisions/crawl-changes.md,
 * "Why the score moved"). A crawl pillar's score is 100 × exp(−T), T the sum of its checks' costs
 * (docs/health-score.md), so ln(score) is additive over checks and the movement splits exactly:
 * each check takes the share of the change in T that its own cost made, in points. The server and
 * the mock both attribute here, so the summary, the PDF and the workbook give the same numbers.
 */
import type { Severity } from '../common.js';
import { CRAWL_PILLAR_CATEGORIES, type CrawlPillar } from './crawl-pillars.js';
import { healthScoreExact, type ScoredPages } from './health-score.js';
import { auditedData, contentAxes, scoreCheck, type ScoreData } from './scorecard-axes.js';
import { checkBasis } from './crawl-changes.js';

/** A crawl's checks restricted to those of some categories (a pillar's), with the same scored pages. */
export function categoriesData(data: ScoreData, categories: readonly string[]): ScoreData {
  return { pages: data.pages, htmlPages: data.htmlPages, checks: data.checks.filter((c) => categories.includes(c.category)) };
}

/**
 * The checks each crawl pillar's score counts, with its denominators, as the scorecard scores
 * them: the technique score (the crawl's health score) every check but the accessibility
 * findings; content its categories, AI reachability when the crawl checked it; accessibility its
 * findings over the audited HTML pages, when the crawl ran its rules (else null).
 */
export function pillarData(data: ScoreData, crawl: { aiChecked: boolean; accessibilityChecked: boolean }): Record<CrawlPillar, ScoreData | null> {
  const accessibility = CRAWL_PILLAR_CATEGORIES.accessibilite as readonly string[];
  return {
    technique: { ...data, checks: data.checks.filter((c) => !accessibility.includes(c.category)) },
    contenu: categoriesData(data, contentAxes(data, crawl.aiChecked).scored),
    accessibilite: crawl.accessibilityChecked ? categoriesData(auditedData(data.htmlPages, data.checks), accessibility) : null,
  };
}

/** A pillar's unrounded score from its checks (`healthScoreExact`); null without scored pages. */
export function exactScoreOf(data: ScoreData): number | null {
  return healthScoreExact({ pages: data.pages, htmlPages: data.htmlPages, checks: data.checks.map((c) => ({ severity: c.severity, pages: c.pages, basis: checkBasis(c.name) })) });
}

/** One side of a comparison: a pillar's unrounded score (null: not measured) and the checks it counts. */
export interface AttributionSide {
  exact: number | null;
  data: ScoreData;
}

/** A check whose cost moved, and the points of the score that movement made. */
export interface CheckAttribution {
  name: string;
  severity: Severity;
  category: string;
  /** Distinct URLs it fired on, in the previous crawl and in this one (0: it did not fire). */
  previous_pages: number;
  pages: number;
  /** Its cost (weight × √share) in each crawl: it moves with its pages and with the pages it judges. */
  previous_cost: number;
  cost: number;
  /** Its part of the score's movement, to one decimal: positive when its cost fell. */
  points: number;
}

export interface ScoreAttribution {
  previous_score_exact: number;
  score_exact: number;
  /** score_exact − previous_score_exact to one decimal: what `checks`' points and `other` add up to. */
  exact_delta: number;
  /** Checks whose part rounds to at least 0.1 point, the largest first (by magnitude), then by name. */
  checks: CheckAttribution[];
  /**
   * Points no check explains: what the score holds beyond its checks' costs (PageSpeed in the
   * technique score, a score stored under earlier rules). 0 when the checks explain it all.
   */
  other: number;
}

/** Below this, a movement of cost is float noise, not a change. */
const EPSILON = 1e-12;

/** The checks' costs by name (a name counted under two severities adds up), with what describes them. */
function costs(data: ScoreData): Map<string, { severity: Severity; category: string; pages: number; cost: number }> {
  const scored: ScoredPages = { pages: data.pages, htmlPages: data.htmlPages };
  const byName = new Map<string, { severity: Severity; category: string; pages: number; cost: number }>();
  for (const check of data.checks) {
    const { cost } = scoreCheck(check, scored);
    const entry = byName.get(check.name);
    if (entry) {
      entry.cost += cost;
      entry.pages = Math.max(entry.pages, check.pages);
    } else byName.set(check.name, { severity: check.severity, category: check.category, pages: check.pages, cost });
  }
  return byName;
}

/**
 * The logarithmic mean of two scores, (b − a) / (ln b − ln a), a when they are equal: the factor
 * that turns a change of total cost into points exactly, since ln(score) = ln 100 − T.
 */
function logMean(a: number, b: number): number {
  const ratio = b / a;
  if (Math.abs(ratio - 1) < 1e-9) return (a + b) / 2;
  return (b - a) / Math.log(ratio);
}

/**
 * Tenths summing to `Math.round(Σ values × 10)`: each value floored to a tenth, the tenths left
 * given to the largest remainders (Hamilton's method), so that the parts published add up to the
 * total published, which rounding each part alone would not guarantee.
 */
export function roundToTenths(values: readonly number[]): number[] {
  const scaled = values.map((v) => v * 10);
  // A hair of tolerance: 0.3 × 10 is 2.9999999999999996 in floating point.
  const floors = scaled.map((v) => Math.floor(v + 1e-9));
  const total = Math.round(scaled.reduce((s, v) => s + v, 0));
  let left = total - floors.reduce((s, v) => s + v, 0);
  const order = scaled.map((v, i) => ({ i, rest: v - floors[i]! })).sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    floors[i]! += 1;
    left -= 1;
  }
  return floors.map((n) => n / 10);
}

/**
 * The unrounded parts: each check's points = −L × Δcost, L the logarithmic mean of the two scores,
 * and `other` likewise for the part of −ln(score / 100) the checks do not explain. They add up to
 * `current − previous` exactly (to floating point). Exported for the property test.
 */
export function attributionParts(previous: { exact: number; data: ScoreData }, current: { exact: number; data: ScoreData }) {
  const before = costs(previous.data);
  const now = costs(current.data);
  const scale = -logMean(previous.exact, current.exact);
  const checks: (Omit<CheckAttribution, 'points'> & { raw: number })[] = [];
  let explainedBefore = 0;
  let explainedNow = 0;
  for (const name of new Set([...before.keys(), ...now.keys()])) {
    const a = before.get(name);
    const b = now.get(name);
    explainedBefore += a?.cost ?? 0;
    explainedNow += b?.cost ?? 0;
    const moved = (b?.cost ?? 0) - (a?.cost ?? 0);
    if (Math.abs(moved) < EPSILON) continue;
    const about = (b ?? a)!;
    checks.push({ name, severity: about.severity, category: about.category, previous_pages: a?.pages ?? 0, pages: b?.pages ?? 0, previous_cost: a?.cost ?? 0, cost: b?.cost ?? 0, raw: scale * moved });
  }
  const unexplained = (exact: number, explained: number) => Math.log(100 / exact) - explained;
  const otherMoved = unexplained(current.exact, explainedNow) - unexplained(previous.exact, explainedBefore);
  // A stored score keeps about seven digits (PostgreSQL's `real`): a relative difference below
  // 1e-6 is that, not something the checks leave unexplained.
  return { checks, other: Math.abs(otherMoved) < 1e-6 ? 0 : scale * otherMoved };
}

/**
 * Why a pillar's score moved from `previous` to `current`: each check's points (and `other`'s),
 * rounded to tenths so that they add up to `exact_delta`, the unrounded movement to one decimal.
 * The published scores are integers, each rounded on its own: their `delta` may differ from
 * `exact_delta` by less than a point, which is rounding, not a check. Null when either score is
 * not measured.
 */
export function attributeScoreChange(previous: AttributionSide, current: AttributionSide): ScoreAttribution | null {
  if (previous.exact === null || current.exact === null || previous.exact <= 0 || current.exact <= 0) return null;
  const parts = attributionParts({ exact: previous.exact, data: previous.data }, { exact: current.exact, data: current.data });
  const rounded = roundToTenths([...parts.checks.map((c) => c.raw), parts.other]);
  const checks = parts.checks
    .map(({ raw: _raw, ...check }, i) => ({ ...check, points: rounded[i]! }))
    .filter((c) => c.points !== 0)
    .sort((a, b) => Math.abs(b.points) - Math.abs(a.points) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    previous_score_exact: previous.exact,
    score_exact: current.exact,
    // The parts' own sum, in tenths: the movement to one decimal, added up exactly as published.
    exact_delta: Math.round(rounded.reduce((sum, tenths) => sum + tenths * 10, 0)) / 10,
    checks,
    other: rounded[rounded.length - 1]!,
  };
}
