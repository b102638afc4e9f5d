/** openapi-typescript types + openapi-fetch, as documented by both: `createClient<paths>`. */
import createClient from 'openapi-fetch';
import type { components, paths } from './ots/schema';
import { headersOf, type Api, type Setup } from './api';

type Schemas = components['schemas'];
type Events = Schemas['CreateWebhookBody']['events'];

/** The severity of a page change: typed `null` by the union on `kind`. */
export const pageSeverity = (c: Schemas['CrawlChange']): string | null => {
  if (c.kind === 'page_added' || c.kind === 'page_removed' || c.kind === 'status_changed') {
    const none: null = c.severity;
    return none;
  }
  return c.severity;
};

export function create(setup: Setup): Api {
  const client = createClient<paths>({ baseUrl: setup.baseUrl, fetch: setup.fetch, headers: { Authorization: `Bearer ${setup.token}` } });
  const anonymous = createClient<paths>({ baseUrl: setup.baseUrl, fetch: setup.fetch });
  const answer = <T extends { response: Response; data?: unknown; error?: unknown }>(r: T) => ({ status: r.response.status, body: r.data ?? r.error, headers: headersOf(r.response) });
  return {
    createWebhook: async (url, events) => answer(await client.POST('/v1/webhooks', { body: { url, events: events as Events } })),
    testWebhook: async (webhook) => answer(await client.POST('/v1/webhooks/{webhook}/test', { params: { path: { webhook } } })),
    createProject: async (url, key) => answer(await client.POST('/v1/projects', { body: { url }, headers: key ? { 'Idempotency-Key': key } : {} })),
    createProjectInvalid: async () => {
      const r = await client.POST('/v1/projects', { body: { url: 'not a url' } });
      if (r.error && 'errors' in r.error && r.error.code === 'validation_failed') {
        // `errors` is always sent with validation_failed: required in ValidationProblem.
        const fields: string[] = Object.keys(r.error.errors);
        void fields;
      }
      return answer(r);
    },
    listProjects: async (limit, cursor) => answer(await client.GET('/v1/projects', { params: { query: { limit, cursor } } })),
    getProject: async (project, etag) => answer(await client.GET('/v1/projects/{project}', { params: { path: { project } }, headers: etag ? { 'If-None-Match': etag } : {} })),
    getMeAnonymous: async () => answer(await anonymous.GET('/v1/me')),
    createCampaign: async (project, name, start_url) =>
      answer(await client.POST('/v1/projects/{project}/campaigns', { params: { path: { project } }, body: { name, start_url, max_depth: 3, max_urls: 20, notify: true, regression_threshold: 'warning' } })),
    deleteCampaign: async (campaign) => answer(await client.DELETE('/v1/campaigns/{campaign}', { params: { path: { campaign } } })),
    launchCrawl: async (campaign, key) => answer(await client.POST('/v1/campaigns/{campaign}/crawls', { params: { path: { campaign }, header: { 'Idempotency-Key': key } } })),
    getCrawl: async (crawl) => answer(await client.GET('/v1/crawls/{crawl}', { params: { path: { crawl } } })),
    listCrawlPages: async (crawl, internal) => answer(await client.GET('/v1/crawls/{crawl}/pages', { params: { path: { crawl }, query: { internal } } })),
    listCrawlPageInlinks: async (crawl, url, limit, cursor) =>
      answer(await client.GET('/v1/crawls/{crawl}/pages/inlinks', { params: { path: { crawl }, query: { url, limit, cursor } } })),
    listCrawlIssues: async (crawl) => answer(await client.GET('/v1/crawls/{crawl}/issues', { params: { path: { crawl } } })),
    getCrawlIssueSummary: async (crawl) => answer(await client.GET('/v1/crawls/{crawl}/issues/summary', { params: { path: { crawl } } })),
    listCrawlChanges: async (crawl) => {
      const r = await client.GET('/v1/crawls/{crawl}/changes', { params: { path: { crawl }, query: { limit: 100 } } });
      // openapi-fetch 0.17 reads answers through `Readable<T>` (openapi-typescript-helpers 0.1.0), which
      // drops every property typed exactly `null` (`NonNullable<null>` is never): a page change's
      // `severity` is not in `data`'s type, so the rows are read as the component's type.
      const rows = (r.data?.data ?? []) as Schemas['CrawlChange'][];
      return { ...answer(r), pageChangeSeverities: rows.filter((c) => !c.kind.startsWith('issue_')).map(pageSeverity) };
    },
    listCrawlRecommendations: async (crawl) => answer(await client.GET('/v1/crawls/{crawl}/recommendations', { params: { path: { crawl } } })),
    getScorecard: async (project) => answer(await client.GET('/v1/projects/{project}/scorecard', { params: { path: { project } } })),
    createExport: async (crawl) => answer(await client.POST('/v1/crawls/{crawl}/exports', { params: { path: { crawl } }, body: { format: 'xlsx' } })),
  };
}
