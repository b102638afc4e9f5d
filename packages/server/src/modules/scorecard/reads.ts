/** What other modules read of the scorecard: its pillars and the formulas of the crawl pillars. */
export { auditedPages, checkCounts, type CheckCount, crawlChecks, scoreOf } from './formulas.js';
export { scorecardPillars } from './pillars.js';
