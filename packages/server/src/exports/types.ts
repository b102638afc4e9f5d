import type { Readable } from 'node:stream';
import type { CrawledPage, IssueOccurrence, IssueSummary, PageSpeedResult } from '@siteaudit/schema';

export type ExportLanguage = 'fr' | 'en';

/**
 * Everything a renderer needs about one crawl. Issues and pages are pulled lazily so a renderer
 * never holds them all: a crawl may carry 500k occurrences and 50k pages.
 */
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
  pages(): AsyncIterable<CrawledPage>;
  language: ExportLanguage;
  /** Human label of an issue name; the name itself is shown when absent. */
  labels?: (issueName: string) => string;
}

/** Where finished export files live. Keys are relative paths such as `<id>.pdf`. */
export interface BlobStore {
  put(key: string, stream: Readable, contentType: string): Promise<{ size: number }>;
  /** Rejects with BlobNotFoundError when the key holds nothing. */
  get(key: string): Promise<Readable>;
  /** Deleting a missing key is not an error. */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
}

/** Shared with the mock, whose placeholder files carry the same types. */
export { EXPORT_CONTENT_TYPES, type ExportFileFormat } from '@siteaudit/schema';
