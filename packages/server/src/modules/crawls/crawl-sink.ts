/**
 * Where the crawler's findings go: pages and issues written in batches, progress now and then.
 * Every write is fenced by the run's lease, so a run that lost the crawl writes nothing more.
 */
import { createHash } from 'node:crypto';
import { normaliseUrl, type IssueRecord, type PageRecord, type ResourceRecord } from '../../crawler/index.js';
import { LeaseLostError, type JobLease } from '../../jobs/job-runner.js';
import type { Services } from '../../services.js';
import { bool } from '../../store/database.js';
import { SEVERITY_RANK } from './crawl-row.js';
import { sectionOf } from '@siteaudit/schema/rules';
import type { Logger } from '../../observability/logger.js';

/** The key under which pages and issues are looked up by URL. */
export function urlHash(url: string): string {
  return createHash('sha256').update(normaliseUrl(url) ?? url).digest('hex');
}

/**
 * `urlHash` of the URLs written lately: a page's issues follow the page, so most issue rows
 * reuse its hash instead of parsing and hashing the URL again on the thread that answers HTTP.
 */
function recentUrlHashes(size = 4096): (url: string) => string {
  let recent = new Map<string, string>();
  return (url) => {
    let hash = recent.get(url);
    if (hash === undefined) {
      if (recent.size >= size) recent = new Map();
      hash = urlHash(url);
      recent.set(url, hash);
    }
    return hash;
  };
}

const PROGRESS_EVERY_MS = 1000;

/** Rows per INSERT: under SQLite's 999-variable cap for the widest table. */
const PAGE_CHUNK = 40;
const ISSUE_CHUNK = 120;
const RESOURCE_CHUNK = 80;
const PAGE_RESOURCES_CHUNK = 300;
const LINK_CHUNK = 150;

export interface CrawlSink {
  pages(batch: PageRecord[]): Promise<void>;
  issues(batch: IssueRecord[]): Promise<void>;
  resources(batch: ResourceRecord[]): Promise<void>;
  progress(p: { crawled: number; discovered: number }): void;
  /** The last progress write and stop check, settled. */
  flushed(): Promise<void>;
}

/** `onStop` is called when a progress write finds that another process asked for a stop. */
export function crawlSink(services: Services, crawlId: string, lease: JobLease, log: Logger, onStop: () => void): CrawlSink {
  const { knex } = services;
  let pageSeq = 0;
  let issueSeq = 0;
  let linkSeq = 0;
  let lastProgress = 0;
  let stopCheck: Promise<void> = Promise.resolve();
  const hashOf = recentUrlHashes();
  return {
    async pages(batch: PageRecord[]) {
      const rows = batch.map((p) => ({
        crawl_id: crawlId,
        seq: pageSeq++,
        url: p.url,
        url_hash: hashOf(p.url),
        section: sectionOf(p.url),
        status_code: p.status_code,
        error_type: p.error_type,
        content_type: p.content_type,
        is_internal: p.is_internal,
        depth: p.depth,
        title: p.title,
        meta_description: p.meta_description,
        h1: p.h1,
        word_count: p.word_count,
        canonical_url: p.canonical_url,
        redirect_url: p.redirect_url,
        response_time_ms: p.response_time_ms,
        size_bytes: p.size_bytes,
        internal_links: p.internal_links,
        external_links: p.external_links,
        images: p.images,
        images_without_alt: p.images_without_alt,
      }));
      // The ids of the resources each page uses, as one short text value per page (010-crawl-resources.ts).
      const uses = batch.flatMap((p, i) => (p.resource_ids?.length ? [{ crawl_id: crawlId, url_hash: rows[i].url_hash, resource_ids: p.resource_ids.join(',') }] : []));
      // Its internal links, for the inlinks read (026-crawl-links.ts): the source by its page's seq.
      const links = batch.flatMap((p, i) =>
        (p.links ?? []).map((l) => ({ crawl_id: crawlId, seq: linkSeq++, target_hash: hashOf(l.url), source_seq: rows[i].seq, anchor_text: l.text, nofollow: l.nofollow })),
      );
      // One URL is stored once: a row already there (the unique index) is kept, never doubled.
      await lease.write(async (trx) => {
        for (let i = 0; i < rows.length; i += PAGE_CHUNK) await trx('crawl_pages').insert(rows.slice(i, i + PAGE_CHUNK)).onConflict(['crawl_id', 'url_hash']).ignore();
        for (let i = 0; i < uses.length; i += PAGE_RESOURCES_CHUNK) {
          await trx('crawl_page_resources').insert(uses.slice(i, i + PAGE_RESOURCES_CHUNK)).onConflict(['crawl_id', 'url_hash']).ignore();
        }
        for (let i = 0; i < links.length; i += LINK_CHUNK) await trx('crawl_links').insert(links.slice(i, i + LINK_CHUNK));
      });
      services.metrics?.pagesFetched(rows.length);
    },
    async issues(batch: IssueRecord[]) {
      const rows = batch.map((issue) => ({
        crawl_id: crawlId,
        seq: issueSeq++,
        name: issue.name,
        severity: issue.severity,
        severity_rank: SEVERITY_RANK[issue.severity],
        category: issue.category,
        url: issue.url,
        url_hash: hashOf(issue.url),
        section: sectionOf(issue.url),
        details: issue.details,
      }));
      await lease.write(async (trx) => {
        for (let i = 0; i < rows.length; i += ISSUE_CHUNK) await trx('crawl_issues').insert(rows.slice(i, i + ISSUE_CHUNK));
      });
    },
    async resources(batch: ResourceRecord[]) {
      const rows = batch.map((r) => ({
        crawl_id: crawlId,
        id: r.id,
        url: r.url,
        type: r.type,
        is_internal: r.is_internal,
        status_code: r.status_code,
        final_status_code: r.final_status_code,
        redirect_url: r.redirect_url,
        error_type: r.error_type,
        content_type: r.content_type,
        size_bytes: r.size_bytes,
      }));
      await lease.write(async (trx) => {
        for (let i = 0; i < rows.length; i += RESOURCE_CHUNK) await trx('crawl_resources').insert(rows.slice(i, i + RESOURCE_CHUNK));
      });
    },
    progress(p: { crawled: number; discovered: number }) {
      const now = Date.now();
      if (now - lastProgress < PROGRESS_EVERY_MS) return;
      lastProgress = now;
      // Progress is advisory: a failed write must not fail the crawl. The same write tells
      // whether another process asked for a stop.
      stopCheck = lease
        .write((trx) => trx('crawls').where({ id: crawlId }).update({ pages_crawled: p.crawled, pages_discovered: p.discovered }))
        .then(() => knex('crawls').where({ id: crawlId }).first('stop_requested'))
        .then((r) => {
          if (r && bool(r.stop_requested)) onStop();
        })
        .catch((err) => {
          // A run that lost its job stops at its next fenced write; nothing to report twice.
          if (!(err instanceof LeaseLostError)) log.warn({ err, crawl: crawlId }, 'crawl progress not written');
        });
    },
    flushed: () => stopCheck,
  };
}
