/**
 * The prioritised fix list of a crawl (docs/decisions/crawl-changes.md): one entry per check that
 * fired, ordered by what it costs the site (errors, warnings, notices, then pages affected, then
 * the score points its fix would win: `compareRecommendations` and `scorePointsWon`, shared with
 * the mock), with the catalogue's label and the advice the PDF gives.
 */
import type { Knex } from 'knex';
import { type Language, type Recommendation } from '@siteaudit/schema';
import { checkLabel, compareRecommendations, fixFor, pillarOf, recommendationImpact, scorePointsWon } from '@siteaudit/schema/rules';
import { crawlChecks, type CheckCount } from './check-counts.js';

type Db = Knex | Knex.Transaction;

/**
 * Every recommendation of a crawl, in the fix list's order (a few hundred checks at most). `checks`:
 * the crawl's counts per check when already read (settlement reads them once for the comparison).
 */
export async function recommendations(db: Db, crawlId: string, language: Language, checks?: CheckCount[]): Promise<Recommendation[]> {
  // The health score's denominators (docs/health-score.md).
  const scored = await crawlChecks(db, crawlId, checks);
  const groups = scored.checks;
  return groups
    .map((g) => ({
      name: g.name,
      label: checkLabel(g.name, language),
      severity: g.severity,
      category: g.category,
      pillar: pillarOf(g.category),
      pages: g.pages,
      occurrences: g.occurrences,
      impact: recommendationImpact({ name: g.name, severity: g.severity, category: g.category, pages: g.pages, scoredPages: scored.pages }),
      score_points: scorePointsWon(g, groups, scored),
      advice: fixFor(g.name, g.category, language),
    }))
    .sort(compareRecommendations);
}
