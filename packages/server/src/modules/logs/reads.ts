/** What other modules read of the log imports: URL statistics, the crawl they are joined with, the reports' reads. */
export { latestCrawlPages } from './join-source.js';
export { completedImportCount, dayStats, urlStatStream } from './report-reads.js';
export { eachUrlStat, importTotals, urlStats } from './store.js';
