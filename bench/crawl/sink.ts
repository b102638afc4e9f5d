/**
 * The crawl sink alone (modules/crawls/crawl-sink.ts): what storing a crawl's pages and issues
 * costs the thread that answers HTTP, and the process, on SQLite, with no crawl, no site and no
 * HTTP around it. Pages shaped as the dense site's (`--site dense` of run.ts): 6 issue rows, a
 * page row and 21 internal links a page (kept in chunks), batches of 200 pages (`SINK_BATCH=33`
 * for the crawl's smaller batches), pages first, then their issues. Wall time is given too: the store's writes are serial, and their
 * wall time a page bounds the crawl's pages per second. Then the links found ordered by target, as
 * the settlement does (link-order.ts), once the last links gathered are written: its time a page,
 * and its longest transaction.
 * CPU time, not wall time, so a loaded machine moves it little.
 *
 *   npx tsx bench/crawl/sink.ts [--pages 20000] [--runs 3] [--links 21] [--pragma 'synchronous = NORMAL; …']
 *
 * `--pragma` runs SQLite pragmas on the store's connection before the writes, to measure a setting;
 * `SINK_SQL='drop index …; …'` runs statements after the migrations, to weigh an index.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { migrate, openDatabase } from '../../packages/server/src/store/database.js';
import { crawlSink } from '../../packages/server/src/modules/crawls/crawl-sink.js';
import { orderCrawlLinks } from '../../packages/server/src/modules/crawls/link-order.js';
import type { IssueRecord, PageRecord } from '../../packages/server/src/crawler/index.js';
import type { Services } from '../../packages/server/src/services.js';
import type { JobLease } from '../../packages/server/src/jobs/job-runner.js';
import type { Logger } from '../../packages/server/src/observability/logger.js';

const { values } = parseArgs({ options: { pages: { type: 'string', default: '20000' }, runs: { type: 'string', default: '3' }, links: { type: 'string', default: '21' }, pragma: { type: 'string', default: '' } } });
const pragmas = values.pragma.split(';').map((p) => p.trim()).filter(Boolean);
const pages = Number(values.pages);
const linksPerPage = Number(values.links);
const BATCH = Number(process.env.SINK_BATCH ?? 200);

/** CPU ms of this process's main thread (Linux, 10 ms ticks). */
function mainThreadCpuMs(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

const CHECKS: [string, IssueRecord['severity'], string, string][] = [
  ['http_page', 'error', 'security', 'served over http'],
  ['viewport_missing', 'warning', 'mobile', 'no meta viewport'],
  ['canonical_missing', 'info', 'indexability', 'no canonical link'],
  ['description_too_short', 'info', 'content', 'description of 24 characters (at least 70)'],
  ['og_missing', 'info', 'social', 'missing og:title, og:description, og:image'],
  ['title_too_short', 'info', 'content', 'title of 18 characters (at least 30)'],
];

const LINK_WORDS = ['lorem', 'ipsum', 'dolor', 'sit', 'amet', 'shop', 'offer'];

function page(i: number): PageRecord {
  return {
    url: `http://127.0.0.1:40123/p/${i}`,
    status_code: 200,
    error_type: null,
    content_type: 'text/html; charset=utf-8',
    is_internal: true,
    depth: 3 + (i % 5),
    title: `Dense page ${i}`,
    meta_description: `About page ${i}`,
    h1: `Page ${i}`,
    word_count: 250,
    canonical_url: null,
    redirect_url: null,
    response_time_ms: 12.5,
    size_bytes: 2210,
    internal_links: 21,
    external_links: 0,
    images: 1,
    images_without_alt: 0,
    resource_ids: [0],
    // 20 links to random pages and the next one, as densePageHtml writes them.
    links: [
      ...Array.from({ length: 20 }, (_, k) => ({ url: `http://127.0.0.1:40123/p/${(i * 7919 + k * 104729 + ((i * k) % 97) * 15485863) % pages}`, text: LINK_WORDS[(i + k) % LINK_WORDS.length], nofollow: false })),
      { url: `http://127.0.0.1:40123/p/${(i + 1) % pages}`, text: 'next', nofollow: false },
    ].slice(0, linksPerPage),
  } as unknown as PageRecord;
}

function issues(i: number): IssueRecord[] {
  return CHECKS.map(([name, severity, category, details]) => ({ name, severity, category, url: `http://127.0.0.1:40123/p/${i}`, details }) as unknown as IssueRecord);
}

async function once(run: number): Promise<Record<string, number>> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'siteaudit-sink-bench-'));
  const db = openDatabase(path.join(dir, 'sink.db'));
  try {
    await migrate(db);
    // No campaign or crawl rows: the pages' and issues' foreign keys are not what is measured.
    await db.knex.raw('PRAGMA foreign_keys = OFF');
    for (const pragma of pragmas) await db.knex.raw(`PRAGMA ${pragma}`);
    for (const sql of (process.env.SINK_SQL ?? '').split(';').filter(Boolean)) await db.knex.raw(sql);
    // Each write's wall time, for the longest hold of the connection while the links are ordered.
    let longestWriteMs = 0;
    const lease: JobLease = {
      async write(work) {
        const t0 = performance.now();
        try {
          return await db.knex.transaction(work);
        } finally {
          longestWriteMs = Math.max(longestWriteMs, performance.now() - t0);
        }
      },
      fence: async () => undefined,
    } as JobLease;
    const services = { knex: db.knex } as unknown as Services;
    const log = { warn() {}, info() {} } as unknown as Logger;
    const crawlId = `00000000-0000-4000-8000-${String(run).padStart(12, '0')}`;
    const sink = crawlSink({ services, lease, row: { id: crawlId } }, log, () => undefined);
    const cpu = process.cpuUsage();
    const main = mainThreadCpuMs();
    const started = performance.now();
    for (let start = 0; start < pages; start += BATCH) {
      const ids = Array.from({ length: Math.min(BATCH, pages - start) }, (_, k) => start + k);
      await sink.pages(ids.map(page));
      const rows = ids.flatMap(issues);
      for (let k = 0; k < rows.length; k += BATCH) await sink.issues(rows.slice(k, k + BATCH));
    }
    // The links still gathered in chunks, as the fetch stage writes them when the crawl ends.
    await sink.flushed();
    const wallMs = performance.now() - started;
    const used = process.cpuUsage(cpu);
    const mainMs = mainThreadCpuMs() - main;
    // What the settlement adds: the links found ordered by target (link-order.ts), a bucket a transaction.
    longestWriteMs = 0;
    const orderStarted = performance.now();
    const orderCpu = process.cpuUsage();
    await orderCrawlLinks({ services, lease, row: { id: crawlId } });
    const orderMs = performance.now() - orderStarted;
    const orderUsed = process.cpuUsage(orderCpu);
    const stored = await db.knex('crawl_issues').count({ n: '*' }).first();
    if (Number(stored?.n) !== pages * CHECKS.length) throw new Error(`stored ${stored?.n} issue rows, expected ${pages * CHECKS.length}`);
    const links = await db.knex('crawl_links').count({ n: '*' }).first();
    if (Number(links?.n) !== pages * linksPerPage) throw new Error(`stored ${links?.n} link rows, expected ${pages * linksPerPage}`);
    return {
      wall_us_per_page: Math.round((wallMs * 1000) / pages),
      process_us_per_page: Math.round((used.user + used.system) / pages),
      main_thread_us_per_page: Math.round((mainMs * 1000) / pages),
      order_links_us_per_page: Math.round((orderMs * 1000) / pages),
      order_links_process_us_per_page: Math.round((orderUsed.user + orderUsed.system) / pages),
      order_links_longest_bucket_ms: Math.round(longestWriteMs),
    };
  } finally {
    await db.knex.destroy();
    await rm(dir, { recursive: true, force: true });
  }
}

const results = [];
for (let run = 0; run < Number(values.runs); run++) results.push(await once(run));
process.stdout.write(`${JSON.stringify({ pages, pragmas, issues_per_page: CHECKS.length, load_average: os.loadavg().map((n) => Math.round(n * 100) / 100), results })}\n`);
