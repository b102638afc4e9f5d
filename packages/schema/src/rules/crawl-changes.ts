/**
 * What changed since the previous comparable crawl, regression signals and the prioritised fix
 * list (docs/decisions/crawl-changes.md, docs/decisions/regression-signals.md). The numbers and
 * rules here are shared by the server (which computes changes in SQL) and the mock (in memory),
 * so both answer alike.
 */
import type { Severity } from '../common.js';
import type { CrawlChangesSummary } from '../resources/changes.js';
import { CHECKS, type CheckBasis } from './issue-catalogue.js';
import { healthScoreExact, type ScoredPages } from './health-score.js';
import { ACCESSIBILITY_PREFIX } from './fix-advice.js';
import { CRAWL_PILLAR_CATEGORIES, CRAWL_PILLARS, type CrawlPillar } from './crawl-pillars.js';

export { CHANGE_KINDS, CRAWL_PILLAR_CATEGORIES, CRAWL_PILLARS, type ChangeKind, type CrawlPillar } from './crawl-pillars.js';

/**
 * Checks whose details name a target on the page (a link, an image, a resource): a page may have
 * several occurrences, each matched between two crawls on its details alone, so a link to another
 * target is a new occurrence. Other checks describe the page itself: a pair's only occurrence in
 * both crawls is the same finding whatever its details say (a word count, an example URL).
 */
export const TARGETED_CHECKS: readonly string[] = [
  'broken_internal_link', 'broken_external_link', 'link_to_redirect', 'internal_link_to_http', 'internal_nofollow', 'internal_nofollow_to_indexable',
  'broken_stylesheet', 'broken_script', 'broken_resource', 'resource_redirect', 'resource_blocked_by_robots', 'mixed_content', 'form_to_http',
  'broken_image', 'image_missing_alt', 'image_alt_too_long', 'image_too_large', 'image_missing_dimensions', 'anchor_text_empty', 'anchor_text_generic',
  'hreflang_no_return', 'hreflang_bad_target',
];

/** The pillar a check counts in, from its category. */
export function pillarOf(category: string): CrawlPillar {
  for (const pillar of CRAWL_PILLARS) if ((CRAWL_PILLAR_CATEGORIES[pillar] as readonly string[]).includes(category)) return pillar;
  return 'technique';
}

// --------------------------------------------------------------------------- regression signals

export const REGRESSION_THRESHOLDS = ['off', 'warning', 'error'] as const;
export type RegressionThreshold = (typeof REGRESSION_THRESHOLDS)[number];

/**
 * A fall of the technique health score by more than this many points is a regression of severity
 * warning; by more than `HEALTH_DROP_ERROR`, of severity error. One point is noise (a page more or
 * less); five is a check newly firing on a few percent of the pages.
 */
export const HEALTH_DROP_WARNING = 5;
export const HEALTH_DROP_ERROR = 15;
/** How many of the new checks a signal names. */
export const SIGNAL_TOP_CHECKS = 5;

export type SignalReason = 'new_issues' | 'health_score_drop';

export interface RegressionInput {
  /** New occurrences by severity. */
  newIssues: Record<Severity, number>;
  /** Technique health score now and at the previous comparable crawl; null when not measured. */
  health: { score: number | null; previous: number | null };
}

/**
 * The regression a comparison shows at a campaign's threshold, or null: new issues of the
 * threshold's severity or above, or a health score fall past the margin of that severity.
 * `off` never signals. The signal's severity is the highest reason's.
 */
export function regressionSignal(threshold: RegressionThreshold, input: RegressionInput): { severity: 'error' | 'warning'; reasons: SignalReason[] } | null {
  if (threshold === 'off') return null;
  const reasons: SignalReason[] = [];
  let severity: 'error' | 'warning' | null = null;
  const raise = (s: 'error' | 'warning') => (severity = severity === 'error' ? 'error' : s);
  const newErrors = input.newIssues.error;
  const newWarnings = threshold === 'warning' ? input.newIssues.warning : 0;
  if (newErrors + newWarnings > 0) {
    reasons.push('new_issues');
    raise(newErrors > 0 ? 'error' : 'warning');
  }
  const { score, previous } = input.health;
  if (score !== null && previous !== null) {
    const drop = previous - score;
    if (drop > HEALTH_DROP_ERROR || (threshold === 'warning' && drop > HEALTH_DROP_WARNING)) {
      reasons.push('health_score_drop');
      raise(drop > HEALTH_DROP_ERROR ? 'error' : 'warning');
    }
  }
  return severity ? { severity, reasons } : null;
}

// --------------------------------------------------------------------------- recommendations

/** How much a severity weighs in a recommendation's impact: the health score's error/warning ratio, info a little above nothing. */
export const IMPACT_SEVERITY_WEIGHTS: Record<Severity, number> = { error: 1, warning: 0.35, info: 0.05 };
/** How much each crawl pillar weighs: technical problems block indexing; content, then accessibility, follow. */
export const IMPACT_PILLAR_WEIGHTS: Record<CrawlPillar, number> = { technique: 1, contenu: 0.8, accessibilite: 0.6 };

/** A check counts on every scored page when it concerns the site as a whole (robots.txt, sitemaps…), as in the health score. */
export function isSiteWideCheck(name: string): boolean {
  return checkBasis(name) === 'site';
}

/**
 * What a check judges (issue-catalogue.ts, `CheckBasis`): the site, any URL, or an HTML page, as
 * are the checks left unmarked and the accessibility findings (a rule run on an HTML page).
 */
export function checkBasis(name: string): CheckBasis {
  return (CHECKS as Record<string, { basis?: CheckBasis }>)[name]?.basis ?? 'page';
}

/**
 * A recommendation's impact: severity weight × pages affected × pillar weight, rounded to two
 * decimals. A site-wide check affects every scored page.
 */
export function recommendationImpact(input: { name: string; severity: Severity; category: string; pages: number; scoredPages: number }): number {
  const pages = isSiteWideCheck(input.name) ? Math.max(input.scoredPages, input.pages) : input.pages;
  return Math.round(IMPACT_SEVERITY_WEIGHTS[input.severity] * pages * IMPACT_PILLAR_WEIGHTS[pillarOf(input.category)] * 100) / 100;
}

/**
 * The fix list's order, by what a check costs the site: errors, then warnings, then notices
 * (which cost no score point); within a severity, most pages affected first — a site-wide check
 * (robots.txt, sitemaps, `hreflang_missing`…) affects every page, as in its impact and its score
 * (share 1), though it is reported on one URL —, then most score points won, then by name: a
 * stable order.
 */
export function compareRecommendations(
  a: { severity: Severity; pages: number; score_points: number; name: string },
  b: { severity: Severity; pages: number; score_points: number; name: string },
): number {
  const rank = { error: 0, warning: 1, info: 2 } as const;
  const affected = (r: { pages: number; name: string }) => (isSiteWideCheck(r.name) ? Number.POSITIVE_INFINITY : r.pages);
  const pages = affected(b) - affected(a);
  return (
    rank[a.severity] - rank[b.severity] ||
    (Number.isNaN(pages) ? 0 : pages) ||
    b.score_points - a.score_points ||
    (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
  );
}

/** One check that fired, as the score counts it. */
export interface ScoredCheck {
  name: string;
  severity: Severity;
  category: string;
  /** Distinct URLs on which it fired. */
  pages: number;
}

/**
 * The checks a pillar's score counts: its own categories, and for the technique pillar (the
 * crawl's health score) the content checks too, its `content_checks` axis (docs/health-score.md).
 */
function scoredCategories(pillar: CrawlPillar): readonly string[] {
  return pillar === 'technique' ? [...CRAWL_PILLAR_CATEGORIES.technique, ...CRAWL_PILLAR_CATEGORIES.contenu] : CRAWL_PILLAR_CATEGORIES[pillar];
}

/**
 * The points of its pillar's score a check's fix would win: the pillar's score computed (with
 * `healthScoreExact`, as the scorecard does) over the checks it counts without this one, minus
 * the score with them, to one decimal. `scored` are the crawl's scored pages, the shares'
 * denominators. A notice wins nothing: it costs nothing.
 */
export function scorePointsWon(check: ScoredCheck, checks: readonly ScoredCheck[], scored: ScoredPages): number {
  const categories = scoredCategories(pillarOf(check.category));
  const inPillar = checks.filter((c) => categories.includes(c.category));
  const input = (list: readonly ScoredCheck[]) => ({ ...scored, checks: list.map((c) => ({ severity: c.severity, pages: c.pages, basis: checkBasis(c.name) })) });
  const now = healthScoreExact(input(inPillar));
  const fixed = healthScoreExact(input(inPillar.filter((c) => c.name !== check.name)));
  if (now === null || fixed === null) return 0;
  return Math.max(0, Math.round((fixed - now) * 10) / 10);
}

/** The catalogue's label of a check in a language; an accessibility finding is named after its axe rule. */
export function checkLabel(name: string, language: 'fr' | 'en'): string {
  const own = (CHECKS as Record<string, { label: Record<'fr' | 'en', string> }>)[name]?.label[language];
  if (own) return own;
  if (name.startsWith(ACCESSIBILITY_PREFIX)) return `${language === 'en' ? 'Accessibility' : 'Accessibilité'}: ${name.slice(ACCESSIBILITY_PREFIX.length)}`;
  return name;
}

/**
 * The summary of a crawl that was not compared (failed, stopped, first of its campaign, or settled
 * before comparisons existed): it says so, with every count at zero.
 */
export function notComparedSummary(crawlId: string): CrawlChangesSummary {
  const zero = () => ({ error: 0, warning: 0, info: 0 });
  return {
    crawl_id: crawlId,
    previous_crawl_id: null,
    basis: 'not_compared',
    issues: { new: zero(), fixed: zero(), gone_with_page: zero(), persisting: zero() },
    pages: { added: 0, removed: 0, status_changed: 0, redirect_changed: 0 },
    health: [],
    checks: [],
  };
}
