/**
 * The technique health score, 0..100 (docs/health-score.md):
 *
 *   score = 100 × exp(−Σ_checks weight(severity) × √share)
 *
 * where `share` is the fraction of the pages a check judges on which it fires: of every scored
 * internal URL for a check of URLs (statuses, redirects), of the HTML pages answering 2xx for a
 * check of a page's content, 1 for a site-wide check such as robots.txt; weight(error) = 0.35, weight(warning) = 0.12 and
 * weight(info) = 0, so info never lowers the score. The square root is concave: the last
 * instances of a check weigh the most, so fixing every instance of one check raises the score
 * more than the same number of fixes scattered over checks that stay open.
 *
 * The server's crawler scores its crawls with it and the mock its generated findings.
 */
import type { Severity } from '../common.js';
import type { CheckBasis } from './issue-catalogue.js';

export const SEVERITY_WEIGHTS: Record<Severity, number> = { error: 0.35, warning: 0.12, info: 0 };

/** The pages a crawl's checks are judged on (docs/health-score.md, "Formula"). */
export interface ScoredPages {
  /** Every internal URL recorded, protection pages excluded: what a `url` check is a share of. */
  pages: number;
  /** Of them, the HTML pages answering 2xx (meta-refresh stubs aside): what a `page` check is a share of. */
  htmlPages: number;
}

/**
 * An HTML page answering 2xx, the pages whose content the crawler reads: internal, fetched
 * without error (a challenge page is one), a 2xx status, a content type naming HTML, and not a
 * meta-refresh stub (a 2xx page with `redirect_url` set: a redirect, which no page check judges,
 * docs/decisions/audit-judgement.md). The server counts the same rows in SQL (`htmlPagesOf`).
 */
export function isHtmlPage(page: { is_internal: boolean; error_type: string | null; status_code: number | null; content_type: string | null; redirect_url?: string | null }): boolean {
  const { status_code: status, content_type: type } = page;
  return page.is_internal && page.error_type === null && status !== null && status >= 200 && status < 300 && type !== null && /html/i.test(type) && !page.redirect_url;
}

export interface ScoreInput extends ScoredPages {
  /** One entry per check that fired: pages affected (ignored for a `site` check). */
  checks: { severity: Severity; pages: number; basis: CheckBasis }[];
}

/** The pages a check of `basis` is a share of (a site-wide check: every scored URL, share 1). */
export function judgedPages(basis: CheckBasis, scored: ScoredPages): number {
  return basis === 'page' ? scored.htmlPages : scored.pages;
}

/** A check's share: its pages over the pages it judges, within [0, 1]; 1 for a site-wide check, 0 with nothing judged. */
export function checkShare(basis: CheckBasis, pages: number, scored: ScoredPages): number {
  if (basis === 'site') return 1;
  const of = judgedPages(basis, scored);
  return of > 0 ? Math.min(1, Math.max(0, pages / of)) : 0;
}

/** The unrounded score; null without pages. */
export function healthScoreExact(input: ScoreInput): number | null {
  if (input.pages <= 0) return null;
  let penalty = 0;
  for (const c of input.checks) penalty += SEVERITY_WEIGHTS[c.severity] * Math.sqrt(checkShare(c.basis, c.pages, input));
  return 100 * Math.exp(-penalty);
}

/**
 * The published score: an integer, as scorecard pillars are (docs/decisions/scorecard.md).
 *
 * @example
 * healthScore({ pages: 100, htmlPages: 100, checks: [{ severity: 'error', pages: 100, basis: 'page' }] }); // 70
 */
export function healthScore(input: ScoreInput): number | null {
  const exact = healthScoreExact(input);
  return exact === null ? null : Math.round(exact);
}

/**
 * The most one check can cost the score, in points: what it costs on every page (share 1), as a
 * template decision does (docs/health-score.md, "One template decision"). An error costs at most
 * 29.5 points, a warning 11.3, info nothing, however many pages the template repeats it on.
 */
export function maxCheckLoss(severity: Severity): number {
  return 100 * (1 - Math.exp(-SEVERITY_WEIGHTS[severity]));
}
