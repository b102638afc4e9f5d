/**
 * A crawl's links, ordered by target once the fetch is over (028-crawl-links-by-target.ts,
 * 030-crawl-link-chunks.ts): the fetch keeps them in the order found in `crawl_link_chunks`, a row
 * a write and bucket of target hash (64 buckets); here each bucket's chunks are unpacked by the
 * store and moved to `crawl_links`, sorted by target, in transactions of their own, so the
 * connection every request shares is held a slice at a time, and a run interrupted half-way moves
 * the buckets left on its next run, never a row twice.
 */
import type { Knex } from 'knex';
import type { JobLease } from '../../jobs/job-runner.js';
import type { Services } from '../../services.js';
import { isPostgres } from '../../store/database.js';
import { transaction } from '../../store/retry.js';

export const LINK_BUCKETS = 64;

/** A link found: its `seq`, target hash and packed form (`packLink`). */
export interface FoundLink {
  seq: number;
  target: string;
  packed: string;
}

/** Rows moved a transaction at most: about 60 ms of the connection on this machine (docs/benchmarks.md). */
const SLICE_ROWS = 10_000;

/** The bucket of a link by its target's hash (64 hex digits): its first 6 bits, so buckets follow the hash order. */
export function linkBucket(targetHash: string): number {
  return parseInt(targetHash.slice(0, 2), 16) >> 2;
}

/**
 * A link as a chunk holds it: one string, fixed-width fields first, so the store cuts it with
 * `substr` instead of parsing a JSON array per link (that took twice as long at settlement):
 * the target hash (64 hex digits), its `seq` and its source page's `seq` (10 digits each),
 * nofollow (`0` or `1`), then the anchor text. A crawl's link and page seqs stay far under 10
 * digits (at most 1,000 internal links a page).
 */
export function packLink(seq: number, targetHash: string, sourceSeq: number, nofollow: boolean, anchorText: string): string {
  return `${targetHash}${String(seq).padStart(10, '0')}${String(sourceSeq).padStart(10, '0')}${nofollow ? 1 : 0}${anchorText}`;
}

/** A packed link's fields (`packLink`). */
export function unpackLink(link: string): { target_hash: string; seq: number; source_seq: number; nofollow: boolean; anchor_text: string } {
  return { target_hash: link.slice(0, 64), seq: Number(link.slice(64, 74)), source_seq: Number(link.slice(74, 84)), nofollow: link[84] === '1', anchor_text: link.slice(85) };
}

/**
 * A bucket's links unpacked from its chunks, as `crawl_links` rows (`?` the crawl, then the
 * bucket, then what `more` binds): the store reads the JSON array of packed links itself, no link
 * passing through JavaScript.
 */
const FIELDS = (value: string, integer: (sql: string) => string) =>
  `substr(${value}, 1, 64) as target_hash, ${integer(`substr(${value}, 65, 10)`)} as seq, ${integer(`substr(${value}, 75, 10)`)} as source_seq, substr(${value}, 86) as anchor_text, substr(${value}, 85, 1) = '1' as nofollow`;
const UNPACKED = {
  sqlite: (more = '') => `select c.crawl_id, ${FIELDS('l.value', (v) => `cast(${v} as integer)`)} from crawl_link_chunks c, json_each(c.links) l where c.crawl_id = ? and c.bucket = ?${more}`,
  postgres: (more = '') =>
    `select c.crawl_id, ${FIELDS('l.value', (v) => `${v}::integer`)} from crawl_link_chunks c cross join lateral json_array_elements_text(c.links::json) as l(value) where c.crawl_id = ? and c.bucket = ?${more}`,
};
const COLUMNS = 'crawl_id, target_hash, seq, source_seq, anchor_text, nofollow';

/** The 4-hex-digit prefix `k` of a hash, as a bound of a range of `target_hash`. */
const prefix = (k: number) => k.toString(16).padStart(4, '0');

/**
 * Moves the crawl's links found to the by-target table, bucket by bucket in hash order, each
 * bucket's rows written in the table's order (the crawl's key range written from start to end,
 * never a page twice). A bucket's chunks are deleted in the transaction of its last rows; a run
 * interrupted before that moves the bucket again, the rows already moved kept as they are (the key
 * conflict is ignored). Stops between transactions when `signal` aborts. Without a lease (a crawl
 * settled outside any run), each is a plain transaction.
 *
 * On SQLite, whose one writing connection every request shares, a bucket of more than `sliceRows`
 * links is moved in slices of about `sliceRows`, a range of target hash each, so a statement holds
 * the connection tens of milliseconds. Each slice unpacks the bucket's chunks to find its range:
 * cheap up to `unpackOnceAbove` slices (a bucket of 80,000 links, a site of about 250,000 pages
 * of 21 links), beyond which that work grows with the square of the bucket's size; such a bucket
 * is unpacked once, `sliceRows` links at a time, into a table of the connection's temporary
 * database kept in key order, then moved from it in slices (at 200,000 pages the first way takes
 * 109 µs a page, the second 161; at a million, about 270 s against 160, by the same figures). On
 * PostgreSQL, where writers do not wait on one another, a bucket is one statement.
 */
export async function orderCrawlLinks(
  crawl: { services: Services; row: { id: string }; lease?: JobLease },
  { signal, sliceRows = SLICE_ROWS, unpackOnceAbove = 8 }: { signal?: AbortSignal; sliceRows?: number; unpackOnceAbove?: number } = {},
): Promise<void> {
  const { services, lease } = crawl;
  const { knex } = services;
  const crawlId = crawl.row.id;
  const write = <T>(work: (trx: Knex.Transaction) => Promise<T>) => (lease ? lease.write(work) : transaction(knex, work));
  const postgres = isPostgres(knex);
  const deleteChunks = (trx: Knex.Transaction, bucket: number) => trx('crawl_link_chunks').where({ crawl_id: crawlId, bucket }).delete();
  // The crawl's own: two crawls may settle at once on the one connection.
  const sorted = `temp.link_order_${crawlId.replace(/[^0-9a-f]/gi, '')}`;
  let made = false;
  try {
    for (let bucket = 0; bucket < LINK_BUCKETS; bucket++) {
      if (signal?.aborted) return;
      const chunks = (await knex('crawl_link_chunks').where({ crawl_id: crawlId, bucket }).orderBy('seq').select('seq', 'n')) as { seq: number; n: number }[];
      const links = chunks.reduce((sum, c) => sum + Number(c.n), 0);
      if (links === 0) continue;
      if (postgres || links <= sliceRows) {
        await write(async (trx) => {
          await trx.raw(`insert into crawl_links (${COLUMNS}) select ${COLUMNS} from (${postgres ? UNPACKED.postgres() : UNPACKED.sqlite()}) l order by target_hash, seq on conflict do nothing`, [crawlId, bucket]);
          await deleteChunks(trx, bucket);
        });
        continue;
      }
      const parts = Math.ceil(links / sliceRows);
      if (parts <= unpackOnceAbove) {
        for (let part = 0; part < parts; part++) {
          if (signal?.aborted) return;
          // A bucket covers 1,024 four-digit prefixes (its first 6 bits fixed): cut them evenly.
          const terms: string[] = [];
          const bindings: (string | number)[] = [crawlId, bucket];
          if (part > 0) {
            terms.push(' and target_hash >= ?');
            bindings.push(prefix(bucket * 1024 + Math.floor((part * 1024) / parts)));
          }
          if (part < parts - 1) {
            terms.push(' and target_hash < ?');
            bindings.push(prefix(bucket * 1024 + Math.floor(((part + 1) * 1024) / parts)));
          }
          await write(async (trx) => {
            await trx.raw(`insert into crawl_links (${COLUMNS}) select ${COLUMNS} from (${UNPACKED.sqlite()}) l where true${terms.join('')} order by target_hash, seq on conflict do nothing`, bindings);
            if (part === parts - 1) await deleteChunks(trx, bucket);
          });
        }
        continue;
      }
      // Unpacked a piece of its chunks at a time into the connection's temporary table, kept in key order.
      if (!made) await knex.raw(`create table if not exists ${sorted} (${COLUMNS}, primary key (target_hash, seq)) without rowid`);
      made = true;
      await knex.raw(`delete from ${sorted}`);
      for (let first = 0; first < chunks.length; ) {
        let end = first;
        let count = 0;
        while (end < chunks.length && (end === first || count + Number(chunks[end].n) <= sliceRows)) count += Number(chunks[end++].n);
        const to = end < chunks.length ? [' and c.seq < ?', chunks[end].seq] : null;
        await knex.raw(`insert into ${sorted} (${COLUMNS}) select ${COLUMNS} from (${UNPACKED.sqlite(` and c.seq >= ?${to ? to[0] : ''}`)}) l where true on conflict do nothing`, [
          crawlId,
          bucket,
          chunks[first].seq,
          ...(to ? [to[1]] : []),
        ]);
        first = end;
      }
      // Moved in slices of `sliceRows`, by key: each from after the last key of the one before.
      let after: { target_hash: string; seq: number } | null = null;
      for (;;) {
        if (signal?.aborted) return;
        const from = after ? ' where (target_hash, seq) > (?, ?)' : '';
        const fromBindings = after ? [after.target_hash, after.seq] : [];
        const [last] = (await knex.raw(`select target_hash, seq from ${sorted}${from} order by target_hash, seq limit 1 offset ?`, [...fromBindings, sliceRows - 1])) as { target_hash: string; seq: number }[];
        const upTo = last ? `${from ? ' and' : ' where'} (target_hash, seq) <= (?, ?)` : '';
        await write(async (trx) => {
          await trx.raw(`insert into crawl_links (${COLUMNS}) select ${COLUMNS} from ${sorted}${from}${upTo} order by target_hash, seq on conflict do nothing`, [
            ...fromBindings,
            ...(last ? [last.target_hash, last.seq] : []),
          ]);
          if (!last) await deleteChunks(trx, bucket);
        });
        if (!last) break;
        after = last;
      }
    }
  } finally {
    if (made) await knex.raw(`drop table if exists ${sorted}`);
  }
}
