/** The technique health score (docs/health-score.md) lives in `@siteaudit/schema`, shared with the mock. */
export { SEVERITY_WEIGHTS, healthScore, healthScoreExact, type ScoreInput } from '@siteaudit/schema';
