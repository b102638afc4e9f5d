/**
 * @siteaudit/schema/rules: the pure rules the server and the mock share, so the two answer alike
 * (plans, quotas, periods, checks, changes, problem bodies, gates, routing…).
 */
export { apiAccess, OPERATIONS_CAP, usageAnswer } from './account.js';
export { type AuthFailureCount, type AuthFailureRefusal, DEFAULT_AUTH_FAILURES_PER_MINUTE, recordAuthFailure } from './auth-failures.js';
export { CORS_ALLOW_HEADERS, CORS_ALLOW_METHODS, CORS_EXPOSE_HEADERS, CORS_HEADERS, CORS_MAX_AGE_SECONDS, isCrossOriginPath, isPreflight, PREFLIGHT_HEADERS } from './cors.js';
export {
  CAMPAIGN_SETTING_DEFAULTS,
  CAMPAIGN_WRITE_ONLY_FIELDS,
  campaignSettings,
  type CampaignSettings,
  type CampaignWriteOnly,
} from './campaign-settings.js';
export { CHECK_DETAILS } from './check-details.js';
export { checkScope, type CheckScope, type CheckScopeRow } from './check-scopes.js';
export { MAX_SECTION_PATTERNS, mayBeTemplate, SECTION_MIN_PAGES, sectionOf, TEMPLATE_MIN_PAGES, type TemplatePattern, templateCause, templatePattern, topCause, type TopCause, causeDetails, causeRanges, rangedDetails, type RangedDetails } from './template-patterns.js';
export { CHECK_GUIDE, type CheckGuide } from './check-guide.js';
export { THRESHOLDS } from './check-thresholds.js';
export { CATEGORY_TITLES, checkReference, type CheckReferenceRow, checksMarkdown } from './checks-reference.js';
export { CRAWL_SETTINGS, crawlSettingsText } from './comparable-crawls.js';
export { ifNoneMatchMatches, VARY } from './conditional-requests.js';
export {
  CHANGE_KINDS,
  TARGETED_CHECKS,
  type ChangeKind,
  checkLabel,
  compareRecommendations,
  scorePointsWon,
  type ScoredCheck,
  CRAWL_PILLAR_CATEGORIES,
  CRAWL_PILLARS,
  type CrawlPillar,
  HEALTH_DROP_ERROR,
  HEALTH_DROP_WARNING,
  IMPACT_PILLAR_WEIGHTS,
  IMPACT_SEVERITY_WEIGHTS,
  checkBasis,
  isSiteWideCheck,
  notComparedSummary,
  pillarOf,
  recommendationImpact,
  REGRESSION_THRESHOLDS,
  type RegressionInput,
  regressionSignal,
  type RegressionThreshold,
  SIGNAL_TOP_CHECKS,
  type SignalReason,
} from './crawl-changes.js';
export { crawlProgressPercent, pagesPerSecond } from './crawl-progress.js';
export {
  CRAWL_STEPS,
  type CrawlStep,
  type PageSpeedSkipReason,
  pagespeedSkipReason,
  QUEUED_CRAWL,
  settledPageSpeed,
  type UnfinishedCrawlStatus,
  unmeasuredPageSpeed,
} from './crawls.js';
export { cursorBinding } from './cursors.js';
export { DEFAULT_EXPORT_RETENTION_DAYS, EXPORT_CONTENT_TYPES, type ExportFileFormat, exportFilename, isExportableCrawl } from './exports.js';
export { ACCESSIBILITY_PREFIX, axisFix, fixFor, whyFor } from './fix-advice.js';
export { accessRefusal, planRefusal, type Refusal } from './gates.js';
export { checkShare, healthScore, healthScoreExact, isHtmlPage, judgedPages, maxCheckLoss, type ScoredPages, type ScoreInput, SEVERITY_WEIGHTS } from './health-score.js';
export { canonicalJson, IDEMPOTENCY_KEY_RETENTION_MS, parseIdempotencyKey, requestFingerprintText } from './idempotency.js';
export { type CheckBasis, type CheckCategory, type CheckDefinition, type CheckName, CHECKS, SEVERITY_RANK, bySummaryOrder } from './issue-catalogue.js';
export { isKnownIssueDetail, localiseIssueDetails } from './issue-details.js';
export { CRAWL_ERROR_MESSAGES, localiseCrawlError, siteUnreachableError, type CrawlErrorCode } from './crawl-error-text.js';
export { canonicalKeyword } from './keywords.js';
export { pickLanguage } from './language.js';
export { isLocalHostName, isUnresolvableName } from './local-names.js';
export {
  FRESH_DAYS,
  IMPORTANT_DEPTH,
  isIndexable,
  createLogJoin,
  joinLogs,
  type LogJoin,
  type JoinPage,
  joinPath,
  LOG_PILLAR_AXES,
  LOG_PILLAR_DAYS,
  logFindings,
  logInsights,
  logPillar,
  type LogPillarAxes,
  type LogTotals,
  STALE_DAYS,
  type UrlStat,
} from './log-analysis.js';
export { CREDENTIAL_NAMES, CREDENTIAL_SUFFIXES, decodeLogEscapes, MAX_STORED_PATH, normaliseLogPath, REDACTED_EMAIL, REDACTED_TOKEN, REDACTED_VALUE, redactCredentials, redactEmails, redactTokens, removeDotSegments, storedPath } from './log-paths.js';
export {
  addStatus,
  addUrlAggregate,
  AI_FAMILIES,
  AI_SEARCH_AGENTS,
  AI_TRAINING_CRAWLERS,
  botFamily,
  type ClaimVerdict,
  isParameterised,
  isUserTriggered,
  USER_TRIGGERED_FETCHERS,
  JSON_FIELD_MAP,
  MAX_LOG_LINE_CHARS,
  type LogAggregate,
  type LogTruncation,
  type LogFormat,
  type LogRequest,
  OPERATOR_OF,
  RANGE_OPERATORS,
  VERIFIED_OPERATORS,
  clfOffset,
  localDate,
  localDay,
  parseClfTime,
  type ParsedLine,
  parseLogLine,
  pendingClaims,
  settleVerifications,
  type StatusCounts,
  statusClass,
  statusRecord,
  type UrlAggregate,
  type Verification,
  type VerifiedOperator,
} from './logs.js';
export { createLogAggregator, type LogAggregator, mergeAggregates, REFUSAL_SAMPLES } from './log-aggregator.js';
export { INFLATION_FAILED, INFLATION_LIMIT, inflatesTooMuch, MAX_INFLATION_RATIO } from './log-inflation.js';
export {
  addDays,
  dayStartOf,
  isoDay,
  monthStartDay,
  PERIOD_DAYS,
  periodEnding,
  POSITIONS_DEFAULT_PERIOD,
  positionsPeriod,
  SEARCH_CONSOLE_DEFAULT_PERIOD,
  searchConsolePeriod,
} from './periods.js';
export { searchConsoleSync } from './search-console.js';
export {
  type ApiAccess,
  DEFAULT_PLANS,
  type Entitlement,
  ENTITLEMENTS,
  featureUpgrade,
  frequencyUpgrade,
  limitUpgrade,
  type Plan,
  type PlanCatalogue,
  type PlanOverride,
  type PlanOverrides,
  quotaOf,
  resolvePlans,
  upgradeTo,
  withinLimit,
} from './plans.js';
export { buildProblem, fieldErrors, type FieldErrors, type Localized, type ProblemExtras, problemTypeBase } from './problem-bodies.js';
export { refusalDetails } from './refusal-details.js';
export { DEFAULT_CAMPAIGN_SETTINGS, defaultCampaignBounds, defaultProjectName, firstFreeSlug, normaliseSiteUrl, slugify } from './project-setup.js';
export {
  CTR_CURVE_PERCENT,
  type ListedKeyword,
  POSITION_DELTA_DAYS,
  positionDelta,
  positionMovement,
  type PositionMovement,
  type PositionPoint,
  readListedKeywords,
  visibilityPercent,
  visibilityWeight,
} from './rank-tracking.js';
export { MemoryRateCounters } from './rate-counters.js';
export {
  decideRate,
  RATE_WINDOW_SECONDS,
  RATE_WINDOWS,
  type RateDecision,
  rateLimitHeaders,
  rateLimitRefusal,
  type RateLimits,
  rateLimitUpgrade,
  type RateWindow,
  rateWindowStart,
  rateWindowState,
  type RateWindowState,
  rateWindowStates,
} from './rate-limits.js';
export { checkInput, type InputCheck, loneSurrogatePaths, nulPaths } from './request-input.js';
export { allowedMethods, decodePathParams, matchOperation } from './routing.js';
export { DEFAULT_SCHEDULE_TIME, nextRunAt, normaliseSchedule, type StoredSchedule } from './schedule.js';
export {
  checksAxis,
  CONTENT_AXES,
  contentAxes,
  auditedData,
  meanAxes,
  meanComputation,
  noComputation,
  pagespeedAxis,
  productComputation,
  type ScoreComputation,
  scoreCheck,
  type ScoreData,
  type ScorecardAxis,
  scoreOf,
  TECHNIQUE_AXES,
  TECHNIQUE_CONTENT_AXIS,
  techniqueAxes,
} from './scorecard-axes.js';
export { privateSiteRefusal } from './site-refusal.js';
export {
  compilePatterns,
  PATTERN_LIMITS,
  PatternError,
  patternProblem,
  type PatternProblem,
  splitPatterns,
  type UrlMatcher,
  validatePatterns,
} from './url-patterns.js';
export { normaliseUrl } from './urls.js';
export {
  DELIVERY_LOG_RETENTION_DAYS,
  DELIVERY_LOG_RETENTION_MS,
  deliveryLogCutoff,
  isRetriedEvent,
  nextEventTime,
  SECRET_ROTATION_OVERLAP_MS,
  secretRotationEndsAt,
  TEST_EVENT_TYPE,
  WEBHOOK_SECRET_BYTES,
  WEBHOOK_SECRET_PREFIX,
  WEBHOOK_URL_MESSAGE,
  webhookUrlSchemeError,
} from './webhooks.js';
export {
  agencyNameProblem,
  BRANDING_LOGO_MAX_BYTES,
  BRANDING_LOGO_MAX_CHARS,
  BRANDING_LOGO_MAX_SIDE,
  BRANDING_NAME_MAX,
  type Logo,
  type LogoType,
  readLogo,
} from './export-branding.js';
export {
  attributeScoreChange,
  attributionParts,
  type AttributionSide,
  categoriesData,
  exactScoreOf,
  pillarData,
  type CheckAttribution,
  roundToTenths,
  type ScoreAttribution,
} from './score-attribution.js';
