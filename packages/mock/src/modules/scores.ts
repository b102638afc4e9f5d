/**
 * The crawl pillars of a crawl, as the scorecard shows them and the changes compare them
 * (projects.ts, changes.ts): a leaf, so that neither imports the other.
 */
import { contentAxes, isHtmlPage, productComputation, type ScoreData, type ScorecardAxis, type ScoredPages, scoreOf, techniqueAxes } from '@siteaudit/schema/rules';
import type { CrawlRecord } from '../db.js';

/** The scored pages of a crawl (docs/health-score.md): internal URLs, challenge pages aside, and of them the HTML pages answering 2xx. */
export function crawlScoredPages(crawl: CrawlRecord): ScoredPages {
  const scored = crawl.page_records.filter((p) => p.is_internal && !p.protection);
  return { pages: scored.length, htmlPages: scored.filter((p) => isHtmlPage(p)).length };
}

/**
 * A crawl's checks as the health formula counts them (docs/health-score.md): the pages each check
 * fired on, over the scored pages, as the server's scorecard.
 */
export function crawlScoreData(crawl: CrawlRecord): ScoreData {
  const byCheck = new Map<string, { name: string; severity: ScoreData['checks'][number]['severity']; category: string; urls: Set<string> }>();
  for (const issue of crawl.issues) {
    const entry = byCheck.get(issue.name) ?? { name: issue.name, severity: issue.severity, category: issue.category, urls: new Set<string>() };
    entry.urls.add(issue.url);
    byCheck.set(issue.name, entry);
  }
  return {
    ...crawlScoredPages(crawl),
    checks: [...byCheck.values()].map(({ urls, ...check }) => ({ ...check, pages: urls.size })),
  };
}

const okPages = (crawl: CrawlRecord) => crawl.page_records.filter((p) => p.is_internal && p.status_code !== null && p.status_code >= 200 && p.status_code < 300).length;

const NONE_SCORED: ScoredPages = { pages: 0, htmlPages: 0 };

/** The crawl pillars' axes and unrounded scores; null scores without an internal page answering 2xx. The mock never checks AI reachability nor measures PageSpeed. */
export function crawlPillarAxes(crawl: CrawlRecord) {
  const data = crawlScoreData(crawl);
  const ok = okPages(crawl) > 0;
  const technique = techniqueAxes(data, null);
  const content: ScorecardAxis[] = contentAxes(data, false).axes;
  return {
    technique: { axes: technique, computation: productComputation(technique, ok ? data : NONE_SCORED) },
    contenu: { axes: content, computation: productComputation(content, ok ? data : NONE_SCORED) },
  };
}

/** The crawl pillars of a crawl, as the scorecard shows them (the mock never runs accessibility rules). */
export function crawlPillarScores(crawl: CrawlRecord): { technique: number | null; contenu: number | null; accessibilite: number | null } {
  const { technique } = crawlPillarAxes(crawl);
  const data = crawlScoreData(crawl);
  // The content pillar is the score of its categories (AI reachability never checked here).
  const contenu = okPages(crawl) > 0 ? scoreOf(data, contentAxes(data, false).scored) : null;
  return { technique: technique.computation.exact === null ? null : Math.round(technique.computation.exact), contenu, accessibilite: null };
}
