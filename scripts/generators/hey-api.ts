/** @hey-api/openapi-ts with its fetch client (`@hey-api/client-fetch`), the SDK functions it generates. */
import { createClient, createConfig } from './hey/client';
import * as sdk from './hey/sdk.gen';
import type { CrawlChange, CreateWebhookBody } from './hey/types.gen';
import { headersOf, type Api, type Setup } from './api';

/** The severity of a page change: typed `null` by the union on `kind`. */
export const pageSeverity = (c: CrawlChange): string | null => {
  if (c.kind === 'page_added' || c.kind === 'page_removed' || c.kind === 'status_changed') {
    const none: null = c.severity;
    return none;
  }
  return c.severity;
};

export function create(setup: Setup): Api {
  const client = createClient(createConfig({ baseUrl: setup.baseUrl, fetch: setup.fetch, headers: { Authorization: `Bearer ${setup.token}` } }));
  const anonymous = createClient(createConfig({ baseUrl: setup.baseUrl, fetch: setup.fetch }));
  const answer = (r: { response: Response; data?: unknown; error?: unknown }) => ({ status: r.response.status, body: r.data ?? r.error, headers: headersOf(r.response) });
  return {
    createWebhook: async (url, events) => answer(await sdk.createWebhook({ client, body: { url, events: events as CreateWebhookBody['events'] } })),
    testWebhook: async (webhook) => answer(await sdk.testWebhook({ client, path: { webhook } })),
    createProject: async (url, key) => answer(await sdk.createProject({ client, body: { url }, headers: key ? { 'Idempotency-Key': key } : {} })),
    createProjectInvalid: async () => {
      const r = await sdk.createProject({ client, body: { url: 'not a url' } });
      if (r.error && r.error.code === 'validation_failed' && 'errors' in r.error) void Object.keys(r.error.errors);
      return answer(r);
    },
    listProjects: async (limit, cursor) => answer(await sdk.listProjects({ client, query: { limit, cursor } })),
    // hey-api reads every non-2xx as an error, the declared 304 included: the body is then empty.
    getProject: async (project, etag) => answer(await sdk.getProject({ client, path: { project }, headers: etag ? { 'If-None-Match': etag } : {} })),
    getMeAnonymous: async () => answer(await sdk.getMe({ client: anonymous })),
    createCampaign: async (project, name, start_url) => answer(await sdk.createCampaign({ client, path: { project }, body: { name, start_url, max_depth: 3, max_urls: 20, notify: true, regression_threshold: 'warning' } })),
    deleteCampaign: async (campaign) => answer(await sdk.deleteCampaign({ client, path: { campaign } })),
    launchCrawl: async (campaign, key) => answer(await sdk.launchCrawl({ client, path: { campaign }, headers: { 'Idempotency-Key': key } })),
    getCrawl: async (crawl) => answer(await sdk.getCrawl({ client, path: { crawl } })),
    listCrawlPages: async (crawl, internal) => answer(await sdk.listCrawlPages({ client, path: { crawl }, query: { internal } })),
    listCrawlPageInlinks: async (crawl, url, limit, cursor) => answer(await sdk.listCrawlPageInlinks({ client, path: { crawl }, query: { url, limit, cursor } })),
    listCrawlIssues: async (crawl) => answer(await sdk.listCrawlIssues({ client, path: { crawl } })),
    getCrawlIssueSummary: async (crawl) => answer(await sdk.getCrawlIssueSummary({ client, path: { crawl } })),
    listCrawlChanges: async (crawl) => {
      const r = await sdk.listCrawlChanges({ client, path: { crawl }, query: { limit: 100 } });
      return { ...answer(r), pageChangeSeverities: (r.data?.data ?? []).filter((c) => !c.kind.startsWith('issue_')).map(pageSeverity) };
    },
    listCrawlRecommendations: async (crawl) => answer(await sdk.listCrawlRecommendations({ client, path: { crawl } })),
    getScorecard: async (project) => answer(await sdk.getScorecard({ client, path: { project } })),
    createExport: async (crawl) => answer(await sdk.createExport({ client, path: { crawl }, body: { format: 'xlsx' } })),
  };
}
