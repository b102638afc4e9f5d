/**
 * The `providers` option of createSiteAuditServer: external data sources behind interfaces.
 * With none configured the service says so (`measured: false`, `unconfigured`), never invents.
 */
import type { KeywordDataProvider, SerpProvider } from './serp.js';
import type { SearchConsoleProvider } from './search-console.js';

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
