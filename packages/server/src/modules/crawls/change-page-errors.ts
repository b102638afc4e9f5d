/**
 * The pages of a crawl's changes that have no status code, read for the workbook (exports): the
 * crawls module owns crawl_pages, so the read lives here.
 */
import type { Knex } from 'knex';
import type { ChangeRow } from './change-list.js';

/** Page changes without a status in one crawl or the other: their pages' `error_type`s are read. */
const STATUSLESS = 500;

/**
 * For the page changes of `rows` without a status code, the page's `error_type` in each crawl
 * (blocked by robots.txt, a timeout…), by `kind_rank:seq`. Added and changed pages are this
 * crawl's (their `seq`), matched in the previous one on `url_hash`; removed ones the previous
 * crawl's. Read for the workbook only: the API's changes carry the status codes.
 */
export async function pageErrors(knex: Knex, crawlId: string, previousId: string | null, rows: ChangeRow[]): Promise<Map<string, { error: string | null; previous: string | null }>> {
  const out = new Map<string, { error: string | null; previous: string | null }>();
  const here = rows.filter((r) => (r.kind === 'page_added' || r.kind === 'status_changed' || r.kind === 'redirect_changed') && (r.status_code === null || r.previous_status_code === null));
  const gone = rows.filter((r) => r.kind === 'page_removed' && r.previous_status_code === null);
  for (let i = 0; i < here.length; i += STATUSLESS) {
    const part = here.slice(i, i + STATUSLESS);
    const q = knex('crawl_pages as c').where('c.crawl_id', crawlId).whereIn('c.seq', part.map((r) => r.seq));
    if (previousId) q.leftJoin('crawl_pages as p', (j) => j.on('p.url_hash', 'c.url_hash').andOnVal('p.crawl_id', previousId));
    const found = (await q.select('c.seq', 'c.error_type', previousId ? 'p.error_type as previous_error_type' : knex.raw('null as previous_error_type'))) as { seq: number; error_type: string | null; previous_error_type: string | null }[];
    const bySeq = new Map(found.map((f) => [Number(f.seq), f]));
    for (const r of part) {
      const f = bySeq.get(Number(r.seq));
      if (f) out.set(`${r.kind_rank}:${r.seq}`, { error: f.error_type, previous: f.previous_error_type });
    }
  }
  for (let i = 0; previousId && i < gone.length; i += STATUSLESS) {
    const part = gone.slice(i, i + STATUSLESS);
    const found = (await knex('crawl_pages').where('crawl_id', previousId).whereIn('seq', part.map((r) => r.seq)).select('seq', 'error_type')) as { seq: number; error_type: string | null }[];
    const bySeq = new Map(found.map((f) => [Number(f.seq), f.error_type]));
    for (const r of part) out.set(`${r.kind_rank}:${r.seq}`, { error: null, previous: bySeq.get(Number(r.seq)) ?? null });
  }
  return out;
}
