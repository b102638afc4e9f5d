/** What other modules read of the scorecard: its pillars. */
export { scorecardPillars } from './pillars.js';
