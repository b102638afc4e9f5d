/**
 * A crawl's links ordered by target at settlement (modules/crawls/link-order.ts): every link
 * found (kept in chunks by bucket, unpacked by the store) ends in `crawl_links` once, none left
 * behind, with its values as found, in slices (ranges of target hash) that a run interrupted
 * between any two of them completes on its next run without a row lost or doubled. On both
 * databases.
 */
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { LINK_BUCKETS, linkBucket, orderCrawlLinks, packLink, unpackLink } from '../../src/modules/crawls/link-order.js';
import type { JobLease } from '../../src/jobs/job-runner.js';
import type { Services } from '../../src/services.js';
import { migrate, openDatabase } from '../../src/store/database.js';
import { migrationSource } from '../../src/store/migrations/index.js';
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
const OTHER = '00000000-0000-4000-8000-000000000002';

/** A transaction with the foreign keys off: the links' crawl rows are not what is tested. */
async function unchecked<T>(work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  if (onPostgres) return knex.transaction(async (trx) => {
    await trx.raw('set local session_replication_role = replica');
    return work(trx);
  });
  await knex.raw('PRAGMA foreign_keys = OFF');
  return knex.transaction(work);
}

type Link = { crawl_id: string; seq: number; target_hash: string; source_seq: number; anchor_text: string; nofollow: boolean };

/** `count` links of one crawl to 37 targets, in the order found (seq), as the sink writes them. */
function linksOf(crawlId: string, count: number): Link[] {
  return Array.from({ length: count }, (_, seq) => ({
    crawl_id: crawlId,
    seq,
    target_hash: createHash('sha256').update(`https://site.test/p/${(seq * 7) % 37}`).digest('hex'),
    source_seq: Math.floor(seq / 5),
    // Quotes, backslashes, non-Latin text and an empty anchor survive the chunk's JSON.
    anchor_text: seq % 13 === 0 ? '' : seq % 17 === 0 ? `« lien » "${seq}" \\ 漢字 😀` : `link ${seq}`,
    nofollow: seq % 11 === 0,
  }));
}

/** The links as the sink keeps them: writes of 50 links, each a chunk row per bucket. */
async function write(links: Link[]): Promise<void> {
  await unchecked(async (trx) => {
    for (let i = 0; i < links.length; i += 50) {
      const byBucket = new Map<number, Link[]>();
      for (const l of links.slice(i, i + 50)) {
        const bucket = linkBucket(l.target_hash);
        byBucket.set(bucket, [...(byBucket.get(bucket) ?? []), l]);
      }
      for (const [bucket, entries] of byBucket) {
        const packed = entries.map((l) => packLink(l.seq, l.target_hash, l.source_seq, l.nofollow, l.anchor_text));
        await trx('crawl_link_chunks').insert({ crawl_id: links[i].crawl_id, bucket, seq: entries[0].seq, n: entries.length, links: JSON.stringify(packed) });
      }
    }
  });
}

/** The links still in chunks: their seqs. */
const found = async (crawlId: string) =>
  ((await knex('crawl_link_chunks').where({ crawl_id: crawlId }).select('links')) as { links: string }[]).flatMap((c) => (JSON.parse(c.links) as string[]).map((l) => unpackLink(l).seq));

const ordered = async (crawlId: string) =>
  ((await knex('crawl_links').where({ crawl_id: crawlId }).orderBy([{ column: 'target_hash' }, { column: 'seq' }])) as Link[]).map((l) => ({ ...l, nofollow: Boolean(l.nofollow) }));

const expected = (links: Link[]) => [...links].sort((a, b) => (a.target_hash < b.target_hash ? -1 : a.target_hash > b.target_hash ? 1 : a.seq - b.seq));

it('packs a link into one string and reads it back, whatever its anchor text', () => {
  const hash = createHash('sha256').update('x').digest('hex');
  for (const anchor of ['', 'link', '« lien » "q" \\ 漢字 😀', '0'.repeat(300)]) {
    for (const [seq, source, nofollow] of [[0, 0, false], [4_000_000_000, 123, true]] as const) {
      expect(unpackLink(packLink(seq, hash, source, nofollow, anchor))).toEqual({ target_hash: hash, seq, source_seq: source, nofollow, anchor_text: anchor });
    }
  }
});

it('buckets a link by the first 6 bits of its target hash, in hash order', () => {
  expect(linkBucket('00'.padEnd(64, 'f'))).toBe(0);
  expect(linkBucket('03'.padEnd(64, 'f'))).toBe(0);
  expect(linkBucket('04'.padEnd(64, '0'))).toBe(1);
  expect(linkBucket('ff'.padEnd(64, '0'))).toBe(LINK_BUCKETS - 1);
});

it('moves every link found to the by-target table once, and only the crawl’s own', async () => {
  const mine = linksOf(CRAWL, 700);
  const theirs = linksOf(OTHER, 50);
  await write([...mine, ...theirs]);
  let writes = 0;
  const lease = { write: (work: (trx: Knex.Transaction) => Promise<unknown>) => (writes++, unchecked(work)), fence: async () => undefined } as unknown as JobLease;
  await orderCrawlLinks({ services: { knex } as unknown as Services, row: { id: CRAWL }, lease }, { sliceRows: 9 });

  expect(await ordered(CRAWL)).toEqual(expected(mine));
  expect(await found(CRAWL)).toEqual([]);
  // Another crawl's links found stay where they are.
  expect(await ordered(OTHER)).toEqual([]);
  expect((await found(OTHER)).length).toBe(50);
  // Slices of at most 9 rows: more writes than buckets holding links.
  const buckets = new Set(mine.map((l) => linkBucket(l.target_hash))).size;
  // On SQLite a bucket of more than 9 links moves 9 at a time (the last slice with the chunks'
  // deletion); on PostgreSQL a bucket is one statement.
  if (onPostgres) expect(writes).toBe(buckets);
  else expect(writes).toBeGreaterThan(2 * buckets);
});

it('completes on the next run what a run interrupted between slices left, without a row lost or doubled', async () => {
  const mine = linksOf(CRAWL, 400);
  await write(mine);
  const services = { knex } as unknown as Services;
  for (const stopAfter of [1, 5, 17]) {
    const stop = new AbortController();
    let writes = 0;
    const lease = {
      write: async (work: (trx: Knex.Transaction) => Promise<unknown>) => {
        const result = await unchecked(work);
        if (++writes === stopAfter) stop.abort();
        return result;
      },
      fence: async () => undefined,
    } as unknown as JobLease;
    // Each bucket unpacked once into the connection's temporary table (SQLite), as a large one is.
    await orderCrawlLinks({ services, row: { id: CRAWL }, lease }, { signal: stop.signal, sliceRows: 7, unpackOnceAbove: 0 });
    expect(writes).toBe(stopAfter);
    // Every link is moved or still found (a bucket's rows found go once all of it is moved), none twice.
    const moved = await ordered(CRAWL);
    const left = await found(CRAWL);
    expect(new Set(moved.map((l) => l.seq)).size).toBe(moved.length);
    expect(new Set([...moved.map((l) => l.seq), ...left]).size).toBe(mine.length);
    const expectedBySeq = new Map(mine.map((l) => [l.seq, l]));
    for (const l of moved) expect(l).toEqual(expectedBySeq.get(l.seq));
  }
  // A run without a lease (a crawl settled outside any run) finishes the rest.
  await orderCrawlLinks({ services, row: { id: CRAWL }, lease: { write: unchecked, fence: async () => undefined } as unknown as JobLease }, { sliceRows: 7 });
  expect(await ordered(CRAWL)).toEqual(expected(mine));
});

it('orders two crawls settling at once on the same connection, each its own', async () => {
  const mine = linksOf(CRAWL, 600);
  const theirs = linksOf(OTHER, 500).map((l) => ({ ...l, anchor_text: `other ${l.seq}` }));
  await write([...mine, ...theirs]);
  const services = { knex } as unknown as Services;
  const lease = { write: unchecked, fence: async () => undefined } as unknown as JobLease;
  await Promise.all([
    orderCrawlLinks({ services, row: { id: CRAWL }, lease }, { sliceRows: 5, unpackOnceAbove: 0 }),
    orderCrawlLinks({ services, row: { id: OTHER }, lease }, { sliceRows: 3, unpackOnceAbove: 0 }),
  ]);
  expect(await ordered(CRAWL)).toEqual(expected(mine));
  expect(await ordered(OTHER)).toEqual(expected(theirs));
  expect([await found(CRAWL), await found(OTHER)]).toEqual([[], []]);
});

/** The rows a crawl's row needs (team, project, campaign): where the foreign keys are enforced. */
async function crawlRow(id: string): Promise<void> {
  const at = '2026-01-01T00:00:00.000Z';
  const [team, project, campaign] = ['00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-0000000000a2', '00000000-0000-4000-8000-0000000000a3'];
  await knex('teams').insert({ id: team, slug: 'links', name: 'Links', plan: 'agency', created_at: at });
  await knex('projects').insert({ id: project, team_id: team, name: 'Links', slug: 'links', url: 'https://links.test/', domain: 'links.test', created_at: at });
  await knex('campaigns').insert({ id: campaign, team_id: team, project_id: project, name: 'Links', start_url: 'https://links.test/', max_depth: 5, max_urls: 1000, created_at: at });
  await knex('crawls').insert({
    id, team_id: team, project_id: project, campaign_id: campaign, status: 'running', stage: 'fetch', active: true, stage_plan: '{}',
    pages_budget: 1000, trigger: 'manual', config: '{}', config_hash: 'x', created_at: at,
  });
}

// The crawl's row is there: the migration's own connection enforces the foreign keys (PostgreSQL).
it('carries the links found of a crawl being fetched across migration 030, and back', async () => {
  const options = { migrationSource, tableName: 'siteaudit_migrations' };
  await knex.migrate.down({ ...options, name: '030-crawl-link-chunks' });
  await crawlRow(CRAWL);
  const mine = linksOf(CRAWL, 300);
  await unchecked(async (trx) => {
    for (let i = 0; i < mine.length; i += 100) await trx('crawl_links_found').insert(mine.slice(i, i + 100).map((l) => ({ ...l, bucket: parseInt(l.target_hash.slice(0, 2), 16) >> 2 })));
  });
  await knex.migrate.latest(options);
  expect((await found(CRAWL)).sort((a, b) => a - b)).toEqual(mine.map((l) => l.seq));
  // And back: the rows found as migration 028 keyed them.
  await knex.migrate.down({ ...options, name: '030-crawl-link-chunks' });
  const back = (await knex('crawl_links_found').where({ crawl_id: CRAWL }).orderBy('seq')) as (Link & { bucket: number })[];
  expect(back.map((l) => ({ ...l, nofollow: Boolean(l.nofollow) }))).toEqual(mine.map((l) => ({ ...l, bucket: parseInt(l.target_hash.slice(0, 2), 16) >> 2 })));
  await knex.migrate.latest(options);
  await orderCrawlLinks({ services: { knex } as unknown as Services, row: { id: CRAWL }, lease: { write: unchecked, fence: async () => undefined } as unknown as JobLease });
  expect(await ordered(CRAWL)).toEqual(expected(mine));
});
