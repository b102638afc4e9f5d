/**
 * Where the crawler's findings go: pages and issues written in batches, progress now and then.
 * Every write is fenced by the run's lease, so a run that lost the crawl writes nothing more.
 */
import { hash } from 'node:crypto';
import { normaliseUrl, type IssueRecord, type PageRecord, type ResourceRecord, type SinkBatch } from '../../crawler/index.js';
import { LeaseLostError } from '../../jobs/job-runner.js';
import { bool, isPostgres } from '../../store/database.js';
import { SEVERITY_RANK, type CrawlRow } from './crawl-row.js';
import type { CrawlJob } from './crawl-context.js';
import { sectionOf } from '@siteaudit/schema/rules';
import type { Logger } from '../../observability/logger.js';
import type { Knex } from 'knex';
import { keptStatement } from '../../store/sqlite-client.js';
import { linkBucket, packLink, type FoundLink } from './link-order.js';

/** The key under which pages and issues are looked up by URL. */
export function urlHash(url: string): string {
  // One-shot `hash`: about half the cost of a Hash object for a URL's few bytes (21 a page on a dense site).
  return hash('sha256', normaliseUrl(url) ?? url, 'hex');
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

/** Rows per INSERT when bound value by value: under SQLite's 999-variable cap for the widest table. */
const PAGE_CHUNK = 40;
const ISSUE_CHUNK = 120;
const RESOURCE_CHUNK = 80;
const PAGE_RESOURCES_CHUNK = 300;
const LINK_CHUNK_ROWS = 150;
/**
 * Rows per INSERT as one JSON text (SQLite): a statement's rows share its statement journal and
 * the pages they append to, so larger statements write less (docs/benchmarks.md).
 */
const JSON_ROWS = 5000;

/**
 * A multi-row INSERT of the crawl's own tables as one raw statement, its text made once and kept:
 * knex's query builder compiled every chunk's INSERT afresh (the column list merged over every
 * row, each value wrapped), the largest part of the store's writes on the thread that answers
 * HTTP. Rows are arrays in `columns` order. A chunk holding an `undefined` goes through knex
 * (which writes DEFAULT for it on PostgreSQL), so what is stored never differs.
 *
 * On SQLite the rows go as one JSON text, unpacked by the statement (`json_each`): node-sqlite3
 * converts each bound value on the calling thread, and a dense site's page binds about 200 (21
 * link rows of 6, 6 issue rows of 10, its own row), which made that conversion the largest part of
 * the thread that answers HTTP during a crawl (docs/benchmarks.md, "The dense, templated site").
 * One string per chunk is converted instead, and SQLite reads the values off the JSON on its own
 * thread: the same values (JSON's true is 1, as node-sqlite3 binds it; a chunk with a lone
 * surrogate or a NUL in a string is bound value by value), in the same order. The
 * statement is one per table, kept prepared (store/sqlite-client.ts).
 * On PostgreSQL (and for such a chunk on SQLite) the rows are bound one value
 * each, in the VALUES form (a statement per row count).
 */
function rowInserter(table: string, columns: readonly string[], chunk: number, conflict?: readonly string[], { json: asJson = true } = {}) {
  const statements = new Map<number, string>();
  const names = columns.map((c) => `"${c}"`).join(', ');
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  const tail = conflict ? ` on conflict (${conflict.map((c) => `"${c}"`).join(', ')}) do nothing` : '';
  // `where true`: an INSERT … SELECT followed by ON CONFLICT needs it (SQLite's parser).
  const fromJson = keptStatement(`insert into "${table}" (${names}) select ${columns.map((_, i) => `value ->> ${i}`).join(', ')} from json_each(?) where true${tail}`);
  /** One chunk of rows bound value by value (through knex when one holds an `undefined`). */
  const bound = async (trx: Knex.Transaction, rows: unknown[][]): Promise<void> => {
    if (rows.some((row) => row.includes(undefined))) {
      const objects = rows.map((r) => Object.fromEntries(columns.map((c, i) => [c, r[i]])));
      const query = trx(table).insert(objects);
      await (conflict ? query.onConflict([...conflict]).ignore() : query);
      return;
    }
    let sql = statements.get(rows.length);
    if (sql === undefined) {
      sql = `insert into "${table}" (${names}) values ${Array.from({ length: rows.length }, () => tuple).join(', ')}${tail}`;
      statements.set(rows.length, sql);
    }
    await trx.raw(sql, rows.flat() as Knex.RawBinding[]);
  };
  return async (trx: Knex.Transaction, rows: unknown[][]): Promise<void> => {
    if (asJson && !isPostgres(trx)) {
      for (let i = 0; i < rows.length; i += JSON_ROWS) {
        const part = rows.slice(i, i + JSON_ROWS);
        const json = part.some((row) => row.includes(undefined)) ? null : JSON.stringify(part);
        // A lone surrogate (escaped as \udxxx, the only place JSON.stringify writes one) is stored
        // as U+FFFD when bound, and a NUL (\u0000) kept with what follows it, as SQLite's JSON
        // would not: such rows are bound value by value.
        if (json !== null && !json.includes('\\ud') && !json.includes('\\u0000')) await trx.raw(fromJson, [json]);
        else for (let k = 0; k < part.length; k += chunk) await bound(trx, part.slice(k, k + chunk));
      }
      return;
    }
    for (let i = 0; i < rows.length; i += chunk) await bound(trx, rows.slice(i, i + chunk));
  };
}

const PAGE_COLUMNS = [
  'crawl_id', 'seq', 'url', 'url_hash', 'section', 'status_code', 'error_type', 'content_type', 'is_internal', 'depth', 'title', 'meta_description', 'h1',
  'word_count', 'canonical_url', 'redirect_url', 'response_time_ms', 'size_bytes', 'internal_links', 'external_links', 'images', 'images_without_alt',
] as const;
const ISSUE_COLUMNS = ['crawl_id', 'seq', 'name', 'severity', 'severity_rank', 'category', 'url', 'url_hash', 'section', 'details'] as const;
const insertPages = rowInserter('crawl_pages', PAGE_COLUMNS, PAGE_CHUNK, ['crawl_id', 'url_hash']);
const insertPageResources = rowInserter('crawl_page_resources', ['crawl_id', 'url_hash', 'resource_ids'], PAGE_RESOURCES_CHUNK, ['crawl_id', 'url_hash']);
const insertIssues = rowInserter('crawl_issues', ISSUE_COLUMNS, ISSUE_CHUNK);
// At most 64 rows a write, each a JSON text of its own: bound as they are.
const insertLinkChunks = rowInserter('crawl_link_chunks', ['crawl_id', 'bucket', 'seq', 'n', 'links'], LINK_CHUNK_ROWS, undefined, { json: false });

/**
 * `text` with each lone surrogate (as binding stored it) and each NUL (as HTML parsing reads it) as
 * U+FFFD: a chunk's JSON is unpacked by the store, whose JSON and PostgreSQL's text take neither.
 */
function wellFormed(text: string): string {
  const formed = (text as string & { toWellFormed(): string }).toWellFormed();
  return formed.includes('\u0000') ? formed.replaceAll('\u0000', '\ufffd') : formed;
}

/** Links a chunk gathers before it is written: a few chunk rows a write, not one a bucket. */
const LINKS_PER_CHUNK = 128;

/**
 * The links found, gathered by bucket of target until a bucket has LINKS_PER_CHUNK, then written
 * as one chunk row (in the order found); the rest when the fetch ends (`flush`). The settlement
 * reads a bucket's chunks one by one: chunks of a few links, as a write of the crawl's smaller
 * batches made them, took twice as long to order. Links held here and lost with the process
 * are lost with the fetch that found them: a resumed run fetches the site again from the start.
 */
function linkChunker(crawlId: string) {
  const open = new Map<number, FoundLink[]>();
  const row = (bucket: number, entries: FoundLink[]) => [crawlId, bucket, entries[0].seq, entries.length, JSON.stringify(entries.map((l) => l.packed))];
  return {
    /** The chunk rows `links` completes. */
    add(links: FoundLink[]): unknown[][] {
      const rows: unknown[][] = [];
      for (const link of links) {
        const bucket = linkBucket(link.target);
        let entries = open.get(bucket);
        if (!entries) open.set(bucket, (entries = []));
        entries.push(link);
        if (entries.length >= LINKS_PER_CHUNK) {
          rows.push(row(bucket, entries));
          open.delete(bucket);
        }
      }
      return rows;
    },
    /** The chunk rows of every link still gathered, in bucket order. */
    rest(): unknown[][] {
      const rows = [...open].sort(([a], [b]) => a - b).map(([bucket, entries]) => row(bucket, entries));
      open.clear();
      return rows;
    },
  };
}

/** A write's rows by table: value arrays in their inserter's column order, resources as objects. */
interface Rows {
  pages: unknown[][];
  uses: unknown[][];
  links: FoundLink[];
  issues: unknown[][];
  resources: Record<string, unknown>[];
}
const TABLE_ORDER = ['pages', 'uses', 'links', 'issues', 'resources'] as const;

export interface CrawlSink {
  pages(batch: PageRecord[]): Promise<void>;
  issues(batch: IssueRecord[]): Promise<void>;
  resources(batch: ResourceRecord[]): Promise<void>;
  /**
   * Several batches, in order, in one transaction (one fence, one commit): what the crawl
   * threads' batches waiting on the store are written as (crawl-threads/pool.ts).
   */
  writeMany(writes: SinkBatch[]): Promise<void>;
  progress(p: { crawled: number; discovered: number }): void;
  /** The last progress write and stop check settled, and the links still gathered written. */
  flushed(): Promise<void>;
}

/** What the sink writes for: the crawl job's services, its crawl (by id) and the lease that fences each write. */
export type SinkJob = Pick<CrawlJob, 'services' | 'lease'> & { row: Pick<CrawlRow, 'id'> };

/** `onStop` is called when a progress write finds that another process asked for a stop. */
export function crawlSink(job: SinkJob, log: Logger, onStop: () => void): CrawlSink {
  const { services, lease } = job;
  const { knex } = services;
  const crawlId = job.row.id;
  let pageSeq = 0;
  let issueSeq = 0;
  let linkSeq = 0;
  const chunker = linkChunker(crawlId);
  let lastProgress = 0;
  let stopCheck: Promise<void> = Promise.resolve();
  const hashOf = recentUrlHashes();

  /** The rows of a batch, by table (sequence numbers taken now, in the order batches come). */
  function prepare(write: SinkBatch): Partial<Rows> {
    switch (write.method) {
      case 'pages': {
        const batch = write.batch;
        const rows = batch.map((p) => [
          crawlId,
          pageSeq++,
          p.url,
          hashOf(p.url),
          sectionOf(p.url),
          p.status_code,
          p.error_type,
          p.content_type,
          p.is_internal,
          p.depth,
          p.title,
          p.meta_description,
          p.h1,
          p.word_count,
          p.canonical_url,
          p.redirect_url,
          p.response_time_ms,
          p.size_bytes,
          p.internal_links,
          p.external_links,
          p.images,
          p.images_without_alt,
        ]);
        // The ids of the resources each page uses, as one short text value per page (010-crawl-resources.ts).
        const uses = batch.flatMap((p, i) => (p.resource_ids?.length ? [[crawlId, rows[i][3], p.resource_ids.join(',')]] : []));
        // Its internal links, for the inlinks read, in the order found, the source by its page's
        // seq: kept in chunks by bucket of target (030-crawl-link-chunks.ts), ordered by target at
        // settlement (link-order.ts).
        const links = batch.flatMap((p, i) =>
          (p.links ?? []).map((l): FoundLink => {
            const seq = linkSeq++;
            const target = hashOf(l.url);
            return { seq, target, packed: packLink(seq, target, rows[i][1] as number, l.nofollow, wellFormed(l.text)) };
          }),
        );
        return { pages: rows, uses, links };
      }
      case 'issues': {
        const rows = write.batch.map((issue) => [
          crawlId,
          issueSeq++,
          issue.name,
          issue.severity,
          SEVERITY_RANK[issue.severity],
          issue.category,
          issue.url,
          hashOf(issue.url),
          sectionOf(issue.url),
          issue.details,
        ]);
        return { issues: rows };
      }
      case 'resources': {
        const rows = write.batch.map((r) => ({
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
        return { resources: rows };
      }
    }
  }

  async function writeMany(writes: SinkBatch[]): Promise<void> {
    // The batches' rows, made once (a retried transaction reuses them with the same sequence
    // numbers), then each table's rows of every batch in one go: one statement where the store
    // takes it, in the order the batches came (one URL is stored once: the first row is kept).
    const all: Rows = { pages: [], uses: [], links: [], issues: [], resources: [] };
    for (const write of writes) {
      const rows = prepare(write);
      for (const table of TABLE_ORDER) if (rows[table]) (all[table] as unknown[]).push(...rows[table]!);
    }
    const chunks = chunker.add(all.links);
    await lease.write(async (trx) => {
      for (let i = 0; i < all.resources.length; i += RESOURCE_CHUNK) await trx('crawl_resources').insert(all.resources.slice(i, i + RESOURCE_CHUNK));
      await insertPages(trx, all.pages);
      await insertPageResources(trx, all.uses);
      await insertLinkChunks(trx, chunks);
      await insertIssues(trx, all.issues);
    });
    if (all.pages.length) services.metrics?.pagesFetched(all.pages.length);
  }

  return {
    pages: (batch) => writeMany([{ method: 'pages', batch }]),
    issues: (batch) => writeMany([{ method: 'issues', batch }]),
    resources: (batch) => writeMany([{ method: 'resources', batch }]),
    writeMany,
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
    async flushed() {
      await stopCheck;
      const chunks = chunker.rest();
      if (chunks.length) await lease.write((trx) => insertLinkChunks(trx, chunks));
    },
  };
}
