import type { Readable } from 'node:stream';
import type { CrawlChange, CrawlChangesSummary, CrawledPage, IssueOccurrence, IssueSummary, PageSpeedResult, Scorecard } from '@siteaudit/schema';

export type ExportLanguage = 'fr' | 'en';

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
  };
  healthScore: number | null;
  summary: IssueSummary;
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
  changes?: { summary: CrawlChangesSummary; previousFinishedAt: string | null; items(): AsyncIterable<CrawlChange> };
  /** Label of an issue name, asked before the issue catalogue (an embedder's own names). */
  labels?: (issueName: string) => string;
}

/** Shared with the mock, whose placeholder files carry the same types. */
export { EXPORT_CONTENT_TYPES, type ExportFileFormat } from '@siteaudit/schema/rules';
