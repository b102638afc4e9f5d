/**
 * The `providers` option of createSiteAuditServer: external data sources behind interfaces.
 * With none configured the service says so (`measured: false`, `unconfigured`), never invents.
 */
import type { KeywordDataProvider, SerpProvider } from './serp.js';
import type { SearchConsoleProvider } from './search-console.js';
import type { PageSpeedProvider } from './pagespeed.js';

export interface Providers {
  /** Positions for rank tracking. No default: without one, checks end unmeasured. */
  serp?: SerpProvider | null;
  /** Search volume, difficulty and intent of tracked keywords. No default: the fields stay null. */
  keywordData?: KeywordDataProvider | null;
  /**
   * Search Console reads. Default: the Google adapter, since the credentials come with each
   * linked property; null turns synchronisation off.
   */
  searchConsole?: SearchConsoleProvider | null;
  /**
   * Lighthouse scores for the crawl's PageSpeed step (campaign `pagespeed`):
   * `createLighthousePageSpeed()` (local Chromium) or `createPageSpeedInsights({ apiKey })`.
   * No default: without one the step is skipped with `no_provider` and the scores stay null.
   */
  pagespeed?: PageSpeedProvider | null;
}

export { ProviderError, type FetchLike } from './http.js';
export { sameSite, siteRoot, type KeywordData, type KeywordDataProvider, type KeywordDataQuery, type SerpProvider, type SerpQuery, type SerpResult } from './serp.js';
export { createDataForSeoKeywordData, createDataForSeoSerp, DATAFORSEO_BASE_URL, type DataForSeoOptions } from './dataforseo.js';
export { GOOGLE_TOKEN_URL, parseServiceAccount, serviceAccountAssertion, type ServiceAccountCredentials } from './google-auth.js';
export {
  createGoogleSearchConsole,
  SEARCH_CONSOLE_SCOPE,
  URL_INSPECTION_URL,
  WEBMASTERS_BASE_URL,
  type GoogleSearchConsoleOptions,
  type SearchAnalyticsDay,
  type SearchConsoleProvider,
  type UrlInspectionResult,
} from './search-console.js';
export {
  createPageSpeedInsights,
  PAGESPEED_INSIGHTS_URL,
  type PageSpeedInsightsOptions,
  type PageSpeedMeasurement,
  type PageSpeedProvider,
  type PageSpeedRequest,
  type PageSpeedStrategy,
} from './pagespeed.js';
export { createLighthousePageSpeed, type LighthousePageSpeedOptions } from './lighthouse.js';
