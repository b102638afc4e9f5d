export { createSiteAuditServer, type SiteAuditServer, type SiteAuditServerOptions } from './server.js';
export { AdminError, TOKEN_DEFAULT_DAYS, TOKEN_MAX_DAYS, type Admin, type CreatedToken } from './admin.js';
export { resolvePlans, type PlanOverrides } from '@siteaudit/schema/rules';
// The providers option: each adapter's factory and options, and the interfaces a provider of
// your own implements; the adapters' endpoints and Google's signing stay inside.
export {
  ProviderError,
  createDataForSeoKeywordData,
  createDataForSeoSerp,
  createGoogleSearchConsole,
  createLighthousePageSpeed,
  createPageSpeedInsights,
  type DataForSeoOptions,
  type FetchLike,
  type GoogleSearchConsoleOptions,
  type KeywordData,
  type KeywordDataProvider,
  type KeywordDataQuery,
  type LighthousePageSpeedOptions,
  type PageSpeedInsightsOptions,
  type PageSpeedMeasurement,
  type PageSpeedProvider,
  type PageSpeedRequest,
  type PageSpeedStrategy,
  type Providers,
  type SearchAnalyticsDay,
  type SearchConsoleProvider,
  type SerpProvider,
  type SerpQuery,
  type SerpResult,
  type ServiceAccountCredentials,
  type UrlInspectionResult,
} from './providers/index.js';
export { chromiumAvailable, createRenderer } from './rendering/index.js';
export { DEFAULT_HEAP_GROWING_PERCENT, limitHeapGrowth } from './heap.js';
