import { z } from 'zod';
import { DateTime, Severity, Uuid } from '../common.js';

/** The five pillars; `technique` is the spec's key, the others are ours (docs/decisions/scorecard.md). */
export const PILLAR_KEYS = ['technique', 'contenu', 'accessibilite', 'acquisition', 'logs'] as const;
export const PILLAR_STATUSES = ['measured', 'not_measured', 'unavailable'] as const;
/**
 * How a pillar's axes make its score (docs/health-score.md, "Recomputing a score"):
 * `product`: 100 × the product of the `factor`s of the axes whose weight is 1;
 * `weighted_mean`: Σ weight × score over the axes that have a score.
 */
export const SCORE_METHODS = ['product', 'weighted_mean'] as const;

/** One check that fired, as the health formula counts it: its cost is weight × √share. */
export const ScoreCheck = z
  .object({
    name: z.string().describe('The check (issue name), as in the issues of the crawl'),
    severity: Severity,
    pages: z.int().min(0).describe('Pages the check fired on, as the issues and the fix list count them (a site-wide check: the file or URL it was found on)'),
    judged_pages: z
      .int()
      .min(0)
      .describe(
        'The pages the check judges, its share’s denominator: every scored URL for a check of URLs (statuses, redirects, robots.txt, sitemap entries, the link graph) or site-wide, the HTML pages answering 2xx for a check of a page’s content',
      ),
    site: z.boolean().describe('A site-wide check: it concerns every page, and counts with share 1'),
    share: z.number().min(0).max(1).describe('pages / judged_pages, 1 for a site-wide check'),
    weight: z.number().min(0).describe('0.35 for an error, 0.12 for a warning, 0 for a notice'),
    cost: z.number().min(0).describe('weight × √share: the check multiplies the score by exp(−cost)'),
  })
  .meta({ id: 'ScoreCheck' });
export type ScoreCheck = z.infer<typeof ScoreCheck>;

export const ScorecardAxis = z
  .object({
    key: z.string(),
    score: z.int().min(0).max(100).nullable(),
    weight: z
      .number()
      .min(0)
      .max(1)
      .describe('`product` pillars: 1 when the axis multiplies the score, 0 when it is left out; `weighted_mean` pillars: its weight in the mean'),
    factor: z
      .number()
      .min(0)
      .max(1)
      .nullable()
      .describe('`product` pillars: what the axis multiplies the score by (exp(−Σ cost of its checks), unrounded); null otherwise'),
    checks: z.array(ScoreCheck).describe('The checks that fired in this axis, most costly first (empty for an axis that is not made of checks)'),
  })
  .meta({ id: 'ScorecardAxis' });

export const ScoreComputation = z
  .object({
    method: z.enum(SCORE_METHODS),
    scored_pages: z.int().min(0).nullable().describe('`product` pillars: the internal URLs scored, what a check of URLs is a share of'),
    html_pages: z.int().min(0).nullable().describe('`product` pillars: of them, the HTML pages answering 2xx, what a check of a page’s content is a share of'),
    exact: z.number().min(0).max(100).nullable().describe('The score before rounding, recomputed from the axes'),
  })
  .meta({ id: 'ScoreComputation' });

export const ScorecardPillar = z
  .object({
    key: z.enum(PILLAR_KEYS),
    score: z.int().min(0).max(100).nullable().describe('null when the pillar cannot be measured, never 0'),
    status: z.enum(PILLAR_STATUSES),
    available: z.boolean(),
    version: z.int().min(1),
    as_of: DateTime.nullable(),
    blocked_reason: z.string().nullable(),
    axes: z.array(ScorecardAxis),
    computation: ScoreComputation.describe('How the axes make the score, so that a client can recompute it (an extension of the spec)'),
  })
  .meta({ id: 'ScorecardPillar' });

export const Scorecard = z
  .object({ project_id: Uuid, pillars: z.array(ScorecardPillar) })
  .meta({ id: 'Scorecard', description: 'Five pillars, each scored on its own. There is no global average.' });
export type Scorecard = z.infer<typeof Scorecard>;
