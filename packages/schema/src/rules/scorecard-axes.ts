/**
 * The axes of the scorecard's pillars and how they make the score, so that a client can recompute
 * it (docs/decisions/scorecard.md, docs/health-score.md "Recomputing a score"). The server and the
 * mock build every pillar with these.
 *
 * A crawl pillar is a `product`: each check that fired costs weight × √share, an axis multiplies
 * the score by exp(−Σ cost of its checks) (its `factor`), and the score is 100 × Π factor. Search
 * Console and logs are a `weighted_mean` of their axes.
 */
import type { Scorecard, ScoreCheck } from '../resources/scorecard.js';
import { checkBasis, CRAWL_PILLAR_CATEGORIES, type ScoredCheck } from './crawl-changes.js';
import { checkShare, healthScoreExact, judgedPages, SEVERITY_WEIGHTS, type ScoredPages } from './health-score.js';

type Pillar = Scorecard['pillars'][number];
export type ScorecardAxis = Pillar['axes'][number];
export type ScoreComputation = Pillar['computation'];

/** The technique pillar's axes: one per technical category. */
export const TECHNIQUE_AXES = CRAWL_PILLAR_CATEGORIES.technique;
/** Content and GEO: on-page content, structured data, and reachability by AI agents. */
export const CONTENT_AXES = CRAWL_PILLAR_CATEGORIES.contenu;
/**
 * The technique pillar is the crawl's health score, which counts the content checks too
 * (docs/health-score.md): they are one more axis of it, so that its axes multiply to its score.
 */
export const TECHNIQUE_CONTENT_AXIS = 'content_checks';

/** The checks of a crawl as the health formula counts them, and its scored pages (the shares' denominators). */
export interface ScoreData extends ScoredPages {
  checks: readonly ScoredCheck[];
}

/**
 * The accessibility pillar's data: its rules ran on the HTML pages answering 2xx (`audited`),
 * every one of them judged and scored.
 */
export function auditedData(audited: number, checks: readonly ScoredCheck[]): ScoreData {
  return { pages: audited, htmlPages: audited, checks };
}

/**
 * One check's part of the formula: its share of the pages it judges (every scored URL, or the
 * HTML pages answering 2xx; 1 site-wide), weight, cost = weight × √share.
 */
export function scoreCheck(check: ScoredCheck, scored: ScoredPages): ScoreCheck {
  const basis = checkBasis(check.name);
  const site = basis === 'site';
  const share = checkShare(basis, check.pages, scored);
  const weight = SEVERITY_WEIGHTS[check.severity];
  return { name: check.name, severity: check.severity, pages: check.pages, judged_pages: judgedPages(basis, scored), site, share, weight, cost: weight * Math.sqrt(share) };
}

/**
 * The score of some categories' checks over the scored pages (docs/health-score.md): 100 ×
 * exp(−Σ weight × √share), rounded; null without scored pages. A crawl pillar's score is it over
 * the pillar's categories: the server's scorecard and comparison, and the mock, compute it here.
 */
export function scoreOf(data: ScoreData, categories: readonly string[]): number | null {
  const exact = healthScoreExact({
    pages: data.pages,
    htmlPages: data.htmlPages,
    checks: data.checks.filter((c) => categories.includes(c.category)).map((c) => ({ severity: c.severity, pages: c.pages, basis: checkBasis(c.name) })),
  });
  return exact === null ? null : Math.round(exact);
}

const byCost = (a: ScoreCheck, b: ScoreCheck) => b.cost - a.cost || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * An axis made of the checks of some categories: factor exp(−Σ cost), score 100 × factor rounded
 * (null without scored pages). `counted: false` shows the axis with no score, weight and factor
 * (AI reachability when the crawl did not check it).
 */
export function checksAxis(key: string, data: ScoreData, categories: readonly string[], counted = true): ScorecardAxis {
  if (!counted) return { key, score: null, weight: 0, factor: null, checks: [] };
  const checks = data.checks.filter((c) => categories.includes(c.category)).map((c) => scoreCheck(c, data)).sort(byCost);
  const factor = data.pages > 0 ? Math.exp(-checks.reduce((sum, c) => sum + c.cost, 0)) : null;
  return { key, score: factor === null ? null : Math.round(100 * factor), weight: 1, factor, checks };
}

/**
 * PageSpeed in the technique score (docs/decisions/scorecard.md): its axis shows `combined`; it
 * multiplies the score by exp(−0.35 × (1 − combined / 100)).
 */
export function pagespeedAxis(combined: number): ScorecardAxis {
  const value = Math.min(100, Math.max(0, combined));
  return { key: 'pagespeed', score: Math.round(value), weight: 1, factor: Math.exp(-SEVERITY_WEIGHTS.error * (1 - value / 100)), checks: [] };
}

/** 100 × Π factor of the axes that count: the unrounded score of a `product` pillar; null without scored pages. */
export function productComputation(axes: readonly ScorecardAxis[], scored: ScoredPages): ScoreComputation {
  const pages = { method: 'product' as const, scored_pages: scored.pages, html_pages: scored.htmlPages };
  if (scored.pages <= 0) return { ...pages, exact: null };
  return { ...pages, exact: 100 * axes.filter((a) => a.weight > 0).reduce((p, a) => p * (a.factor ?? 1), 1) };
}

/**
 * Technique: one axis per technical category, the content checks the health score also counts,
 * and `pagespeed` once measured.
 */
export function techniqueAxes(data: ScoreData, pagespeed: number | null): ScorecardAxis[] {
  const technical = TECHNIQUE_AXES as readonly string[];
  const accessibility = CRAWL_PILLAR_CATEGORIES.accessibilite as readonly string[];
  const others = [...new Set(data.checks.map((c) => c.category))].filter((c) => !technical.includes(c) && !accessibility.includes(c));
  return [
    ...TECHNIQUE_AXES.map((key) => checksAxis(key, data, [key])),
    checksAxis(TECHNIQUE_CONTENT_AXIS, data, [...new Set([...CONTENT_AXES, ...others])]),
    ...(pagespeed !== null ? [pagespeedAxis(pagespeed)] : []),
  ];
}

/**
 * Content: one axis per category; `ai_reachability` counts only when the crawl checked it (else
 * shown with no score and weight 0). `scored` are the categories the pillar's score covers.
 */
export function contentAxes(data: ScoreData, aiChecked: boolean): { axes: ScorecardAxis[]; scored: string[] } {
  const scored = CONTENT_AXES.filter((key) => key !== 'ai_reachability' || aiChecked);
  return { scored, axes: CONTENT_AXES.map((key) => checksAxis(key, data, [key], scored.includes(key))) };
}

/** Axes of a `weighted_mean` pillar (Search Console, logs): no factor, no checks. */
export function meanAxes(axes: readonly { key: string; score: number | null; weight: number }[]): ScorecardAxis[] {
  return axes.map((a) => ({ key: a.key, score: a.score, weight: a.weight, factor: null, checks: [] }));
}

/** Σ weight × score over the axes with a score: the unrounded score of a `weighted_mean` pillar. */
export function meanComputation(axes: readonly { score: number | null; weight: number }[]): ScoreComputation {
  const scored = axes.filter((a) => a.score !== null && a.weight > 0);
  return { method: 'weighted_mean', scored_pages: null, html_pages: null, exact: scored.length ? scored.reduce((sum, a) => sum + a.weight * a.score!, 0) : null };
}

/** The computation of a pillar that has no score: its method, nothing to recompute. */
export function noComputation(key: Pillar['key']): ScoreComputation {
  return { method: key === 'acquisition' || key === 'logs' ? 'weighted_mean' : 'product', scored_pages: null, html_pages: null, exact: null };
}
