/** What other modules read of the crawls: issue summaries, changes, PageSpeed results, running crawls, page URLs. */
export { changeRows, toChange } from './change-list.js';
export { changesSummary } from './changes.js';
export type { StoredPageSpeed } from './crawl-row.js';
export { recommendations } from './recommendations.js';
export { issueSummary } from './summary.js';
export { activeCrawlsOfTeam, shallowHtmlPageUrls } from './team-crawls.js';
