import type { Readable } from 'node:stream';
import type {
  BotFamily,
  CrawlChange,
  CrawlChangesSummary,
  CrawledPage,
  IssueOccurrence,
  IssueSummary,
  LogDayStat,
  LogFinding,
  LogInsights,
  LogUrlStat,
  PageSpeedResult,
  Scorecard,
} from '@siteaudit/schema';

export type ExportLanguage = 'fr' | 'en';

/** The agency's name and logo on the cover (docs/decisions/export-branding.md). */
export interface ReportBranding {
  agencyName: string | null;
  logo: { type: 'png' | 'jpeg'; bytes: Uint8Array } | null;
}

/**
 * A change as the reports list it: for a page without a status in a crawl, why (its `error_type`
 * there: blocked by robots.txt, a timeout…), so the sheet says what the page became.
 */
export type ReportChange = CrawlChange & { error_type?: string | null; previous_error_type?: string | null };

/**
 * One entry of the fix list: the check, the pages it fires on, the score points its fix would win
 * and the pillar they are points of (a content check's are the Content and GEO pillar's, not the
 * technical health score's).
 */
export interface ReportFix {
  name: string;
  pages: number;
  score_points: number;
  pillar: string;
}

/** A scorecard pillar (the API's) with the issue categories its score is computed from. */
export type ReportPillar = Scorecard['pillars'][number] & { categories: string[] };

/** One crawl of the health score chart. */
export interface HealthPoint {
  crawl_id: string;
  finished_at: string;
  health_score: number | null;
}

/**
 * Everything a renderer needs about one crawl. Issues and pages are pulled lazily so a renderer
 * never holds them all: a crawl may carry 500k occurrences and 50k pages.
 */
/** A crawled page as the reports list it: with where it redirects, when it does. */
export type ReportPage = CrawledPage & { redirect_url?: string | null };

export interface ExportSource {
  project: { name: string; url: string; domain: string };
  crawl: {
    id: string;
    status: string;
    started_at: string | null;
    finished_at: string | null;
    pages: { crawled: number; discovered: number; budget: number };
    issue_counts: { error: number; warning: number; info: number };
    /**
     * Why the crawl failed, as a sentence in the report's language, without its code (a site that
     * could not be reached): the report is then its cover and this line.
     */
    failure?: string | null;
  };
  healthScore: number | null;
  summary: IssueSummary;
  /**
   * The crawl's fix list as the API gives it (GET /v1/crawls/{crawl}/recommendations): errors,
   * warnings, notices, then pages affected, then score points. The PDF and the workbook list checks
   * in this order. Absent: by severity, then occurrences.
   */
  fixes?: ReportFix[];
  /** Cover branding of the export request, if any: the PDF's cover shows it, the workbook the name. */
  branding?: ReportBranding;
  pagespeed: PageSpeedResult | null;
  /** Streamed from the database; a renderer may stop early (it then calls the iterator's return()). */
  issues(): AsyncIterable<IssueOccurrence>;
  /** Streamed from the database; a renderer may stop early (it then calls the iterator's return()). */
  pages(): AsyncIterable<ReportPage>;
  language: ExportLanguage;
  /**
   * The project's scorecard as the report shows it: the crawl pillars of this crawl, the others as
   * of the export. Absent: the section says it was not available.
   */
  scorecard?: ReportPillar[];
  /** This crawl and the project's recent comparable crawls before it, oldest first. */
  history?: HealthPoint[];
  /**
   * What changed since the previous comparable crawl (docs/decisions/crawl-changes.md): the
   * summary, when the previous crawl finished, and every change, streamed. Absent: the section
   * and the sheet are left out.
   */
  changes?: { summary: CrawlChangesSummary; previousFinishedAt: string | null; items(): AsyncIterable<ReportChange> };
  /**
   * What the project's access logs say (docs/decisions/exports.md#the-log-section). Absent when the
   * project has no completed log import: the section and the sheets are left out.
   */
  logs?: ReportLogs;
  /** Label of an issue name, asked before the issue catalogue (an embedder's own names). */
  labels?: (issueName: string) => string;
}

/** A path as the bots fetched it: trusted hits (verified or nothing to verify) summed over the families. */
export interface ReportLogUrl {
  path: string;
  hits: number;
  families: BotFamily[];
  status_codes: Record<string, number>;
  last_visit: string;
}

/**
 * The log section's data: the insights (period, hits, families, budget, coverage, AI agents) as the
 * API reads them, a few examples of each finding and the top paths (bounded), then every URL
 * statistic and every day, streamed, for the workbook.
 */
export interface ReportLogs {
  insights: LogInsights;
  /** Completed imports read. */
  imports: number;
  /** Paths with the most trusted bot hits, most first (a bounded list). */
  topUrls: ReportLogUrl[];
  /** Each finding kind: how many, and the first examples (orphans with the most hits first, unvisited pages by path). */
  findings: Record<LogFinding['kind'], { count: number; examples: LogFinding[] }>;
  urls(): AsyncIterable<LogUrlStat>;
  days(): AsyncIterable<LogDayStat>;
}

/** Shared with the mock, whose placeholder files carry the same types. */
export { EXPORT_CONTENT_TYPES, type ExportFileFormat } from '@siteaudit/schema/rules';
