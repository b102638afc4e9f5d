/**
 * The crawl sink's rows as stored (modules/crawls/crawl-sink.ts): on SQLite a chunk's rows go as
 * one JSON text unpacked by the INSERT, elsewhere bound value by value; either way the stored
 * values are those of binding each one (a lone surrogate as U+FFFD, booleans as 1 and 0, nulls,
 * floats, text that looks like a number), and batches written together (`writeMany`) are stored
 * as if written one after the other.
 */
import type { Knex } from 'knex';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { crawlSink } from '../../src/modules/crawls/crawl-sink.js';
import { linkBucket, unpackLink } from '../../src/modules/crawls/link-order.js';
import type { IssueRecord, PageRecord } from '../../src/crawler/index.js';
import type { Services } from '../../src/services.js';
import type { JobLease } from '../../src/jobs/job-runner.js';
import type { Logger } from '../../src/observability/logger.js';
import { migrate, openDatabase } from '../../src/store/database.js';
import { onPostgres, sharedDatabase } from '../../../../tests/support/harness.js';

let knex: Knex;
let drop: () => Promise<void>;

beforeEach(async () => {
  ({ knex, drop } = await sharedDatabase());
  await migrate(openDatabase(knex));
});

afterEach(async () => {
  await drop();
});

const CRAWL = '00000000-0000-4000-8000-000000000001';

function page(url: string, fields: Partial<PageRecord>): PageRecord {
  return {
    url,
    status_code: 200,
    error_type: null,
    content_type: 'text/html',
    is_internal: true,
    depth: 1,
    title: 'T',
    meta_description: null,
    h1: null,
    word_count: 10,
    canonical_url: null,
    redirect_url: null,
    response_time_ms: 12.5,
    size_bytes: 2048,
    internal_links: 0,
    external_links: 0,
    images: 0,
    images_without_alt: 0,
    ...fields,
  } as PageRecord;
}

const issue = (url: string, details: string): IssueRecord => ({ name: 'title_too_short', severity: 'info', category: 'content', url, details }) as IssueRecord;

// On PostgreSQL the rows are bound as before (the VALUES form), and a crawl row would be needed for the foreign keys.
it.skipIf(onPostgres)('stores the values as bound, batches written together as one after the other', async () => {
  await knex.raw('PRAGMA foreign_keys = OFF');
  const lease = { write: (work) => knex.transaction(work), fence: async () => undefined } as JobLease;
  const log = { warn() {}, info() {} } as unknown as Logger;
  const sink = crawlSink({ services: { knex } as unknown as Services, lease, row: { id: CRAWL } }, log, () => undefined);
  const a = 'http://site.test/a';
  const b = 'http://site.test/b';
  await sink.pages([
    page(a, {
      title: 'é 漢字 😀 "quoted" \\ back\nline',
      meta_description: '123',
      h1: 'lone \ud800 surrogate',
      depth: null,
      response_time_ms: 0.1,
      size_bytes: 3_000_000_000,
      links: [
        { url: b, text: 'to b \ud800 \u0000', nofollow: true },
        { url: a, text: '', nofollow: false },
      ],
    }),
  ]);
  await sink.writeMany([
    { method: 'pages', batch: [page(b, { title: null, word_count: 0, links: [{ url: a, text: 'back', nofollow: false }] })] },
    { method: 'issues', batch: [issue(a, "it's 12"), issue(b, 'x\u0000y')] },
    { method: 'pages', batch: [page(a, { title: 'again' })] },
  ]);

  const pages = await knex('crawl_pages').where({ crawl_id: CRAWL }).orderBy('seq');
  expect(pages.map((p) => [p.seq, p.url, p.title, p.meta_description, p.h1, p.depth, p.response_time_ms, p.size_bytes, p.word_count])).toEqual([
    [0, a, 'é 漢字 😀 "quoted" \\ back\nline', '123', 'lone \ufffd surrogate', null, 0.1, 3_000_000_000, 10],
    [1, b, null, null, null, 1, 12.5, 2048, 0],
    // One URL is stored once: the third page's row (seq 2) is not.
  ]);
  // Links are gathered by bucket of target and kept in chunks, in the order found (link-order.ts),
  // the last ones when the fetch ends; a lone surrogate and a NUL in an anchor as U+FFFD.
  const chunked = async () => (await knex('crawl_link_chunks').where({ crawl_id: CRAWL }).orderBy('seq')) as { bucket: number; seq: number; n: number; links: string }[];
  expect(await chunked()).toEqual([]);
  await sink.flushed();
  const chunks = await chunked();
  const links = chunks
    .flatMap((c) => (JSON.parse(c.links) as string[]).map((l) => ({ bucket: Number(c.bucket), ...unpackLink(l) })))
    .sort((x, y) => x.seq - y.seq);
  expect(links.map((l) => [l.seq, l.source_seq, l.anchor_text, l.nofollow])).toEqual([
    [0, 0, 'to b \ufffd \ufffd', true],
    [1, 0, '', false],
    [2, 1, 'back', false],
  ]);
  expect(links[0].target_hash).toBe(pages[1].url_hash);
  expect(links[2].target_hash).toBe(pages[0].url_hash);
  expect(links.map((l) => l.bucket)).toEqual(links.map((l) => linkBucket(l.target_hash)));
  for (const c of chunks) expect([Number(c.n), Number(c.seq)]).toEqual([JSON.parse(c.links).length, unpackLink(JSON.parse(c.links)[0]).seq]);
  const issues = await knex('crawl_issues').where({ crawl_id: CRAWL }).orderBy('seq');
  expect(issues.map((i) => [i.seq, i.url_hash, i.details, i.severity_rank])).toEqual([
    [0, pages[0].url_hash, "it's 12", issues[0].severity_rank],
    [1, pages[1].url_hash, 'x\u0000y', issues[0].severity_rank],
  ]);
  expect(typeof issues[0].severity_rank).toBe('number');
});

it('writes a bucket’s links as a chunk once it gathers 128, the rest when the fetch ends, on both databases', async () => {
  const lease = {
    write: (work: (trx: Knex.Transaction) => Promise<unknown>) =>
      onPostgres
        ? knex.transaction(async (trx) => {
            await trx.raw('set local session_replication_role = replica');
            return work(trx);
          })
        : knex.raw('PRAGMA foreign_keys = OFF').then(() => knex.transaction(work)),
    fence: async () => undefined,
  } as unknown as JobLease;
  const log = { warn() {}, info() {} } as unknown as Logger;
  const sink = crawlSink({ services: { knex } as unknown as Services, lease, row: { id: CRAWL } }, log, () => undefined);
  // 130 links to one target (one bucket), from two pages.
  const target = 'http://site.test/target';
  const linking = (i: number) => page(`http://site.test/p/${i}`, { links: Array.from({ length: 65 }, (_, k) => ({ url: target, text: `t${i}-${k}`, nofollow: false })) });
  await sink.pages([linking(0)]);
  await sink.pages([linking(1)]);
  const chunks = async () => ((await knex('crawl_link_chunks').where({ crawl_id: CRAWL }).orderBy('seq')) as { n: number; seq: number; links: string }[]).map((c) => [Number(c.seq), Number(c.n)]);
  expect(await chunks()).toEqual([[0, 128]]);
  await sink.flushed();
  expect(await chunks()).toEqual([[0, 128], [128, 2]]);
  const all = ((await knex('crawl_link_chunks').where({ crawl_id: CRAWL }).orderBy('seq')) as { links: string }[]).flatMap((c) => (JSON.parse(c.links) as string[]).map(unpackLink));
  expect(all.map((l) => [l.seq, l.source_seq, l.anchor_text])).toEqual(Array.from({ length: 130 }, (_, s) => [s, s < 65 ? 0 : 1, `t${s < 65 ? 0 : 1}-${s % 65}`]));
  // Written once: a second flush writes nothing more.
  await sink.flushed();
  expect((await chunks()).length).toBe(2);
});
