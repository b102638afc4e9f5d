/**
 * A crawl's links, ordered by target once the fetch is over (028-crawl-links-by-target.ts): the
 * fetch writes them in the order found to `crawl_links_found`, each into one of 64 buckets by its
 * target hash; here each bucket is moved to `crawl_links`, sorted by target, in a transaction of
 * its own, so the connection every request shares is held a bucket at a time, and a run
 * interrupted half-way moves the buckets left on its next run, never a row twice.
 */
import type { Knex } from 'knex';
import type { JobLease } from '../../jobs/job-runner.js';
import type { Services } from '../../services.js';
import { transaction } from '../../store/retry.js';

export const LINK_BUCKETS = 64;

/** Rows moved a transaction at most: about 60 ms of the connection on this machine (docs/benchmarks.md). */
const SLICE_ROWS = 10_000;

/** The bucket of a link by its target's hash (64 hex digits): its first 6 bits, so buckets follow the hash order. */
export function linkBucket(targetHash: string): number {
  return parseInt(targetHash.slice(0, 2), 16) >> 2;
}

const COLUMNS = 'crawl_id, target_hash, seq, source_seq, anchor_text, nofollow';

/** The 4-hex-digit prefix `k` of a hash, as a bound of a range of `target_hash`. */
const prefix = (k: number) => k.toString(16).padStart(4, '0');

/**
 * Moves the crawl's links found to the by-target table, bucket by bucket in hash order, a bucket
 * in slices of about `sliceRows` rows by range of target hash, so each slice is written after the
 * previous one in the table's order (the crawl's key range written from start to end, never a
 * page twice). A bucket's rows found are deleted once all its slices are moved; a run interrupted
 * before that moves the bucket again, the rows already moved kept as they are (the key conflict
 * is ignored). Stops between slices when `signal` aborts. Without a lease (a crawl settled
 * outside any run), each slice is a plain transaction.
 */
export async function orderCrawlLinks(
  crawl: { services: Services; row: { id: string }; lease?: JobLease },
  { signal, sliceRows = SLICE_ROWS }: { signal?: AbortSignal; sliceRows?: number } = {},
): Promise<void> {
  const { services, lease } = crawl;
  const crawlId = crawl.row.id;
  const write = <T>(work: (trx: Knex.Transaction) => Promise<T>) => (lease ? lease.write(work) : transaction(services.knex, work));
  for (let bucket = 0; bucket < LINK_BUCKETS; bucket++) {
    if (signal?.aborted) return;
    const [{ n }] = (await services.knex('crawl_links_found').where({ crawl_id: crawlId, bucket }).count({ n: '*' })) as { n: number | string }[];
    if (Number(n) === 0) continue;
    // A bucket covers 1,024 four-digit prefixes (its first 6 bits fixed): cut them evenly.
    const parts = Math.min(1024, Math.ceil(Number(n) / sliceRows));
    for (let part = 0; part < parts; part++) {
      if (signal?.aborted) return;
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
      await write((trx) =>
        trx.raw(
          `insert into crawl_links (${COLUMNS}) select ${COLUMNS} from crawl_links_found where crawl_id = ? and bucket = ?${terms.join('')} order by target_hash, seq on conflict do nothing`,
          bindings,
        ),
      );
    }
    await write((trx) => trx('crawl_links_found').where({ crawl_id: crawlId, bucket }).delete());
  }
}
