/** What other modules read of the log imports: URL statistics, the crawl they are joined with, the reports' reads. */
export { completedImportsEnd } from './import-reads.js';
export { latestCrawlPages } from './join-source.js';
export { completedImportCount, dayStats, eachUrlStat, urlStatStream, urlStats } from './report-reads.js';
export { importTotals } from './store.js';
