/**
 * The error codes each operation can answer: those of the common rules, derived from its
 * contract entry (authentication, plan, rate limit, role, scope, path, idempotency, body,
 * validation, cursor), plus its own business codes listed here, the one place that names them.
 * The OpenAPI document lists exactly these per operation; the server and the mock answer no other.
 */
import type { ErrorCode } from './errors.js';
import { ERRORS } from './errors.js';
import type { OperationId, OperationInfo } from './operations.js';

const POSITIONS: readonly ErrorCode[] = ['plan_limit.positions'];
const CAMPAIGN_SETTINGS: readonly ErrorCode[] = [
  'project.locked',
  'project.url_refused',
  'plan_limit.crawls.max_urls',
  'plan_limit.crawls.javascript_rendering',
  'plan_limit.crawls.schedule_frequency',
];
const SETTLED_CRAWL: readonly ErrorCode[] = ['crawl.not_settled'];

/** What each operation refuses beyond the common rules (its handler's own `ApiError`s). */
export const OPERATION_ERRORS: Record<OperationId, readonly ErrorCode[]> = {
  getMe: [],
  getUsage: [],
  listOperations: [],
  listProjects: [],
  createProject: ['plan_limit.projects', 'project.url_refused'],
  getProject: [],
  updateProject: ['project.locked', 'project.url_refused'],
  deleteProject: [],
  getScorecard: [],
  listCampaigns: [],
  createCampaign: CAMPAIGN_SETTINGS,
  getCampaign: [],
  updateCampaign: CAMPAIGN_SETTINGS,
  deleteCampaign: ['project.locked'],
  launchCrawl: ['project.locked', 'crawl.already_running', 'plan_limit.crawls.monthly'],
  listCrawls: [],
  getCrawl: [],
  listCrawlIssues: SETTLED_CRAWL,
  getCrawlIssueSummary: SETTLED_CRAWL,
  listCrawlPages: SETTLED_CRAWL,
  getCrawlPageByUrl: SETTLED_CRAWL,
  listCrawlPageInlinks: SETTLED_CRAWL,
  getCrawlPagespeed: SETTLED_CRAWL,
  listCrawlChanges: SETTLED_CRAWL,
  getCrawlChangesSummary: SETTLED_CRAWL,
  listCrawlRecommendations: SETTLED_CRAWL,
  createExport: ['crawl.not_finished', 'plan_limit.exports.excel'],
  getExport: [],
  downloadExport: ['export.not_ready', 'export.expired'],
  getPositions: POSITIONS,
  trackKeywords: [...POSITIONS, 'project.locked', 'plan_limit.positions.tracked_keywords', 'keywords.project_limit'],
  untrackKeywords: POSITIONS,
  pauseKeywords: [...POSITIONS, 'project.locked', 'keywords.not_tracked'],
  resumeKeywords: [...POSITIONS, 'project.locked', 'keywords.not_tracked', 'plan_limit.positions.tracked_keywords', 'keywords.project_limit'],
  checkKeyword: [
    ...POSITIONS,
    'project.locked',
    'keywords.not_tracked',
    'keywords.already_checked_today',
    'plan_limit.positions.live_checks_per_day',
    'plan_limit.positions.monthly_spend',
  ],
  getSearchConsole: ['plan_limit.search_console'],
  listWebhooks: [],
  createWebhook: ['plan_limit.api.webhooks.max', 'webhook.url_refused'],
  getWebhook: [],
  updateWebhook: ['webhook.url_refused'],
  deleteWebhook: [],
  rotateWebhookSecret: [],
  testWebhook: [],
  listWebhookDeliveries: [],
  createLogImport: ['project.locked', 'plan_limit.logs', 'log_import.duplicate', 'log_import.too_large', 'log_import.unsupported_media_type'],
  listLogImports: [],
  getLogImport: [],
  deleteLogImport: ['project.locked'],
  getLogInsights: [],
  listLogUrls: [],
  listLogDays: [],
  listLogFindings: [],
};

/** What `operationErrorCodes` reads of an operation: its HTTP rules and whether it takes a body. */
export type ErrorSource = Pick<OperationInfo, 'method' | 'path' | 'scope' | 'idempotency' | 'kind' | 'adminOnly' | 'billingExempt'> & {
  readonly id: OperationId;
  readonly hasBody: boolean;
};

/**
 * Every code an operation can answer, in catalogue order. `request.malformed` (400) and
 * `request.headers_too_large` (431) come from Node before any route and `method_not_allowed`
 * (405) from a method the path does not route: they belong to no operation.
 */
export function operationErrorCodes(op: ErrorSource): ErrorCode[] {
  const codes = new Set<ErrorCode>(['unauthenticated', 'api.not_in_plan', 'rate_limited', 'validation_failed', 'internal_error', 'service_unavailable']);
  if (op.method !== 'GET' && !op.billingExempt) codes.add('api.write_not_in_plan');
  if (op.adminOnly) codes.add('role.forbidden');
  if (op.scope) codes.add('token.missing_scope');
  if (op.path.includes(':')) codes.add('not_found');
  if (op.kind === 'list') codes.add('pagination.invalid_cursor');
  if (op.idempotency !== 'none') {
    if (op.idempotency === 'required') codes.add('idempotency.key_required');
    for (const code of ['idempotency.key_invalid', 'idempotency.key_in_use', 'idempotency.key_reused'] as const) codes.add(code);
  }
  if (op.hasBody) for (const code of ['request.malformed_json', 'request.too_large', 'request.unsupported_media_type'] as const) codes.add(code);
  for (const code of OPERATION_ERRORS[op.id]) codes.add(code);
  return (Object.keys(ERRORS) as ErrorCode[]).filter((code) => codes.has(code));
}
