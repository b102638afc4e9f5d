/** What other modules read of a crawl beyond its row: issue summaries, changes, PageSpeed results. */
export { changeRows, toChange } from './change-list.js';
export { changesSummary } from './changes.js';
export type { StoredPageSpeed } from './crawl-row.js';
export { recommendations } from './recommendations.js';
export { issueSummary } from './summary.js';
