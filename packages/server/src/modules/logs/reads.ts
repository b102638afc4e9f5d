/** What other modules read of the log imports: URL statistics and the crawl they are joined with. */
export { latestCrawlPages } from './join-source.js';
export { urlStats } from './store.js';
