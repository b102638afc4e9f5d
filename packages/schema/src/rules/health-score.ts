/**
 * The technique health score, 0..100 (docs/health-score.md):
 *
 *   score = 100 × exp(−Σ_checks weight(severity) × √share)
 *
 * where `share` is the fraction of scored internal pages on which the check fires (1 for
 * site-wide checks such as robots.txt), weight(error) = 0.35, weight(warning) = 0.12 and
 * weight(info) = 0, so info never lowers the score. The square root is concave: the last
 * instances of a check weigh the most, so fixing every instance of one check raises the score
 * more than the same number of fixes scattered over checks that stay open.
 *
 * The server's crawler scores its crawls with it and the mock its generated findings.
 */
import type { Severity } from '../common.js';

export const SEVERITY_WEIGHTS: Record<Severity, number> = { error: 0.35, warning: 0.12, info: 0 };

export interface ScoreInput {
  /** Internal pages the share is computed on (protection pages excluded). */
  pages: number;
  /** One entry per check that fired: pages affected (ignored when `site`). */
  checks: { severity: Severity; pages: number; site?: boolean }[];
}

/** The unrounded score; null without pages. */
export function healthScoreExact(input: ScoreInput): number | null {
  if (input.pages <= 0) return null;
  let penalty = 0;
  for (const c of input.checks) {
    const share = c.site ? 1 : Math.min(1, Math.max(0, c.pages / input.pages));
    penalty += SEVERITY_WEIGHTS[c.severity] * Math.sqrt(share);
  }
  return 100 * Math.exp(-penalty);
}

/**
 * The published score: an integer, as scorecard pillars are (docs/decisions/scorecard.md).
 *
 * @example
 * healthScore({ pages: 100, checks: [{ severity: 'error', pages: 100 }] }); // 70
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
