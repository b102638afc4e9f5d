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

/**
 * Moves the crawl's links found to the by-target table, bucket by bucket in hash order (so the
 * crawl's key range is written from start to end), a bucket in slices of at most `sliceRows` rows
 * in the order found; stops between slices when `signal` aborts. Without a lease (a crawl settled
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
    for (let more = true; more; ) {
      if (signal?.aborted) return;
      more = await write(async (trx) => {
        // The slice ends at its last row's seq; none: the rest of the bucket.
        const last = (await trx('crawl_links_found').where({ crawl_id: crawlId, bucket }).orderBy('seq').offset(sliceRows - 1).first('seq')) as { seq: number } | undefined;
        const upTo = last ? ' and seq <= ?' : '';
        const bindings = last ? [crawlId, bucket, last.seq] : [crawlId, bucket];
        await trx.raw(`insert into crawl_links (${COLUMNS}) select ${COLUMNS} from crawl_links_found where crawl_id = ? and bucket = ?${upTo} order by target_hash, seq`, bindings);
        await trx.raw(`delete from crawl_links_found where crawl_id = ? and bucket = ?${upTo}`, bindings);
        return last !== undefined;
      });
    }
  }
}
