/**
 * What other modules read of the crawls: issue summaries, changes, PageSpeed results, running
 * crawls, page URLs, counts per check, settled crawls, issues and pages streamed for the reports.
 */
export { type ChangeRow, changeRows, toChange } from './change-list.js';
export { changesSummary } from './changes.js';
export { pageErrors } from './change-page-errors.js';
export { checkCounts, type CheckCount, crawlChecks } from './check-counts.js';
export { crawlById, crawlPageSpeed, type CrawlRow, type StoredPageSpeed } from './crawl-row.js';
export { crawlIssues, crawlPages } from './crawl-streams.js';
export { recommendations } from './recommendations.js';
export { issueSummary } from './summary.js';
export { activeCrawlsOfTeam, crawlIdsWhere, shallowHtmlPageUrls } from './team-crawls.js';
export { earlierComparableScores, latestCrawlPages, latestSettledCrawl, settledCrawls } from './settled-crawls.js';
