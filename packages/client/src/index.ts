/**
 * `@siteaudit/client`: the typed SDK of the Site Audit API, for Node 20+, browsers and edge
 * runtimes. Its runtime reads the zod-free operations table only; types come from the contract.
 *
 * @packageDocumentation
 */
export { createClient, type SiteAuditClient, type WaitOptions } from './client.js';
export {
  SiteAuditError,
  AuthenticationError,
  PermissionError,
  NotFoundError,
  ConflictError,
  GoneError,
  ValidationError,
  RateLimitError,
  ServerError,
  ConnectionError,
  type ClientErrorCode,
  type SiteAuditErrorCode,
  type SiteAuditErrorInit,
} from './errors.js';
export type {
  Campaign,
  Crawl,
  CrawledPage,
  DeliveryErrorReason,
  Export,
  Issue,
  IssueOccurrence,
  IssueSummary,
  Me,
  Operation,
  PageSpeedResult,
  Period,
  Positions,
  PositionsKeyword,
  Problem,
  Project,
  Scorecard,
  SearchConsole,
  Severity,
  Usage,
  Webhook,
  WebhookDelivery,
  WebhookEventType,
  WebhookWithSecret,
} from './resources.js';
export {
  verifyWebhook,
  WebhookVerificationError,
  type VerifyWebhookOptions,
  type WebhookEvent,
  type WebhookHeaders,
} from './webhooks.js';
export type {
  CallOptions,
  ClientOptions,
  DownloadedFile,
  EtagCache,
  EtagCacheEntry,
  IdempotentCallOptions,
  Input,
  ListMeta,
  ListPromise,
  Method,
  OperationId,
  Output,
  Page,
  RateLimitEvent,
  RateLimitInfo,
  RateLimitWindow,
  Resources,
  Result,
  RetryOptions,
} from './types.js';
