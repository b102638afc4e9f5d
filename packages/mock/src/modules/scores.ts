/**
 * The crawl pillars' scores of a crawl, as the scorecard shows them and the changes compare them
 * (projects.ts, changes.ts): a leaf, so that neither imports the other.
 */
import { type IssueOccurrence } from '@siteaudit/schema';
import { contentAxes, healthScore } from '@siteaudit/schema/rules';
import type { CrawlRecord } from '../db.js';

/**
 * The health score (`healthScore`, docs/health-score.md) of `issues` over `pages` scored pages:
 * each check counts the pages it fired on. The mock's site has no site-wide check.
 */
function scoreOf(pages: number, issues: IssueOccurrence[]): number | null {
  const byCheck = new Map<string, { severity: IssueOccurrence['severity']; urls: Set<string> }>();
  for (const issue of issues) {
    const entry = byCheck.get(issue.name) ?? { severity: issue.severity, urls: new Set<string>() };
    entry.urls.add(issue.url);
    byCheck.set(issue.name, entry);
  }
  return healthScore({ pages, checks: [...byCheck.values()].map(({ severity, urls }) => ({ severity, pages: urls.size })) });
}

/** The health score of a crawl's issues in some categories, over its internal pages answering 2xx. */
export function crawlScorer(crawl: CrawlRecord): (categories: readonly string[]) => number | null {
  const ok = crawl.page_records.filter((p) => p.is_internal && p.status_code !== null && p.status_code >= 200 && p.status_code < 300).length;
  return (categories) => scoreOf(ok, crawl.issues.filter((i) => categories.includes(i.category)));
}

/** The crawl pillars of a crawl, as the scorecard shows them (the mock never runs accessibility rules). */
export function crawlPillarScores(crawl: CrawlRecord): { technique: number | null; contenu: number | null; accessibilite: number | null } {
  const scored = crawl.page_records.filter((p) => p.is_internal && !p.protection).length;
  const ok = crawl.page_records.filter((p) => p.is_internal && p.status_code !== null && p.status_code >= 200 && p.status_code < 300).length;
  // The mock never checks AI reachability, so that axis stays out of the content score.
  return { technique: ok > 0 ? scoreOf(scored, crawl.issues) : null, contenu: crawlScorer(crawl)(contentAxes(() => null, false).scored), accessibilite: null };
}
