/**
 * The lines that say why a pillar's score moved since the last crawl (docs/decisions/crawl-changes.md,
 * "Why the score moved"), as the PDF's "Since the last crawl" page and the workbook's Changes
 * sheet print them: the summary's attribution, worded. Both print these lines, so they give the
 * API's numbers, and the lines of a pillar always add up to its published `delta`.
 */
import type { CrawlChangesSummary } from '@siteaudit/schema';
import { isSiteWideCheck } from '@siteaudit/schema/rules';
import type { ExportStrings } from './i18n.js';

type Health = CrawlChangesSummary['health'][number];
type Attributed = NonNullable<Health['attribution']>['checks'][number];

export interface MovementLine {
  /** The check (null: a line that is not one check's). */
  name: string | null;
  /** What to print in the check column: the check's label, or what the line is. */
  label: string;
  /** What changed, worded ("fixed (was on 70 pages)"); empty for lines that are not a check's. */
  what: string;
  /** Points of the score, to one decimal. */
  points: number;
}

/** What happened to a check between the two crawls, with its pages then and now. */
export function whatChanged(check: Attributed, t: ExportStrings, int: (n: number) => string): string {
  const m = t.changes.movement;
  const pages = (n: number) => (isSiteWideCheck(check.name) ? t.inputs.wholeSite : m.pages(int(n), n !== 1));
  if (check.pages === 0) return m.fixed(pages(check.previous_pages));
  if (check.previous_pages === 0) return m.added(pages(check.pages));
  if (check.pages < check.previous_pages) return m.fewer(int(check.previous_pages), int(check.pages));
  if (check.pages > check.previous_pages) return m.more(int(check.previous_pages), int(check.pages));
  return m.share(pages(check.pages));
}

/** Tenths added without float drift: the parts are published to one decimal. */
const sum = (values: readonly number[]) => Math.round(values.reduce((s, v) => s + Math.round(v * 10), 0)) / 10;

/**
 * A pillar's lines: its checks, the largest part first (the first `limit`, the rest in one
 * "n other checks" line), what no check explains, then the rounding of the published scores
 * (`delta` − `exact_delta`, under a point), so that the lines add up to `delta`. Empty without
 * an attribution.
 */
export function movementLines(
  health: Health,
  t: ExportStrings,
  labels: { check: (name: string) => string },
  int: (n: number) => string,
  limit = Number.POSITIVE_INFINITY,
): MovementLine[] {
  const a = health.attribution;
  if (!a || health.delta === null) return [];
  const m = t.changes.movement;
  const shown = a.checks.slice(0, limit);
  const rest = a.checks.slice(limit);
  const lines: MovementLine[] = shown.map((c) => ({ name: c.name, label: labels.check(c.name), what: whatChanged(c, t, int), points: c.points }));
  if (rest.length) lines.push({ name: null, label: m.otherChecks(int(rest.length)), what: '', points: sum(rest.map((c) => c.points)) });
  // Two scores rounded each on its own differ from their exact difference by less than a point;
  // a point or more is a previous score published under earlier rules, which no check explains.
  const residue = sum([health.delta, -a.exact_delta]);
  const rounding = Math.abs(residue) < 1 ? residue : 0;
  const other = sum([a.other, residue - rounding]);
  if (other !== 0) lines.push({ name: null, label: m.notFromChecks, what: '', points: other });
  if (rounding !== 0) lines.push({ name: null, label: m.rounding, what: '', points: rounding });
  return lines;
}

/** Points as printed: signed, one decimal, a true minus sign. */
export function signedPoints(points: number, num: (n: number) => string): string {
  if (points === 0) return num(0);
  return `${points > 0 ? '+' : '−'}${num(Math.abs(points))}`;
}
