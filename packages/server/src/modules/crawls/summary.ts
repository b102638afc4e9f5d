import type { Knex } from 'knex';
import type { IssueSummary, Language } from '@siteaudit/schema';
import { checkScope, type CheckName, mayBeTemplate, templatePattern, topCause } from '@siteaudit/schema/rules';
import { issueDetailsIn } from '../../reports/issue-details.js';
import type { CrawlRow } from './crawl-row.js';

/**
 * The issue summary of a crawl: one group per issue name, errors first then the most frequent;
 * `totals` are the sums of the groups by severity. Served by the API and printed in exports.
 * Each group says how many pages it is on, and whether its occurrences are one template decision
 * (`template`: the same details on more than half of the HTML pages, schema rules/template-patterns.ts).
 */
export async function issueSummary(knex: Knex, crawl: Pick<CrawlRow, 'id' | 'protection_occurrences'>, language: Language = 'en'): Promise<IssueSummary> {
  const groups = (await knex('crawl_issues')
    .where({ crawl_id: crawl.id })
    .select('name', 'severity', 'category', 'severity_rank')
    .count({ occurrences: '*' })
    .countDistinct({ pages: 'url_hash' })
    .groupBy('name', 'severity', 'category', 'severity_rank')
    .orderBy([{ column: 'severity_rank' }, { column: 'occurrences', order: 'desc' }, { column: 'name' }])) as {
    name: string;
    severity: 'error' | 'warning' | 'info';
    category: string;
    occurrences: string | number;
    pages: string | number;
  }[];
  const html = await htmlPages(knex, crawl.id);
  const totals = { error: 0, warning: 0, info: 0 };
  const out: IssueSummary['groups'] = [];
  for (const g of groups) {
    const occurrences = Number(g.occurrences);
    const pages = Number(g.pages);
    totals[g.severity] += occurrences;
    const template = mayBeTemplate(html, pages) ? await templateOf(knex, crawl.id, g.name, pages, html, language) : null;
    out.push({ name: g.name, severity: g.severity, category: g.category, occurrences, pages, template });
  }
  return { crawl_id: crawl.id, totals, protection_occurrences: crawl.protection_occurrences, groups: out };
}

/** The crawl's HTML pages: internal, answering 2xx with HTML, challenge pages aside (what the page checks judge). */
async function htmlPages(knex: Knex, crawlId: string): Promise<number> {
  const [{ count }] = await knex('crawl_pages')
    .where({ crawl_id: crawlId, is_internal: true })
    .whereNull('error_type')
    .andWhere('status_code', '>=', 200)
    .andWhere('status_code', '<', 300)
    .andWhere('content_type', 'like', '%html%')
    .count({ count: '*' });
  return Number(count);
}

/** Distinct details read per check to find its most common cause: far above a template check's (a few values), enough for the others. */
const MAX_DETAILS = 10_000;

/**
 * The template pattern of check `name` (on `pages` distinct pages): its most common cause
 * (schema rules/template-patterns.ts `topCause`) on more than half of the HTML pages, with the
 * details most of those pages have and three example pages.
 */
async function templateOf(knex: Knex, crawlId: string, name: string, pages: number, html: number, language: Language): Promise<IssueSummary['groups'][number]['template']> {
  const rows = (await knex('crawl_issues')
    .where({ crawl_id: crawlId, name })
    .select('details')
    .countDistinct({ pages: 'url_hash' })
    .groupBy('details')
    .orderBy([{ column: 'pages', order: 'desc' }, { column: 'details' }])
    .limit(MAX_DETAILS)) as { details: string; pages: string | number }[];
  const top = topCause(checkScope(name as CheckName).scope, rows.map((r) => ({ details: r.details, pages: Number(r.pages) })), pages);
  if (!top || top.pages * 2 <= html) return null;
  const examples = (await knex('crawl_issues').where({ crawl_id: crawlId, name, details: top.details }).orderBy('seq').limit(3).select('url')) as { url: string }[];
  const pattern = templatePattern(html, top, examples.map((e) => e.url));
  return pattern && { ...pattern, details: issueDetailsIn(name, pattern.details, language) };
}
