/** What other modules read of the scorecard: its pillars and the axes of the crawl pillars. */
export { CONTENT_AXES, TECHNIQUE_AXES, auditedPages, crawlChecks, scoreOf } from './formulas.js';
export { scorecardPillars } from './pillars.js';
