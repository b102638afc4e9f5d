/**
 * @siteaudit/mock — msw handlers that behave like the Site Audit API server, built from the
 * same contract, for your own tests (Node with `msw/node`, browsers with `msw/browser`).
 */
export { createMockApi, DEFAULT_BASE_URL, DEFAULT_NOW } from './mock-api.js';
export type { FailNextOptions, MockApi, MockApiOptions, PlanOverride } from './mock-api.js';
export type {
  CrawlScenario,
  KeywordsScenario,
  MockAdmin,
  MockTokens,
  ProjectScenario,
  ScenarioName,
  ScenarioResults,
  SeedApi,
  WebhookScenario,
} from './seed.js';
export type { MockDb } from './db.js';
