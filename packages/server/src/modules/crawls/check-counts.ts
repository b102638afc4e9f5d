/**
 * A crawl's counts per check and its scored pages: what the scores (the crawl's, the scorecard's
 * pillars), the comparison and the fix list are computed from. A settled crawl reads them from
 * its stored summary (`crawl_summaries`, written once when it settles); a crawl still running, or
 * settled before summaries were stored, counts its issues.
 */
import type { Knex } from 'knex';
import { isPostgres } from '../../store/database.js';
import type { TemplatePattern } from '@siteaudit/schema';
import type { RangedDetails, ScoredPages } from '@siteaudit/schema/rules';

type Db = Knex | Knex.Transaction;

export interface CheckCount {
  name: string;
  severity: 'error' | 'warning' | 'info';
  category: string;
  /** Distinct URLs. */
  pages: number;
  occurrences: number;
}

/** A template decision as a settled crawl keeps it: its cause's details and count ranges, worded in the reader's language when read. */
export type StoredTemplate = Omit<TemplatePattern, 'details'> & { cause: RangedDetails };

/**
 * What a settled crawl keeps of its issues (migration 036), in no language: its counts per check,
 * its scored pages and each check's template decisions. Its issues no longer change once it has
 * been compared (the last step that adds any, PageSpeed's, comes before), so these stay true.
 */
export interface StoredSummary {
  version: 1;
  scored: ScoredPages;
  checks: CheckCount[];
  templates: Record<string, StoredTemplate[]>;
}

/** The crawl's stored summary, or null (a crawl not settled yet, or settled before summaries were stored). */
export async function storedSummary(knex: Db, crawlId: string): Promise<StoredSummary | null> {
  const row = (await knex('crawl_summaries').where({ crawl_id: crawlId }).first('summary')) as { summary: string } | undefined;
  if (!row) return null;
  const parsed = JSON.parse(row.summary) as StoredSummary;
  return parsed.version === 1 ? parsed : null;
}

/** Stores a crawl's summary, in the write that settles its comparison (`trx`). */
export async function storeSummary(trx: Knex.Transaction, crawlId: string, summary: StoredSummary): Promise<void> {
  await trx('crawl_summaries').insert({ crawl_id: crawlId, summary: JSON.stringify(summary) }).onConflict('crawl_id').merge();
}

/** Pages and occurrences per check of a crawl: from its stored summary, else counted (`countChecks`). */
export async function checkCounts(knex: Db, crawlId: string): Promise<CheckCount[]> {
  return (await storedSummary(knex, crawlId))?.checks ?? (await countChecks(knex, crawlId));
}

/**
 * Pages (distinct URLs) and occurrences per check (and severity and category) of a crawl, in no
 * set order, counted from its issues: what the scores, the comparison, the fix list and the issue
 * summary start from.
 * On PostgreSQL one grouped read. On SQLite, whose one connection every request waits for, one
 * read per check the crawl has, on the by-check index (migration 029): the same rows in all,
 * but a 200,000-page crawl's million issue rows held the connection 2.8 s in one statement (every
 * other request waiting behind it), and about 0.6 s at most a check (docs/benchmarks.md).
 */
export async function countChecks(knex: Db, crawlId: string): Promise<CheckCount[]> {
  type Row = { name: string; severity: CheckCount['severity']; category: string; pages: string | number; occurrences: string | number };
  const grouped = (q: Knex.QueryBuilder) => q.select('name', 'severity', 'category').count({ occurrences: '*' }).countDistinct({ pages: 'url_hash' }).groupBy('name', 'severity', 'category');
  let rows: Row[];
  if (isPostgres(knex)) rows = (await grouped(knex('crawl_issues').where({ crawl_id: crawlId }))) as Row[];
  else {
    rows = [];
    // The crawl's check names one after the other, each found by a seek on the index (not a scan).
    for (let after = ''; ; ) {
      const next = (await knex('crawl_issues').where({ crawl_id: crawlId }).andWhere('name', '>', after).orderBy('name').first('name')) as { name: string } | undefined;
      if (!next) break;
      rows.push(...((await grouped(knex('crawl_issues').where({ crawl_id: crawlId, name: next.name }))) as Row[]));
      after = next.name;
    }
  }
  return rows.map((c) => ({ name: c.name, severity: c.severity, category: c.category, pages: Number(c.pages), occurrences: Number(c.occurrences) }));
}

/**
 * A crawl's scored pages, the crawler's denominators (docs/health-score.md): every internal URL
 * recorded (issues such as http_4xx sit on non-2xx URLs), challenge pages aside (never scored),
 * and of them the HTML pages answering 2xx, which the page checks judge.
 */
export async function scoredPages(knex: Db, crawlId: string): Promise<ScoredPages> {
  // One pass over the crawl's pages for both counts (a million rows on a large crawl, read by the
  // scorecard and the fix list): the HTML condition is htmlPagesOf's.
  const [row] = (await knex('crawl_pages')
    .where({ crawl_id: crawlId, is_internal: true })
    .andWhere((q) => q.whereNull('error_type').orWhereNot('error_type', 'protection'))
    .select(
      knex.raw('count(*) as pages'),
      knex.raw("coalesce(sum(case when error_type is null and status_code >= 200 and status_code < 300 and lower(content_type) like '%html%' and redirect_url is null then 1 else 0 end), 0) as html"),
    )) as { pages: string | number; html: string | number }[];
  return { pages: Number(row.pages), htmlPages: Number(row.html) };
}

/** Distinct pages affected per check of a crawl (`checks`, when already read), and its scored pages: from its stored summary when it has one. */
export async function crawlChecks(knex: Db, crawlId: string, checks?: CheckCount[]): Promise<ScoredPages & { checks: CheckCount[] }> {
  const stored = checks ? null : await storedSummary(knex, crawlId);
  if (stored) return { ...stored.scored, checks: stored.checks };
  return { ...(await scoredPages(knex, crawlId)), checks: checks ?? (await countChecks(knex, crawlId)) };
}

/**
 * The crawl's internal pages answering 2xx with HTML, fetched without error, meta-refresh stubs
 * (a 2xx page with `redirect_url` set) aside (`isHtmlPage`, the crawler's count, in SQL: the
 * content type in any case): the query the page checks' readers start from.
 */
export function htmlPagesOf(knex: Db, crawlId: string): Knex.QueryBuilder {
  return knex('crawl_pages')
    .where({ crawl_id: crawlId, is_internal: true })
    .whereNull('error_type')
    .andWhere('status_code', '>=', 200)
    .andWhere('status_code', '<', 300)
    .andWhereRaw("lower(content_type) like '%html%'")
    .whereNull('redirect_url');
}
