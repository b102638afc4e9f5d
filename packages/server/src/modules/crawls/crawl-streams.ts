/** A crawl's issues and pages streamed in keyset chunks, for the reports (no crawl held in memory). */
import type { Knex } from 'knex';
import type { CrawledPage, IssueOccurrence } from '@siteaudit/schema';
import { bool } from '../../store/database.js';

const CHUNK = 1000;

async function* chunks<T extends { seq: number }>(knex: Knex, table: 'crawl_issues' | 'crawl_pages', crawlId: string, order: string[]): AsyncIterable<T> {
  let after: T | null = null;
  for (;;) {
    const q = knex(table).where({ crawl_id: crawlId });
    if (after) {
      const last = after as unknown as Record<string, number>;
      if (order.length === 2) {
        const [a] = order;
        q.andWhere((w) => w.where(a, '>', last[a]).orWhere((w2) => w2.where(a, '=', last[a]).andWhere('seq', '>', last.seq)));
      } else q.andWhere('seq', '>', last.seq);
    }
    const rows = (await q.orderBy(order).limit(CHUNK)) as T[];
    for (const row of rows) yield row;
    if (rows.length < CHUNK) return;
    after = rows[rows.length - 1];
  }
}

/** The crawl's issue occurrences, errors first, in crawl order. */
export async function* crawlIssues(knex: Knex, crawlId: string): AsyncIterable<IssueOccurrence> {
  for await (const row of chunks<IssueOccurrence & { seq: number }>(knex, 'crawl_issues', crawlId, ['severity_rank', 'seq'])) {
    yield { name: row.name, severity: row.severity, category: row.category, url: row.url, details: row.details };
  }
}

/** The crawl's pages in crawl order, as the API answers them (with the stored redirect target). */
export async function* crawlPages(knex: Knex, crawlId: string): AsyncIterable<CrawledPage & { redirect_url?: string | null }> {
  for await (const row of chunks<CrawledPage & { seq: number }>(knex, 'crawl_pages', crawlId, ['seq'])) {
    const { seq, crawl_id, url_hash, ...page } = row as CrawledPage & { seq: number; crawl_id: string; url_hash: string };
    yield { ...page, is_internal: bool(page.is_internal) };
  }
}
