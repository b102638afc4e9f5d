/** The latest settled crawl's pages as the log join reads them (rules/log-analysis.ts): a read of the crawls module. */
export { latestCrawlPages } from '../crawls/reads.js';
