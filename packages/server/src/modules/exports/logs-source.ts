/**
 * The reports' log section (docs/decisions/exports.md#the-log-section), read through the log
 * module's own reads: the insights as GET logs/insights computes them, the findings as GET
 * logs/findings does, then only bounded lists are kept; the workbook's rows are streamed.
 */
import type { Knex } from 'knex';
import { BOT_FAMILIES, type LogFinding } from '@siteaudit/schema';
import { joinLogs, logFindings, logInsights, type JoinPage, type LogTotals, type UrlStat } from '@siteaudit/schema/rules';
import type { ReportLogs, ReportLogUrl } from '../../reports/index.js';
import { completedImportCount, dayStats, importTotals, latestCrawlPages, urlStatStream, urlStats } from '../logs/reads.js';

/** Paths listed under "top URLs by bot hits". */
export const LOG_TOP_URLS = 20;
/** Examples listed under each finding. */
export const LOG_FINDING_EXAMPLES = 10;

/** The paths with the most trusted bot hits (unverified claims are not the bot they claim). */
export function topUrls(stats: readonly UrlStat[], count: number): ReportLogUrl[] {
  const byPath = new Map<string, ReportLogUrl>();
  for (const s of stats) {
    if (s.verification === 'unverified') continue;
    const url = byPath.get(s.path) ?? { path: s.path, hits: 0, families: [], status_codes: {}, last_visit: s.last_visit };
    url.hits += s.hits;
    if (!url.families.includes(s.family)) url.families.push(s.family);
    for (const [code, n] of Object.entries(s.status_codes)) url.status_codes[code] = (url.status_codes[code] ?? 0) + n;
    if (s.last_visit > url.last_visit) url.last_visit = s.last_visit;
    byPath.set(s.path, url);
  }
  const top = [...byPath.values()].sort((a, b) => b.hits - a.hits || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)).slice(0, count);
  for (const url of top) url.families.sort((a, b) => BOT_FAMILIES.indexOf(a) - BOT_FAMILIES.indexOf(b));
  return top;
}

/** The bounded part of the section, from the statistics as the log module reads them. */
export function logSummary(
  projectId: string,
  stats: readonly UrlStat[],
  totals: LogTotals & { period: { from: string; to: string } | null },
  crawl: { id: string; pages: readonly JoinPage[] } | null,
): Pick<ReportLogs, 'insights' | 'topUrls' | 'findings'> {
  const join = crawl ? joinLogs(stats, crawl.pages) : null;
  const finding = (kind: LogFinding['kind']) => {
    const all = join ? logFindings(join, kind) : [];
    // Orphans that bots fetch most come first; unvisited pages stay in path order.
    if (kind === 'not_in_crawl') all.sort((a, b) => b.bot_hits - a.bot_hits);
    return { count: all.length, examples: all.slice(0, LOG_FINDING_EXAMPLES) };
  };
  return {
    insights: logInsights(projectId, stats, totals, totals.period, crawl),
    topUrls: topUrls(stats, LOG_TOP_URLS),
    findings: { not_in_crawl: finding('not_in_crawl'), indexable_not_visited: finding('indexable_not_visited') },
  };
}

/**
 * The log section of a project's reports; undefined when it has no completed import. The URL
 * statistics are read whole once (as GET logs/insights does) and dropped once summarised.
 */
export async function logsSource(knex: Knex, projectId: string): Promise<ReportLogs | undefined> {
  const totals = await importTotals(knex, projectId);
  if (!totals.period) return undefined;
  const [stats, crawl, imports] = await Promise.all([urlStats(knex, projectId), latestCrawlPages(knex, projectId), completedImportCount(knex, projectId)]);
  return {
    ...logSummary(projectId, stats, totals, crawl),
    imports,
    urls: () => urlStatStream(knex, projectId),
    async *days() {
      yield* await dayStats(knex, projectId);
    },
  };
}
