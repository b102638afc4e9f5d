import { z } from 'zod';
import { DateTime, int32, int64, NoBody, PageQuery, queryBoolean, Severity, SeverityCounts, Uuid } from '../common.js';

/** Full value sets the spec leaves open (docs/decisions/crawl-lifecycle.md). */
export const CRAWL_STATUSES = ['queued', 'running', 'completed', 'failed', 'stopped'] as const;
export const CRAWL_STAGES = ['queued', 'fetching', 'analysing', 'pagespeed', 'scoring', 'comparing', 'done'] as const;
export const STEP_STATES = ['pending', 'running', 'done', 'skipped'] as const;
export const CRAWL_TRIGGERS = ['manual', 'schedule'] as const;

export const StagePlan = z
  .object({
    current_step: z.int().min(0),
    step_count: z.int().min(0),
    settled: z.boolean().describe('true once post-processing has ended; read reports only then'),
    steps: z.array(
      z.object({
        stage: z.enum(CRAWL_STAGES),
        state: z.enum(STEP_STATES),
        skip_reason: z.string().nullable(),
      }),
    ),
  })
  .meta({ id: 'StagePlan' });

export const Crawl = z
  .object({
    id: Uuid,
    project_id: Uuid,
    campaign_id: Uuid,
    status: z.enum(CRAWL_STATUSES),
    stage: z.enum(CRAWL_STAGES),
    active: z.boolean().describe('true while the crawl is running'),
    stage_plan: StagePlan,
    pages: z.object({
      crawled: z.int(),
      discovered: z.int(),
      budget: z.int(),
      per_second: z
        .number()
        .min(0)
        .nullable()
        .describe('Extension: pages fetched per second, one decimal: so far while the crawl fetches, over the whole fetch after; null before fetching starts (docs/decisions/crawl-reads.md)'),
    }),
    issue_counts: SeverityCounts,
    truncated: z.boolean(),
    blocked: z.boolean(),
    comparable: z.boolean(),
    blocked_reason: z.string().nullable(),
    error: z.string().nullable(),
    trigger: z.enum(CRAWL_TRIGGERS),
    started_at: DateTime.nullable(),
    finished_at: DateTime.nullable(),
    created_at: DateTime,
  })
  .meta({ id: 'Crawl' });
export type Crawl = z.infer<typeof Crawl>;

/** The launch takes no body, or an empty object (docs/decisions/crawl-launch.md). */
export const LaunchCrawlBody = NoBody;

export const IssueOccurrence = z
  .object({
    name: z.string(),
    severity: Severity,
    category: z.string(),
    url: z.string(),
    details: z.string(),
  })
  .meta({ id: 'IssueOccurrence', description: 'One issue on one URL.' });
export type IssueOccurrence = z.infer<typeof IssueOccurrence>;

export const TemplatePattern = z
  .object({
    scope: z.enum(['site', 'section']).describe('what the pattern covers: the whole site, or one section of it'),
    section: z.string().nullable().describe('the section: its first path folder (`/docs/`; `/` for the pages at the root); null for the site'),
    pages: z.int().min(0).describe('HTML pages of the scope on which the check fires for this cause'),
    share: z.number().min(0).max(1).describe('pages over the scope\'s HTML pages (internal, answering 2xx)'),
    details: z.string().describe('the details those occurrences share (their common cause), in the reader\'s language'),
    examples: z.array(z.string()).max(3).describe('a few of those pages'),
  })
  .meta({
    id: 'TemplatePattern',
    description: 'One decision of the site\'s template: the check fires for one cause on more than half of the HTML pages of the site, or of a section of it (docs/checks.md, "Scope"). The occurrences stay listed page by page.',
  });
export type TemplatePattern = z.infer<typeof TemplatePattern>;

export const IssueSummary = z
  .object({
    crawl_id: Uuid,
    totals: SeverityCounts,
    protection_occurrences: z.int().min(0),
    groups: z.array(
      z.object({
        name: z.string(),
        label: z.string().describe('Extension: the check’s label in the answer’s language (Content-Language), as in the check catalogue'),
        severity: Severity,
        category: z.string(),
        occurrences: z.int().min(0),
        pages: z.int().min(0).describe('distinct URLs with an occurrence'),
        templates: z
          .array(TemplatePattern)
          .describe('the template decisions the occurrences make: the site\'s, or else those of its sections (up to 10, the most pages first); empty when none'),
      }),
    ),
  })
  .meta({ id: 'IssueSummary' });
export type IssueSummary = z.infer<typeof IssueSummary>;

export const CrawledPage = z
  .object({
    url: z.string(),
    status_code: int32(z.int()).nullable().describe('null when no HTTP response was received'),
    error_type: z.string().nullable(),
    content_type: z.string().nullable(),
    is_internal: z.boolean(),
    depth: z.int().nullable().describe('click depth from the start URL (0); null when no chain of links from the start reaches the page, e.g. a page only a sitemap lists (an orphan)'),
    title: z.string().nullable(),
    meta_description: z.string().nullable(),
    h1: z.string().nullable(),
    word_count: z.int().nullable(),
    canonical_url: z.string().nullable(),
    response_time_ms: z.number().nullable(),
    size_bytes: int64(z.int()).nullable(),
    internal_links: z.int(),
    external_links: z.int(),
    images: z.int(),
    images_without_alt: z.int(),
  })
  .meta({ id: 'CrawledPage' });
export type CrawledPage = z.infer<typeof CrawledPage>;

/** What a page loads besides itself (docs/decisions/resources.md). */
export const RESOURCE_TYPES = ['stylesheet', 'script', 'image', 'icon', 'manifest', 'preload', 'media', 'frame', 'object'] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

export const PageResource = z
  .object({
    url: z.string(),
    type: z.enum(RESOURCE_TYPES),
    status_code: int32(z.int()).nullable().describe('the answer to the URL itself (3xx when it redirects); null when no HTTP response was received or it was not requested'),
    final_status_code: int32(z.int()).nullable().describe('the answer at the end of its redirects; equals status_code when it does not redirect'),
    redirect_url: z.string().nullable().describe('where the URL redirects; null when it does not'),
    error_type: z
      .string()
      .nullable()
      .describe('why no usable answer came: a network failure (timeout, dns, connection, tls, address_refused, protocol), redirect_loop, too_many_redirects, protection, or blocked_by_robots (not requested)'),
    content_type: z.string().nullable(),
    size_bytes: int64(z.int()).nullable().describe('Content-Length of the final answer, when given'),
  })
  .meta({ id: 'PageResource', description: 'One URL a page loads (stylesheet, script, image…), as the crawl found it.' });
export type PageResource = z.infer<typeof PageResource>;

export const CrawledPageWithIssues = CrawledPage.extend({
  issues: z.array(IssueOccurrence).describe('errors first'),
  resources: z
    .array(PageResource)
    .describe('extension (docs/decisions/resources.md): the resources the page loads, each checked once per crawl; empty for a page that is not HTML or was not analysed'),
}).meta({ id: 'CrawledPageWithIssues' });

const StrategyAverage = z
  .object({
    score: z.number().min(0).max(100).describe('mean Lighthouse performance score of the measured pages'),
    pages_measured: z.int().min(1),
    pages_failed: z.int().min(0),
  })
  .nullable()
  .describe('null when the strategy succeeded on no page, never 0');

/**
 * `not_requested`: the campaign has `pagespeed: false`; `unconfigured`: no provider could measure;
 * `not_run`: the crawl failed or was stopped before the step (docs/decisions/pagespeed-result.md).
 */
export const PAGESPEED_STATUSES = ['not_requested', 'unconfigured', 'not_run', 'pending', 'measured', 'failed'] as const;

export const PageSpeedResult = z
  .object({
    crawl_id: Uuid,
    status: z.enum(PAGESPEED_STATUSES),
    provider: z.string().nullable().describe('lighthouse, pagespeed_insights, or null when none ran'),
    skip_reason: z
      .string()
      .nullable()
      .describe('why nothing was measured: not_requested, no_provider, no_page_to_measure, crawl_failed, crawl_stopped'),
    mobile: StrategyAverage,
    desktop: StrategyAverage,
    combined: z.number().nullable().describe('mean of the measured strategies; the value the health score uses'),
    failed: z.boolean().describe('every measurement was refused'),
    sample: z.array(
      z.object({
        url: z.string(),
        role: z.enum(['home', 'category']),
        mobile: z.number().nullable(),
        desktop: z.number().nullable(),
        error: z.string().nullable(),
      }),
    ),
    measured_at: DateTime.nullable(),
  })
  .meta({ id: 'PageSpeedResult', description: 'Lighthouse performance of a sample (home and category pages), mobile and desktop.' });
export type PageSpeedResult = z.infer<typeof PageSpeedResult>;

export const CrawlParams = z.strictObject({ crawl: Uuid });
export const ListCrawlsQuery = PageQuery;
export const ListIssuesQuery = PageQuery.extend({
  severity: Severity.optional(),
  category: z.string().min(1).max(100).optional(),
  name: z.string().min(1).max(200).optional(),
  url: z
    .string()
    .min(1)
    .max(4096)
    .optional()
    .describe('Extension: the occurrences of one URL, matched on its normalised form as `pages/by-url` (docs/decisions/crawl-reads.md)'),
});
export const PAGE_STATUS_FILTERS = ['2xx', '3xx', '4xx', '5xx', 'unreachable'] as const;
export const ListPagesQuery = PageQuery.extend({
  status: z.enum(PAGE_STATUS_FILTERS).optional(),
  internal: queryBoolean().optional().describe('`true`: internal pages only; `false`: external pages only'),
});
/** The URL of one page of a crawl: an absolute URL (422 otherwise), matched on its normalised form; a URL no page has is 404. */
const PageUrl = z
  .string()
  .min(1)
  .max(4096)
  .refine((v) => {
    try {
      return new URL(v) !== null;
    } catch {
      return false;
    }
  }, { message: 'Must be an absolute URL', params: { code: 'invalid_url', fr: 'Doit être une URL absolue' } });
export const PageByUrlQuery = z.strictObject({ url: PageUrl });
export const ListInlinksQuery = PageQuery.extend({
  url: PageUrl.describe('the linked page, matched on its normalised form as `pages/by-url`'),
});

/** Extension: one internal link to a page (docs/decisions/crawl-reads.md). */
export const PageInlink = z
  .object({
    url: z.string().describe('the crawled page that links'),
    anchor_text: z
      .string()
      .describe('the text of its first link to the page (at most 200 characters): the link’s words, else its aria-label, title or image alt; empty when it has none'),
    nofollow: z.boolean().describe('the link, or the linking page, says nofollow'),
  })
  .meta({ id: 'PageInlink', description: 'Extension: an internal link to a page, from one crawled page (each linking page once, in the order the crawl found them).' });
export type PageInlink = z.infer<typeof PageInlink>;
