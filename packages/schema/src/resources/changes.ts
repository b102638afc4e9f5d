/**
 * Extensions of the crawl reads (docs/decisions/crawl-changes.md): what changed since the
 * previous comparable crawl of the campaign, and the prioritised fix list.
 */
import { z } from 'zod';
import { int32, PageQuery, Severity, SeverityCounts, Uuid } from '../common.js';
import { CHANGE_KINDS, CRAWL_PILLARS, type ChangeKind } from '../rules/crawl-pillars.js';

type IssueKind = Extract<ChangeKind, `issue_${string}`>;
type PageKind = Exclude<ChangeKind, IssueKind>;
const ISSUE_KINDS = CHANGE_KINDS.filter((kind): kind is IssueKind => kind.startsWith('issue_')) as [IssueKind, ...IssueKind[]];
const PAGE_KINDS = CHANGE_KINDS.filter((kind): kind is PageKind => !kind.startsWith('issue_')) as [PageKind, ...PageKind[]];

/** A change of one check on one URL: every `issue_*` kind. */
export const IssueChange = z
  .object({
    kind: z.enum(ISSUE_KINDS),
    url: z.string(),
    name: z.string().describe('the check'),
    severity: Severity,
    category: z.string(),
    details: z
      .string()
      .nullable()
      .describe('the occurrence’s details: in this crawl for issue_new and issue_persisting, in the previous one for issue_fixed and issue_gone_with_page'),
    status_code: z.null(),
    previous_status_code: z.null(),
    redirect_url: z.null(),
    previous_redirect_url: z.null(),
  })
  .meta({ id: 'IssueChange', description: 'Extension: an issue change, one occurrence of a check on a URL.' });

/** A change of one internal URL: the page kinds. */
export const PageChange = z
  .object({
    kind: z.enum(PAGE_KINDS),
    url: z.string(),
    name: z.null(),
    severity: z.null(),
    category: z.null(),
    details: z.null(),
    status_code: int32(z.int()).nullable().describe('the status in this crawl; null for page_removed, or when no HTTP response came'),
    previous_status_code: int32(z.int()).nullable().describe('the status in the previous crawl; null for page_added, or when no HTTP response came'),
    redirect_url: z
      .string()
      .nullable()
      .describe('where the URL redirects in this crawl (a 3xx’s Location, a meta-refresh stub’s target); null when it does not redirect, and for page_removed'),
    previous_redirect_url: z.string().nullable().describe('where it redirected in the previous crawl; null when it did not, and for page_added'),
  })
  .meta({
    id: 'PageChange',
    description:
      'Extension: a page change, one internal URL added, removed, whose status changed, or whose redirect changed with the same status (redirect_changed: it became a redirect, a meta-refresh stub answering 200 included; it redirects elsewhere; or it no longer redirects). When both changed it is status_changed, with both targets.',
  });

/** Which fields are null follows `kind`: a union told apart by it (docs/decisions/openapi-generation.md). */
export const CrawlChange = z.discriminatedUnion('kind', [IssueChange, PageChange]).meta({
  id: 'CrawlChange',
  description:
    'Extension (docs/decisions/crawl-changes.md): one change since the previous comparable crawl. An issue change is one occurrence (a second broken link on a page is new); one that went away is issue_fixed when its page is still there and issue_gone_with_page when the page went (removed, redirected, 4xx/5xx, blocked or noindex). A page change is one internal URL.',
});
export type CrawlChange = z.infer<typeof CrawlChange>;

/** Why a pillar's score moved (rules/score-attribution.ts): each check's exact part of the movement. */
export const ScoreAttribution = z
  .object({
    previous_score_exact: z.number().describe('the previous crawl’s score before rounding'),
    score_exact: z.number().describe('this crawl’s score before rounding'),
    exact_delta: z.number().describe('score_exact − previous_score_exact to one decimal: the sum of the checks’ points and other. delta, the difference of the rounded scores, may differ from it by less than a point (rounding)'),
    checks: z
      .array(
        z.object({
          name: z.string().describe('the check'),
          severity: Severity,
          category: z.string(),
          previous_pages: z.int().min(0).describe('distinct URLs it fired on in the previous crawl; 0 when it did not fire'),
          pages: z.int().min(0).describe('distinct URLs it fires on in this crawl; 0 when it no longer fires'),
          previous_cost: z.number().min(0).describe('its cost in the previous crawl: weight × √share (docs/health-score.md)'),
          cost: z.number().min(0).describe('its cost in this crawl; it also moves when the pages it judges grow or shrink'),
          points: z.number().describe('its part of the movement, to one decimal: −L × (cost − previous_cost), L the logarithmic mean of the two exact scores; positive when its cost fell'),
        }),
      )
      .describe('every check whose part rounds to at least 0.1 point, the largest part first'),
    other: z.number().describe('points no check explains (PageSpeed in the technique score, a previous score stored under earlier rules); 0 when the checks explain it all'),
  })
  .meta({
    id: 'ScoreAttribution',
    description:
      'Extension (docs/decisions/crawl-changes.md, "Why the score moved"): a pillar\'s score is 100 × exp(−Σ costs), so its movement splits exactly over the checks whose cost moved; the parts are rounded to tenths by largest remainder, so they add up to exact_delta.',
  });
export type ScoreAttribution = z.infer<typeof ScoreAttribution>;

export const CHANGE_BASES = ['compared', 'no_previous_crawl', 'blocked', 'not_compared'] as const;

export const CrawlChangesSummary = z
  .object({
    crawl_id: Uuid,
    previous_crawl_id: Uuid.nullable().describe('the previous comparable crawl of the campaign; null when there is none'),
    basis: z
      .enum(CHANGE_BASES)
      .describe('compared; no_previous_crawl (first crawl with these settings); blocked (this crawl was blocked: nothing compared); not_compared (a failed or stopped crawl, or one settled before comparisons existed)'),
    issues: z
      .object({ new: SeverityCounts, fixed: SeverityCounts, gone_with_page: SeverityCounts, persisting: SeverityCounts })
      .describe('occurrences by severity: new; fixed (the page is still there); gone_with_page (the page was removed, redirected, answers 4xx/5xx or nothing, or is blocked or noindex); persisting'),
    pages: z
      .object({ added: z.int().min(0), removed: z.int().min(0), status_changed: z.int().min(0), redirect_changed: z.int().min(0).describe('same status, another redirect target (or none where there was one, or one where there was none)') })
      .describe('internal URLs'),
    health: z
      .array(
        z.object({
          key: z.enum(CRAWL_PILLARS),
          score: z.int().nullable(),
          previous_score: z.int().nullable(),
          delta: z.int().nullable().describe('score − previous_score; null when either is not measured'),
          attribution: ScoreAttribution.nullable().describe(
            'why the score moved, check by check; null when either score is not measured, or for a summary stored before attributions existed',
          ),
        }),
      )
      .describe('the crawl pillars of the scorecard, in this crawl and the previous one'),
    checks: z
      .array(
        z.object({
          name: z.string(),
          severity: Severity,
          category: z.string(),
          new: z.int().min(0),
          fixed: z.int().min(0),
          gone_with_page: z.int().min(0),
          persisting: z.int().min(0),
        }),
      )
      .describe('every check with occurrences new, fixed, gone with their page or persisting: most new first, then most fixed, then most gone with their page, then by name'),
  })
  .meta({ id: 'CrawlChangesSummary', description: 'Extension (docs/decisions/crawl-changes.md): what changed since the previous comparable crawl.' });
export type CrawlChangesSummary = z.infer<typeof CrawlChangesSummary>;

export const ListChangesQuery = PageQuery.extend({
  kind: z.enum(CHANGE_KINDS).optional(),
  severity: Severity.optional(),
});

export const Recommendation = z
  .object({
    name: z.string().describe('the check'),
    label: z.string().describe('the check in the caller’s language'),
    severity: Severity,
    category: z.string(),
    pillar: z.enum(CRAWL_PILLARS),
    pages: z.int().min(0).describe('distinct URLs on which the check fired'),
    occurrences: z.int().min(0),
    impact: z.number().min(0).describe('severity weight × pages affected × pillar weight (docs/decisions/crawl-changes.md); no longer the list’s order'),
    score_points: z
      .number()
      .min(0)
      .describe('points of its pillar’s score the fix would win: the score with this check’s occurrences removed, minus the score now, to one decimal (0 for a notice)'),
    advice: z.string().describe('what to fix, in the caller’s language (the advice the PDF gives)'),
  })
  .meta({ id: 'Recommendation', description: 'Extension (docs/decisions/crawl-changes.md): one fix of the prioritised list of a crawl, ordered errors, warnings, notices, then by pages affected, then by score points won.' });
export type Recommendation = z.infer<typeof Recommendation>;

export const ListRecommendationsQuery = PageQuery;
