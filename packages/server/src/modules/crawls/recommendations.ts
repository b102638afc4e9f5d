/**
 * The prioritised fix list of a crawl (docs/decisions/crawl-changes.md): one entry per check that
 * fired, ordered by impact (severity weight × pages affected × pillar weight, `recommendationImpact`
 * shared with the mock), with the catalogue's label and the advice the PDF gives.
 */
import type { Knex } from 'knex';
import { type Language, type Recommendation, type Severity } from '@siteaudit/schema';
import { checkLabel, compareRecommendations, fixFor, pillarOf, recommendationImpact } from '@siteaudit/schema/rules';

type Db = Knex | Knex.Transaction;

/** Every recommendation of a crawl, highest impact first (a few hundred checks at most). */
export async function recommendations(db: Db, crawlId: string, language: Language): Promise<Recommendation[]> {
  const groups = (await db('crawl_issues')
    .where({ crawl_id: crawlId })
    .select('name', 'severity', 'category')
    .count({ occurrences: '*' })
    .countDistinct({ pages: 'url_hash' })
    .groupBy('name', 'severity', 'category')) as { name: string; severity: Severity; category: string; occurrences: string | number; pages: string | number }[];
  // The health score's denominator (docs/health-score.md): internal URLs, challenge pages aside.
  const [{ scored }] = await db('crawl_pages')
    .where({ crawl_id: crawlId, is_internal: true })
    .andWhere((q) => q.whereNull('error_type').orWhereNot('error_type', 'protection'))
    .count({ scored: '*' });
  return groups
    .map((g) => {
      const pages = Number(g.pages);
      return {
        name: g.name,
        label: checkLabel(g.name, language),
        severity: g.severity,
        category: g.category,
        pillar: pillarOf(g.category),
        pages,
        occurrences: Number(g.occurrences),
        impact: recommendationImpact({ name: g.name, severity: g.severity, category: g.category, pages, scoredPages: Number(scored) }),
        advice: fixFor(g.name, g.category, language),
      };
    })
    .sort(compareRecommendations);
}
