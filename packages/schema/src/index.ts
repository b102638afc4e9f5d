/**
 * @siteaudit/schema: the contract (resources, errors, scopes, operations and their typed shape).
 * The rules the server and the mock share are at `@siteaudit/schema/rules`, the request pipeline
 * at `@siteaudit/schema/pipeline`, the OpenAPI document at `@siteaudit/schema/openapi`.
 */
export {
  BooleanText,
  DateTime,
  list,
  ListMeta,
  NoBody,
  NoParams,
  NoQuery,
  PageQuery,
  Period,
  PERIOD_PRESETS,
  PeriodPreset,
  PlainDate,
  queryBoolean,
  queryInteger,
  Severity,
  SeverityCounts,
  single,
  Uuid,
} from './common.js';
export {
  ERROR_CODES,
  ERROR_TYPE_BASE,
  type ErrorCode,
  ERRORS,
  errorStatus,
  errorTitle,
  FieldError,
  type Language,
  LANGUAGES,
  Problem,
} from './errors.js';
export { type Role, ROLES, type Scope, SCOPES, TOKEN_DEFAULT_DAYS, TOKEN_MAX_DAYS, bearerChallenge, WWW_AUTHENTICATE } from './scopes.js';
export {
  fillPath,
  type HttpMethod,
  type IdempotencyMode,
  OPERATION_IDS,
  type OperationId,
  type OperationsOf,
  type OperationInfo,
  OPERATIONS,
  templatePath,
} from './operations.js';
export {
  type Body,
  contract,
  type ContractEntry,
  type Params,
  type ParsedBody,
  type ParsedParams,
  type ParsedQuery,
  type Query,
  type ResponseBody,
} from './contract.js';
export { Me, Operation, OPERATION_KINDS, OperationList, RateLimitWindow, Usage } from './resources/account.js';
export {
  Campaign,
  CampaignParams,
  CreateCampaignBody,
  ListCampaignsQuery,
  MONTH_DAYS,
  Schedule,
  SCHEDULE_FREQUENCIES,
  type ScheduleFrequency,
  ScheduleInput,
  UpdateCampaignBody,
  WEEKDAYS,
} from './resources/campaigns.js';
export { CHANGE_BASES, CrawlChange, CrawlChangesSummary, ListChangesQuery, ListRecommendationsQuery, Recommendation, ScoreAttribution } from './resources/changes.js';
export {
  Crawl,
  CRAWL_STAGES,
  CRAWL_STATUSES,
  CRAWL_TRIGGERS,
  CrawledPage,
  CrawledPageWithIssues,
  CrawlParams,
  IssueOccurrence,
  IssueSummary,
  TemplatePattern,
  LaunchCrawlBody,
  ListCrawlsQuery,
  ListIssuesQuery,
  ListPagesQuery,
  PAGE_STATUS_FILTERS,
  PageByUrlQuery,
  ListInlinksQuery,
  PageInlink,
  PageResource,
  PAGESPEED_STATUSES,
  PageSpeedResult,
  RESOURCE_TYPES,
  type ResourceType,
  StagePlan,
  STEP_STATES,
} from './resources/crawls.js';
export { WEBHOOK_EVENT_PAYLOADS, WebhookEvent } from './resources/events.js';
export { CreateExportBody, Export, ExportBranding, EXPORT_FORMATS, EXPORT_STATUSES, ExportParams } from './resources/exports.js';
export {
  BOT_FAMILIES,
  type BotFamily,
  BUDGET_BUCKETS,
  ListLogDaysQuery,
  ListLogFindingsQuery,
  ListLogUrlsQuery,
  LOG_FINDING_KINDS,
  LOG_FORMATS,
  LOG_IMPORT_STATUSES,
  LOG_UPLOAD_TYPES,
  LogDayStat,
  LogFinding,
  LogImport,
  LogImportParams,
  LogInsights,
  LogUrlStat,
  STATUS_CLASSES,
  VERIFICATIONS,
} from './resources/logs.js';
export {
  CheckKeywordBody,
  KeywordCheck,
  KeywordsActivityResult,
  KeywordsBody,
  PeriodQuery,
  Positions,
  POSITIONS_STATUSES,
  PositionsKeyword,
  TrackKeywordsBody,
  TrackKeywordsResult,
  UntrackKeywordsResult,
} from './resources/positions.js';
export { CreateProjectBody, ListProjectsQuery, Project, ProjectParams, SiteUrl, UpdateProjectBody } from './resources/projects.js';
export { PILLAR_KEYS, PILLAR_STATUSES, SCORE_METHODS, ScoreCheck, ScoreComputation, Scorecard, ScorecardAxis, ScorecardPillar } from './resources/scorecard.js';
export { SEARCH_CONSOLE_STATUSES, SEARCH_CONSOLE_SYNC_UNAVAILABLE_REASONS, SearchConsole } from './resources/search-console.js';
export {
  CreateWebhookBody,
  DELIVERY_ERROR_REASONS,
  DELIVERY_STATUSES,
  type DeliveryErrorReason,
  ListDeliveriesQuery,
  ListWebhooksQuery,
  UpdateWebhookBody,
  Webhook,
  WEBHOOK_EVENTS,
  WebhookDelivery,
  webhookEvent,
  type WebhookEventType,
  WebhookParams,
  WebhookWithSecret,
} from './resources/webhooks.js';
export { type ErrorSource, OPERATION_ERRORS, operationErrorCodes } from './operation-errors.js';
export { ERROR_DESCRIPTIONS } from './error-docs.js';
