/**
 * Every operation of the API with its HTTP rules, free of zod so that the SDK can read it in a
 * browser without the schemas. `contract.ts` joins each entry to its schemas; the server binder,
 * the client, the mock and the OpenAPI document are all derived from the two.
 */
import type { Scope } from './scopes.js';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';
/** `required`: refused without the header; `accepted`: honoured when sent; `none`: ignored. */
export type IdempotencyMode = 'required' | 'accepted' | 'none';

export interface OperationInfo {
  readonly method: HttpMethod;
  /** Express-style path: `/v1/projects/:project`. */
  readonly path: string;
  /** Required scope, or null for `none`. */
  readonly scope: Scope | null;
  /** Rate-limit units charged per call. */
  readonly cost: number;
  readonly idempotency: IdempotencyMode;
  readonly status: 200 | 201 | 202 | 204;
  /** Where the SDK exposes it: `['crawls', 'issues', 'summary']` → `client.crawls.issues.summary`. */
  readonly sdk: readonly string[];
  /** Response kind: a JSON body, a list with cursor meta, no body, or a file. */
  readonly kind: 'json' | 'list' | 'empty' | 'file';
  /** Reserved to owners and admins (webhooks). */
  readonly adminOnly?: boolean;
  /** "Never refused by billing" (docs/plans.md): allowed on a plan without API write access. */
  readonly billingExempt?: boolean;
  readonly summary: string;
  /**
   * Set on an operation beyond the spec: the decision record that describes it. The OpenAPI
   * document marks it (`x-extension`, and its description says so).
   */
  readonly extension?: string;
  /** The body is a file streamed as sent (a log upload), not JSON: `body` is null in the contract. */
  readonly upload?: boolean;
}

const op = <const T extends OperationInfo>(o: T) => o;

export const OPERATIONS = {
  // Account
  getMe: op({ method: 'GET', path: '/v1/me', scope: null, cost: 1, idempotency: 'none', status: 200, sdk: ['account', 'me'], kind: 'json', summary: 'Current token, user, team and plan' }),
  getUsage: op({ method: 'GET', path: '/v1/usage', scope: null, cost: 1, idempotency: 'none', status: 200, sdk: ['account', 'usage'], kind: 'json', summary: 'Rate limits and quotas' }),
  listOperations: op({ method: 'GET', path: '/v1/operations', scope: 'projects:read', cost: 1, idempotency: 'none', status: 200, sdk: ['account', 'operations'], kind: 'json', summary: 'Running operations of the team' }),
  // Projects
  listProjects: op({ method: 'GET', path: '/v1/projects', scope: 'projects:read', cost: 1, idempotency: 'none', status: 200, sdk: ['projects', 'list'], kind: 'list', summary: 'List projects, newest first' }),
  createProject: op({ method: 'POST', path: '/v1/projects', scope: 'projects:write', cost: 1, idempotency: 'accepted', status: 201, sdk: ['projects', 'create'], kind: 'json', summary: 'Create a project and its default campaign' }),
  getProject: op({ method: 'GET', path: '/v1/projects/:project', scope: 'projects:read', cost: 1, idempotency: 'none', status: 200, sdk: ['projects', 'get'], kind: 'json', summary: 'Read a project' }),
  updateProject: op({ method: 'PATCH', path: '/v1/projects/:project', scope: 'projects:write', cost: 1, idempotency: 'none', status: 200, sdk: ['projects', 'update'], kind: 'json', summary: 'Update a project' }),
  deleteProject: op({ method: 'DELETE', path: '/v1/projects/:project', scope: 'projects:write', cost: 1, idempotency: 'none', status: 204, sdk: ['projects', 'delete'], kind: 'empty', summary: 'Delete a project and everything it holds' }),
  getScorecard: op({ method: 'GET', path: '/v1/projects/:project/scorecard', scope: 'projects:read', cost: 5, idempotency: 'none', status: 200, sdk: ['projects', 'scorecard'], kind: 'json', summary: 'Health scorecard of a project' }),
  // Campaigns
  listCampaigns: op({ method: 'GET', path: '/v1/projects/:project/campaigns', scope: 'projects:read', cost: 1, idempotency: 'none', status: 200, sdk: ['campaigns', 'list'], kind: 'list', summary: 'List campaigns of a project, newest first' }),
  createCampaign: op({ method: 'POST', path: '/v1/projects/:project/campaigns', scope: 'projects:write', cost: 1, idempotency: 'accepted', status: 201, sdk: ['campaigns', 'create'], kind: 'json', summary: 'Create a campaign' }),
  getCampaign: op({ method: 'GET', path: '/v1/campaigns/:campaign', scope: 'projects:read', cost: 1, idempotency: 'none', status: 200, sdk: ['campaigns', 'get'], kind: 'json', summary: 'Read a campaign' }),
  updateCampaign: op({ method: 'PATCH', path: '/v1/campaigns/:campaign', scope: 'projects:write', cost: 1, idempotency: 'none', status: 200, sdk: ['campaigns', 'update'], kind: 'json', summary: 'Update a campaign (partial)' }),
  deleteCampaign: op({ method: 'DELETE', path: '/v1/campaigns/:campaign', scope: 'projects:write', cost: 1, idempotency: 'none', status: 204, sdk: ['campaigns', 'delete'], kind: 'empty', summary: 'Delete a campaign and its crawls' }),
  // Crawls
  launchCrawl: op({ method: 'POST', path: '/v1/campaigns/:campaign/crawls', scope: 'crawls:write', cost: 1, idempotency: 'required', status: 202, sdk: ['crawls', 'launch'], kind: 'json', summary: 'Launch a crawl of a campaign' }),
  listCrawls: op({ method: 'GET', path: '/v1/projects/:project/crawls', scope: 'crawls:read', cost: 1, idempotency: 'none', status: 200, sdk: ['crawls', 'list'], kind: 'list', summary: 'List crawls of a project, newest first' }),
  getCrawl: op({ method: 'GET', path: '/v1/crawls/:crawl', scope: 'crawls:read', cost: 1, idempotency: 'none', status: 200, sdk: ['crawls', 'get'], kind: 'json', summary: 'Read a crawl' }),
  listCrawlIssues: op({ method: 'GET', path: '/v1/crawls/:crawl/issues', scope: 'crawls:read', cost: 1, idempotency: 'none', status: 200, sdk: ['crawls', 'issues', 'list'], kind: 'list', summary: 'List issue occurrences of a crawl' }),
  getCrawlIssueSummary: op({ method: 'GET', path: '/v1/crawls/:crawl/issues/summary', scope: 'crawls:read', cost: 5, idempotency: 'none', status: 200, sdk: ['crawls', 'issues', 'summary'], kind: 'json', summary: 'Issue summary of a crawl' }),
  listCrawlPages: op({ method: 'GET', path: '/v1/crawls/:crawl/pages', scope: 'crawls:read', cost: 1, idempotency: 'none', status: 200, sdk: ['crawls', 'pages', 'list'], kind: 'list', summary: 'List crawled pages' }),
  getCrawlPageByUrl: op({ method: 'GET', path: '/v1/crawls/:crawl/pages/by-url', scope: 'crawls:read', cost: 1, idempotency: 'none', status: 200, sdk: ['crawls', 'pages', 'byUrl'], kind: 'json', summary: 'Read a crawled page and its issues by URL' }),
  // A page's inlinks: an extension (docs/decisions/crawl-reads.md)
  listCrawlPageInlinks: op({ method: 'GET', path: '/v1/crawls/:crawl/pages/inlinks', scope: 'crawls:read', cost: 1, idempotency: 'none', status: 200, sdk: ['crawls', 'pages', 'inlinks'], kind: 'list', summary: 'List the internal links to a crawled page, with their anchor text', extension: 'docs/decisions/crawl-reads.md' }),
  getCrawlPagespeed: op({ method: 'GET', path: '/v1/crawls/:crawl/pagespeed', scope: 'crawls:read', cost: 1, idempotency: 'none', status: 200, sdk: ['crawls', 'pagespeed'], kind: 'json', summary: 'PageSpeed result of a crawl' }),
  // Crawl changes and recommendations: extensions (docs/decisions/crawl-changes.md)
  listCrawlChanges: op({ method: 'GET', path: '/v1/crawls/:crawl/changes', scope: 'crawls:read', cost: 1, idempotency: 'none', status: 200, sdk: ['crawls', 'changes', 'list'], kind: 'list', summary: 'List what changed since the previous comparable crawl', extension: 'docs/decisions/crawl-changes.md' }),
  getCrawlChangesSummary: op({ method: 'GET', path: '/v1/crawls/:crawl/changes/summary', scope: 'crawls:read', cost: 5, idempotency: 'none', status: 200, sdk: ['crawls', 'changes', 'summary'], kind: 'json', summary: 'Summary of what changed since the previous comparable crawl', extension: 'docs/decisions/crawl-changes.md' }),
  listCrawlRecommendations: op({ method: 'GET', path: '/v1/crawls/:crawl/recommendations', scope: 'crawls:read', cost: 5, idempotency: 'none', status: 200, sdk: ['crawls', 'recommendations'], kind: 'list', summary: 'Prioritised fix list of a crawl, highest impact first', extension: 'docs/decisions/crawl-changes.md' }),
  // Exports
  createExport: op({ method: 'POST', path: '/v1/crawls/:crawl/exports', scope: 'exports:write', cost: 10, idempotency: 'accepted', status: 202, sdk: ['exports', 'create'], kind: 'json', summary: 'Request a PDF or Excel export of a crawl' }),
  getExport: op({ method: 'GET', path: '/v1/exports/:export', scope: 'crawls:read', cost: 1, idempotency: 'none', status: 200, sdk: ['exports', 'get'], kind: 'json', summary: 'Read an export' }),
  downloadExport: op({ method: 'GET', path: '/v1/exports/:export/download', scope: 'crawls:read', cost: 1, idempotency: 'none', status: 200, sdk: ['exports', 'download'], kind: 'file', summary: 'Download an export file' }),
  // Rank tracking and Search Console
  getPositions: op({ method: 'GET', path: '/v1/projects/:project/positions', scope: 'positions:read', cost: 5, idempotency: 'none', status: 200, sdk: ['positions', 'get'], kind: 'json', summary: 'Rank tracking of a project' }),
  trackKeywords: op({ method: 'POST', path: '/v1/projects/:project/tracked-keywords', scope: 'positions:write', cost: 1, idempotency: 'required', status: 200, sdk: ['positions', 'track'], kind: 'json', summary: 'Track keywords' }),
  untrackKeywords: op({ method: 'POST', path: '/v1/projects/:project/tracked-keywords/untrack', scope: 'positions:write', cost: 1, idempotency: 'accepted', status: 200, sdk: ['positions', 'untrack'], kind: 'json', billingExempt: true, summary: 'Stop tracking keywords' }),
  pauseKeywords: op({ method: 'POST', path: '/v1/projects/:project/tracked-keywords/pause', scope: 'positions:write', cost: 1, idempotency: 'accepted', status: 200, sdk: ['positions', 'pause'], kind: 'json', summary: 'Pause tracked keywords' }),
  resumeKeywords: op({ method: 'POST', path: '/v1/projects/:project/tracked-keywords/resume', scope: 'positions:write', cost: 1, idempotency: 'required', status: 200, sdk: ['positions', 'resume'], kind: 'json', summary: 'Resume paused keywords' }),
  checkKeyword: op({ method: 'POST', path: '/v1/projects/:project/tracked-keywords/check', scope: 'positions:write', cost: 1, idempotency: 'required', status: 202, sdk: ['positions', 'check'], kind: 'json', summary: 'Queue one immediate check of a keyword' }),
  getSearchConsole: op({ method: 'GET', path: '/v1/projects/:project/search-console', scope: 'search_console:read', cost: 5, idempotency: 'none', status: 200, sdk: ['searchConsole', 'get'], kind: 'json', summary: 'Search Console data of a project' }),
  // Webhooks (owners and admins only)
  listWebhooks: op({ method: 'GET', path: '/v1/webhooks', scope: 'webhooks:read', cost: 1, idempotency: 'none', status: 200, sdk: ['webhooks', 'list'], kind: 'list', adminOnly: true, summary: 'List webhook subscriptions' }),
  createWebhook: op({ method: 'POST', path: '/v1/webhooks', scope: 'webhooks:write', cost: 1, idempotency: 'none', status: 201, sdk: ['webhooks', 'create'], kind: 'json', adminOnly: true, summary: 'Create a webhook subscription' }),
  getWebhook: op({ method: 'GET', path: '/v1/webhooks/:webhook', scope: 'webhooks:read', cost: 1, idempotency: 'none', status: 200, sdk: ['webhooks', 'get'], kind: 'json', adminOnly: true, summary: 'Read a webhook subscription' }),
  updateWebhook: op({ method: 'PATCH', path: '/v1/webhooks/:webhook', scope: 'webhooks:write', cost: 1, idempotency: 'none', status: 200, sdk: ['webhooks', 'update'], kind: 'json', adminOnly: true, summary: 'Update a webhook subscription' }),
  deleteWebhook: op({ method: 'DELETE', path: '/v1/webhooks/:webhook', scope: 'webhooks:write', cost: 1, idempotency: 'none', status: 204, sdk: ['webhooks', 'delete'], kind: 'empty', adminOnly: true, billingExempt: true, summary: 'Delete a webhook subscription and its delivery log' }),
  rotateWebhookSecret: op({ method: 'POST', path: '/v1/webhooks/:webhook/rotate-secret', scope: 'webhooks:write', cost: 1, idempotency: 'none', status: 200, sdk: ['webhooks', 'rotateSecret'], kind: 'json', adminOnly: true, summary: 'Rotate the signing secret' }),
  testWebhook: op({ method: 'POST', path: '/v1/webhooks/:webhook/test', scope: 'webhooks:write', cost: 1, idempotency: 'accepted', status: 202, sdk: ['webhooks', 'test'], kind: 'json', adminOnly: true, summary: 'Queue a signed webhook.test event' }),
  listWebhookDeliveries: op({ method: 'GET', path: '/v1/webhooks/:webhook/deliveries', scope: 'webhooks:read', cost: 1, idempotency: 'none', status: 200, sdk: ['webhooks', 'deliveries'], kind: 'list', adminOnly: true, summary: 'List deliveries, most recent first' }),
  // Log exploration (extension, docs/decisions/logs.md)
  createLogImport: op({ method: 'POST', path: '/v1/projects/:project/log-imports', scope: 'projects:write', cost: 10, idempotency: 'accepted', status: 202, sdk: ['logs', 'imports', 'create'], kind: 'json', upload: true, extension: 'docs/decisions/logs.md', summary: 'Upload an access log (plain or gzip) for parsing' }),
  listLogImports: op({ method: 'GET', path: '/v1/projects/:project/log-imports', scope: 'projects:read', cost: 1, idempotency: 'none', status: 200, sdk: ['logs', 'imports', 'list'], kind: 'list', extension: 'docs/decisions/logs.md', summary: 'List log imports of a project, newest first' }),
  getLogImport: op({ method: 'GET', path: '/v1/projects/:project/log-imports/:import', scope: 'projects:read', cost: 1, idempotency: 'none', status: 200, sdk: ['logs', 'imports', 'get'], kind: 'json', extension: 'docs/decisions/logs.md', summary: 'Read a log import' }),
  deleteLogImport: op({ method: 'DELETE', path: '/v1/projects/:project/log-imports/:import', scope: 'projects:write', cost: 1, idempotency: 'none', status: 204, sdk: ['logs', 'imports', 'delete'], kind: 'empty', extension: 'docs/decisions/logs.md', summary: 'Delete a log import: its figures leave every read, its file is removed' }),
  getLogInsights: op({ method: 'GET', path: '/v1/projects/:project/logs/insights', scope: 'projects:read', cost: 5, idempotency: 'none', status: 200, sdk: ['logs', 'insights'], kind: 'json', extension: 'docs/decisions/logs.md', summary: 'Bot activity and crawl budget, joined with the latest crawl' }),
  listLogUrls: op({ method: 'GET', path: '/v1/projects/:project/logs/urls', scope: 'projects:read', cost: 1, idempotency: 'none', status: 200, sdk: ['logs', 'urls'], kind: 'list', extension: 'docs/decisions/logs.md', summary: 'Hits per URL and bot family' }),
  listLogDays: op({ method: 'GET', path: '/v1/projects/:project/logs/days', scope: 'projects:read', cost: 1, idempotency: 'none', status: 200, sdk: ['logs', 'days'], kind: 'list', extension: 'docs/decisions/logs.md', summary: 'Hits per day, family and status class' }),
  listLogFindings: op({ method: 'GET', path: '/v1/projects/:project/logs/findings', scope: 'projects:read', cost: 1, idempotency: 'none', status: 200, sdk: ['logs', 'findings'], kind: 'list', extension: 'docs/decisions/logs.md', summary: 'URLs bots visit that the crawl did not find, indexable pages no bot visited' }),
} as const satisfies Record<string, OperationInfo>;

export type OperationId = keyof typeof OPERATIONS;
/** The operations the SDK groups under `area` (`client.crawls.*`): what one module of the server and of the mock answers. */
export type OperationsOf<Area extends string> = { [K in OperationId]: (typeof OPERATIONS)[K]['sdk'][0] extends Area ? K : never }[OperationId];
export const OPERATION_IDS = Object.keys(OPERATIONS) as OperationId[];

/** `/v1/projects/:project` → `/v1/projects/{project}` (OpenAPI's notation). */
export function templatePath(path: string): string {
  return path.replace(/:([a-z_]+)/g, '{$1}');
}

/** Fills `:name` segments, URL-encoding each value. */
export function fillPath(path: string, params: Record<string, string>): string {
  return path.replace(/:([a-z_]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new TypeError(`Missing path parameter "${name}"`);
    return encodeURIComponent(value);
  });
}
