/** What other modules read of the scorecard: its pillars. */
export { scorecardPillars, type SearchConsoleAccess } from './pillars.js';
