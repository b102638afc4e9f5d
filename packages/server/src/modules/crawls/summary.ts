import type { Knex } from 'knex';
import type { IssueSummary, Language } from '@siteaudit/schema';
import { checkLabel } from '@siteaudit/schema/rules';
import type { CrawlRow } from './crawl-row.js';

/**
 * The issue summary of a crawl: one group per issue name, errors first then the most frequent;
 * `totals` are the sums of the groups by severity; each group has its check's label in `language`. Served by the API and printed in exports.
 */
export async function issueSummary(knex: Knex, crawl: Pick<CrawlRow, 'id' | 'protection_occurrences'>, language: Language = 'en'): Promise<IssueSummary> {
  const groups = (await knex('crawl_issues')
    .where({ crawl_id: crawl.id })
    .select('name', 'severity', 'category', 'severity_rank')
    .count({ occurrences: '*' })
    .groupBy('name', 'severity', 'category', 'severity_rank')
    .orderBy([{ column: 'severity_rank' }, { column: 'occurrences', order: 'desc' }, { column: 'name' }])) as {
    name: string;
    severity: 'error' | 'warning' | 'info';
    category: string;
    occurrences: string | number;
  }[];
  const totals = { error: 0, warning: 0, info: 0 };
  return {
    crawl_id: crawl.id,
    totals,
    protection_occurrences: crawl.protection_occurrences,
    groups: groups.map((g) => {
      const occurrences = Number(g.occurrences);
      totals[g.severity] += occurrences;
      return { name: g.name, label: checkLabel(g.name, language), severity: g.severity, category: g.category, occurrences };
    }),
  };
}
