/**
 * The crawler, as a library with no storage of its own: give it a CrawlConfig and a CrawlSink,
 * it fetches the site, audits it and streams pages and issues to the sink in batches.
 *
 * @example
 * const outcome = await crawlSite(resolveCrawlConfig(campaign, { allowPrivateAddresses: false }), {
 *   pages: (batch) => store.insertPages(crawlId, batch),
 *   issues: (batch) => store.insertIssues(crawlId, batch),
 *   progress: ({ crawled, discovered }) => store.setProgress(crawlId, crawled, discovered),
 * }, { signal: job.signal });
 *
 * JavaScript rendering and accessibility checks need a browser: pass `renderer`
 * (src/rendering `createRenderer`) and close it once the crawl is over.
 */
export { crawlSite, MAX_REDIRECTS } from './crawl-site.js';
export type { CrawlOptions } from './crawl-site.js';
export { analyseHtml } from './page/page-analysis.js';
export type { AnalysisRequest, PageAnalyser, PageAnalysis } from './page/page-analysis.js';
export { CHECKS, AI_SEARCH_AGENTS, AI_TRAINING_CRAWLERS, THRESHOLDS, ACCESSIBILITY_PREFIX, IMPACT_SEVERITY } from './checks.js';
export type { CheckDefinition, CheckCategory, CheckName } from './checks.js';
export { normaliseUrl } from './url.js';
export { compilePatterns, validatePatterns, PatternError } from '@siteaudit/schema/rules';
export type { UrlMatcher } from '@siteaudit/schema/rules';
export { resolveCrawlConfig, robotsToken, CRAWL_DEFAULTS, DEFAULT_TUNING } from './crawl-config.js';
export type { CampaignCrawlInput } from './crawl-config.js';
export { healthScore, healthScoreExact, SEVERITY_WEIGHTS } from './run/score.js';
export type { ScoreInput } from './run/score.js';
export { RenderError } from './crawl-types.js';
export type {
  AccessibilityFinding,
  AccessibilityRules,
  BlockedReason,
  FetchedPage,
  PageRenderer,
  RenderedPage,
  CrawlConfig,
  CrawlOutcome,
  CrawlSink,
  SinkBatch,
  CrawlTuning,
  DiscoveredVia,
  IssueRecord,
  PageRecord,
  ResourceRecord,
  RedirectHop,
  Severity,
} from './crawl-types.js';
