/** Reads a crawl for the renderers, streaming pages and issues in keyset chunks. */
import type { Knex } from 'knex';
import type { CrawledPage, IssueOccurrence, PageSpeedResult } from '@siteaudit/schema';
import { CHECKS } from '../../crawler/checks.js';
import type { ExportSource } from '../../exports/index.js';
import { bool, json } from '../../store/database.js';
import type { CrawlRow } from '../crawls/crawl-row.js';
import { issueSummary } from '../crawls/summary.js';

const CHUNK = 1000;

async function* chunks<T extends { seq: number }>(knex: Knex, table: string, crawlId: string, order: string[]): AsyncIterable<T> {
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

export async function exportSource(knex: Knex, crawl: CrawlRow, language: 'fr' | 'en'): Promise<ExportSource> {
  const project = await knex('projects').where({ id: crawl.project_id }).first('name', 'url', 'domain');
  const summary = await issueSummary(knex, crawl);
  const stored = json<Omit<PageSpeedResult, 'crawl_id'> | null>(crawl.pagespeed, null);
  return {
    project: { name: project.name, url: project.url, domain: project.domain },
    crawl: {
      id: crawl.id,
      status: crawl.status,
      started_at: crawl.started_at,
      finished_at: crawl.finished_at,
      pages: { crawled: crawl.pages_crawled, discovered: crawl.pages_discovered, budget: crawl.pages_budget },
      issue_counts: { error: crawl.issues_error, warning: crawl.issues_warning, info: crawl.issues_info },
    },
    healthScore: crawl.health_score === null ? null : Math.round(crawl.health_score),
    summary,
    pagespeed: stored ? { crawl_id: crawl.id, ...stored } : null,
    async *issues(): AsyncIterable<IssueOccurrence> {
      for await (const row of chunks<IssueOccurrence & { seq: number }>(knex, 'crawl_issues', crawl.id, ['severity_rank', 'seq'])) {
        yield { name: row.name, severity: row.severity, category: row.category, url: row.url, details: row.details };
      }
    },
    async *pages(): AsyncIterable<CrawledPage> {
      for await (const row of chunks<CrawledPage & { seq: number }>(knex, 'crawl_pages', crawl.id, ['seq'])) {
        const { seq, crawl_id, url_hash, ...page } = row as CrawledPage & { seq: number; crawl_id: string; url_hash: string };
        yield { ...page, is_internal: bool(page.is_internal) };
      }
    },
    language,
    labels: (name) => (CHECKS as Record<string, { label: { fr: string; en: string } }>)[name]?.label[language] ?? name,
  };
}
