/**
 * Log exploration (extension, docs/decisions/logs.md): a project's access logs imported as files,
 * what search and AI bots fetched, and what the join with the latest crawl says of it.
 */
import { z } from 'zod';
import { DateTime, int64, PageQuery, PlainDate, Uuid } from '../common.js';

/** Bot families a request is classified into by its user agent (rules/logs.ts). */
export const BOT_FAMILIES = [
  'googlebot',
  'googlebot_smartphone',
  'googlebot_image',
  'googlebot_video',
  'googlebot_news',
  'google_other',
  'bingbot',
  'applebot',
  'yandexbot',
  'baiduspider',
  'ai_search',
  'ai_training',
  'duckduckbot',
  'other_search_engine',
  'seo_tool',
  'social_preview',
  'siteaudit',
] as const;
export type BotFamily = (typeof BOT_FAMILIES)[number];
/**
 * `verified`: the address is in the operator's published ranges or its reverse DNS checks out;
 * `unverified`: a claim that failed both, counted per day only (no path: docs/decisions/logs.md,
 * Privacy); `not_applicable`: a family whose operator publishes nothing we check (or that only
 * reverse DNS checks, where it is off or past its 500 addresses an import).
 */
export const VERIFICATIONS = ['verified', 'unverified', 'not_applicable'] as const;
export const LOG_IMPORT_STATUSES = ['queued', 'parsing', 'completed', 'failed'] as const;
export const LOG_FORMATS = ['combined', 'common', 'json'] as const;
export const STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx', 'other'] as const;

export const LogImport = z
  .object({
    id: Uuid,
    project_id: Uuid,
    status: z.enum(LOG_IMPORT_STATUSES),
    format: z.enum(LOG_FORMATS).nullable().describe('detected on the first line that parses; null until then'),
    size_bytes: int64(z.int().min(0).describe('bytes received, as sent (compressed when gzip)')),
    lines: z.object({
      read: z.int().min(0),
      kept: z.int().min(0).describe('lines parsed into a request'),
      refused: z.int().min(0),
    }),
    refusals: z
      .array(z.object({ line: z.int().min(1), reason: z.string() }))
      .describe('the first refused lines (at most 10) with why; the lines themselves are not kept'),
    human_hits: int64(z.int().min(0).describe('requests not made by a known bot: counted, never stored one by one')),
    bot_hits: int64(z.int().min(0)),
    period: z
      .object({ from: DateTime, to: DateTime })
      .nullable()
      .describe('first and last request time of the kept lines; null when none was kept'),
    truncation: z
      .object({
        inflated_bytes: int64(z.int().min(0).describe('bytes of text recovered (decompressed) before the cut')),
        partial_line: z.boolean().describe('the last recovered line stops mid-way: refused (reason `truncated_line`), never read as a shorter line'),
      })
      .nullable()
      .describe(
        'set when the gzip stream stops before its end (a file cut short, as `zcat` reports "unexpected end of file"): the import completes with what decompressed, counted as usual, and this says where the text stopped; what the missing end held cannot be measured (gzip writes the full size only in its trailer, which is gone). null for a complete file',
      ),
    error: z.string().nullable(),
    created_at: DateTime,
    finished_at: DateTime.nullable(),
  })
  .meta({ id: 'LogImport', description: 'Extension (docs/decisions/logs.md): one uploaded access log and what its parsing gave.' });
export type LogImport = z.infer<typeof LogImport>;

export const LogUrlStat = z
  .object({
    path: z.string().describe("path and query string as the server resolved them: RFC 3986 normalised (escapes of unreserved characters decoded, other escapes in upper case, dot segments removed, what a URI may not hold raw percent-encoded), the server's log escapes (`\\x5C`) read as the bytes sent, `//` kept; every spelling of one target is one path. Minimised (docs/privacy.md): an e-mail address becomes `(email)`, the value of a credential, session or phone parameter `(redacted)` (`?PHPSESSID=(redacted)&page=2`, `;jsessionid=(redacted)`); a link preview's or user-triggered fetch's path has no query string, and a secret-looking segment of it becomes `(token)`"),
    family: z.enum(BOT_FAMILIES),
    verification: z.enum(VERIFICATIONS).describe('`verified` or `not_applicable`: a Google, Bing, Apple, Yandex or Baidu claim that fails verification (`unverified`) is counted per day only (logs/days, insights), never per URL'),
    hits: int64(z.int().min(1)),
    last_visit: DateTime,
    status_codes: z.record(z.string(), int64(z.int().min(1))).describe('hits by status code served'),
    bytes: int64(z.int().min(0)),
  })
  .meta({ id: 'LogUrlStat', description: 'Extension (docs/decisions/logs.md): one URL as one bot family fetched it.' });
export type LogUrlStat = z.infer<typeof LogUrlStat>;

export const LogDayStat = z
  .object({
    date: PlainDate.describe("the calendar date in the UTC offset the server wrote on each log line (its own clock, as GoAccess shows it), not the UTC date: a line written 28/Nov/2026:00:30 +1300 counts on 2026-11-28"),
    family: z.enum([...BOT_FAMILIES, 'human']),
    verification: z.enum(VERIFICATIONS),
    status_class: z.enum(STATUS_CLASSES),
    hits: int64(z.int().min(1)),
  })
  .meta({ id: 'LogDayStat', description: "Extension (docs/decisions/logs.md): hits of one day by family and status class. A day is the date in the line's own offset, as the server wrote it." });
export type LogDayStat = z.infer<typeof LogDayStat>;

/** What only the join of the logs with the latest settled crawl can say (docs/decisions/logs.md). */
export const LOG_FINDING_KINDS = ['not_in_crawl', 'indexable_not_visited'] as const;
export const LogFinding = z
  .object({
    kind: z.enum(LOG_FINDING_KINDS),
    path: z.string(),
    bot_hits: int64(z.int().min(0).describe('verified and not-applicable bot hits on the URL; 0 for indexable_not_visited')),
    last_visit: DateTime.nullable(),
  })
  .meta({ id: 'LogFinding', description: 'Extension (docs/decisions/logs.md): a URL bots visit that the crawl did not find, or an indexable page no bot visited.' });
export type LogFinding = z.infer<typeof LogFinding>;

/** Where the crawl budget went, by what the crawl says of the URL (one hit can fall in several). */
export const BUDGET_BUCKETS = ['indexable', 'redirect', 'client_error', 'server_error', 'non_canonical', 'noindex', 'parameterised', 'robots_disallowed', 'not_in_crawl'] as const;

export const LogInsights = z
  .object({
    project_id: Uuid,
    period: z.object({ from: DateTime, to: DateTime }).nullable().describe('what the imports cover; null without logs'),
    crawl_id: Uuid.nullable().describe('the settled crawl joined; null when none'),
    hits: z.object({
      bots: int64(z.int().min(0)),
      unverified_claims: int64(z.int().min(0).describe('requests whose user agent claims Google, Bing, Apple, Yandex or Baidu and whose claim failed verification: counted per day and family, their paths not kept')),
      humans: int64(z.int().min(0)),
    }),
    families: z
      .array(
        z.object({
          family: z.enum(BOT_FAMILIES),
          verification: z.enum(VERIFICATIONS),
          hits: int64(z.int().min(0)),
          urls: z.int().min(0).describe('distinct URLs; 0 for `unverified`, whose paths are not kept'),
          last_visit: DateTime.nullable().describe('null for `unverified`, counted per day only'),
        }),
      )
      .describe('hits per family and verification, most hits first; `unverified` entries come from the day counts'),
    budget: z
      .array(z.object({ bucket: z.enum(BUDGET_BUCKETS), hits: int64(z.int().min(0)), share: z.number().min(0).max(1) }))
      .describe('verified and not-applicable bot hits; empty without a settled crawl'),
    coverage: z
      .object({ indexable_pages: z.int().min(0), visited: z.int().min(0), not_in_crawl_urls: z.int().min(0) })
      .nullable()
      .describe('null without a settled crawl'),
    ai: z
      .object({ search_hits: int64(z.int().min(0)), training_hits: int64(z.int().min(0)), urls: z.int().min(0), last_visit: DateTime.nullable() })
      .describe("AI agents' activity (the crawler's lists of AI search and training agents)"),
  })
  .meta({ id: 'LogInsights', description: 'Extension (docs/decisions/logs.md): bot activity and crawl budget, joined with the latest settled crawl.' });
export type LogInsights = z.infer<typeof LogInsights>;

export const LogImportParams = z.strictObject({ project: Uuid, import: Uuid });
export const ListLogUrlsQuery = PageQuery.extend({
  family: z.enum(BOT_FAMILIES).optional(),
  verification: z
    .enum(VERIFICATIONS)
    .optional()
    .describe('`unverified` is accepted and lists nothing: claims that fail verification are counted per day only (logs/days, `insights.hits.unverified_claims`), never per URL'),
});
export const ListLogDaysQuery = PageQuery.extend({
  family: z.enum([...BOT_FAMILIES, 'human']).optional(),
});
export const ListLogFindingsQuery = PageQuery.extend({ kind: z.enum(LOG_FINDING_KINDS) });

/** Content types an import accepts: plain text or gzip (Content-Encoding: gzip also says gzip). */
export const LOG_UPLOAD_TYPES = ['text/plain', 'application/gzip', 'application/x-gzip', 'application/octet-stream', 'application/x-ndjson', 'application/jsonl'] as const;
