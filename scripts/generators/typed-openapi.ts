/** typed-openapi (default runtime: types only) with the `Fetcher` an integrator writes, as in its example. */
import { createApiClient, type Fetcher, type Schemas } from './typed/api';
import { headersOf, type Api, type Setup } from './api';

/** The severity of a page change: typed `null` by the union on `kind`. */
export const pageSeverity = (c: Schemas.CrawlChange): string | null => {
  if (c.kind === 'page_added' || c.kind === 'page_removed' || c.kind === 'status_changed') {
    const none: null = c.severity;
    return none;
  }
  return c.severity;
};

export function create(setup: Setup): Api {
  const fetcher = (token: string | null): Fetcher => ({
    fetch: async ({ method, url, urlSearchParams, parameters, overrides }) => {
      if (urlSearchParams) url.search = urlSearchParams.toString();
      const { body, header } = (parameters ?? {}) as { body?: unknown; header?: Record<string, string> };
      const headers = new Headers(overrides?.headers);
      if (token) headers.set('Authorization', `Bearer ${token}`);
      for (const [name, value] of Object.entries(header ?? {})) headers.set(name, value);
      if (body !== undefined) headers.set('Content-Type', 'application/json');
      return setup.fetch(url, { ...overrides, method: method.toUpperCase(), headers, body: body === undefined ? undefined : JSON.stringify(body) });
    },
  });
  const api = createApiClient(fetcher(setup.token), setup.baseUrl);
  const anonymous = createApiClient(fetcher(null), setup.baseUrl);
  const answer = (r: { status: number; data: unknown }) => ({ status: r.status, body: r.data, headers: headersOf(r as unknown as Response) });
  // typed-openapi 2.2.7 makes `query` required on every operation with query parameters, all optional
  // ones too: those calls pass `query: {}`.
  const also = (headers: Record<string, string>) => ({ overrides: { headers } });
  return {
    createWebhook: async (url, events) =>
      answer(await api.post('/v1/webhooks', { body: { url, events: events as Schemas.CreateWebhookBody['events'] }, withResponse: true })),
    testWebhook: async (webhook) => answer(await api.post('/v1/webhooks/{webhook}/test', { path: { webhook }, body: {}, withResponse: true })),
    createProject: async (url, key) => answer(await api.post('/v1/projects', { body: { url }, ...also(key ? { 'Idempotency-Key': key } : {}), withResponse: true })),
    createProjectInvalid: async () => {
      const r = await api.post('/v1/projects', { body: { url: 'not a url' }, withResponse: true });
      // `errors` is always sent with validation_failed: required in ValidationProblem.
      if (r.status === 422 && r.data.code === 'validation_failed') void Object.keys(r.data.errors);
      return answer(r);
    },
    listProjects: async (limit, cursor) => answer(await api.get('/v1/projects', { query: { limit, cursor }, withResponse: true })),
    getProject: async (project, etag) => answer(await api.get('/v1/projects/{project}', { path: { project }, ...also(etag ? { 'If-None-Match': etag } : {}), withResponse: true })),
    getMeAnonymous: async () => answer(await anonymous.get('/v1/me', { withResponse: true })),
    createCampaign: async (project, name, start_url) =>
      answer(await api.post('/v1/projects/{project}/campaigns', { path: { project }, body: { name, start_url, max_depth: 3, max_urls: 20, notify: true, regression_threshold: 'warning' }, withResponse: true })),
    deleteCampaign: async (campaign) => answer(await api.delete('/v1/campaigns/{campaign}', { path: { campaign }, withResponse: true })),
    launchCrawl: async (campaign, key) =>
      answer(await api.post('/v1/campaigns/{campaign}/crawls', { path: { campaign }, header: { 'Idempotency-Key': key }, body: {}, withResponse: true })),
    getCrawl: async (crawl) => answer(await api.get('/v1/crawls/{crawl}', { path: { crawl }, withResponse: true })),
    listCrawlPages: async (crawl, internal) => answer(await api.get('/v1/crawls/{crawl}/pages', { path: { crawl }, query: { internal }, withResponse: true })),
    listCrawlPageInlinks: async (crawl, url, limit, cursor) =>
      answer(await api.get('/v1/crawls/{crawl}/pages/inlinks', { path: { crawl }, query: { url, limit, cursor }, withResponse: true })),
    listCrawlIssues: async (crawl) => answer(await api.get('/v1/crawls/{crawl}/issues', { path: { crawl }, query: {}, withResponse: true })),
    getCrawlIssueSummary: async (crawl) => answer(await api.get('/v1/crawls/{crawl}/issues/summary', { path: { crawl }, withResponse: true })),
    listCrawlChanges: async (crawl) => {
      const r = await api.get('/v1/crawls/{crawl}/changes', { path: { crawl }, query: { limit: 100 }, withResponse: true });
      // A declared 304 is a success for typed-openapi (3xx): its body is unknown.
      const rows: Schemas.CrawlChange[] = r.status === 200 ? r.data.data : [];
      return { ...answer(r), pageChangeSeverities: rows.filter((c) => !c.kind.startsWith('issue_')).map(pageSeverity) };
    },
    listCrawlRecommendations: async (crawl) => answer(await api.get('/v1/crawls/{crawl}/recommendations', { path: { crawl }, query: {}, withResponse: true })),
    getScorecard: async (project) => answer(await api.get('/v1/projects/{project}/scorecard', { path: { project }, withResponse: true })),
    createExport: async (crawl) => answer(await api.post('/v1/crawls/{crawl}/exports', { path: { crawl }, body: { format: 'xlsx' }, withResponse: true })),
  };
}
