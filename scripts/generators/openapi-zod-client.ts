/**
 * openapi-zod-client (defaults): a Zodios client whose every answer is validated at run time by
 * the generated zod schemas (a 2xx that does not match them throws), on an axios instance of ours.
 */
import axios, { type AxiosResponse } from 'axios';
import { createApiClient } from './zod/api';
import { recordAxios } from './axios-record';
import type { Answer, Api, Setup } from './api';

type Change = Awaited<ReturnType<ReturnType<typeof createApiClient>['listCrawlChanges']>>['data'][number];
type Events = Parameters<ReturnType<typeof createApiClient>['createWebhook']>[0]['events'];

/** The severity of a page change: typed `null` by the union on `kind`. */
export const pageSeverity = (c: Change): string | null => {
  if (c.kind === 'page_added' || c.kind === 'page_removed' || c.kind === 'status_changed') {
    const none: null = c.severity;
    return none;
  }
  return c.severity;
};

export function create(setup: Setup): Api {
  const instance = axios.create({ headers: { Authorization: `Bearer ${setup.token}` } });
  recordAxios(instance, setup);
  const api = createApiClient(setup.baseUrl, { axiosInstance: instance });
  const bare = axios.create();
  // Without a token, whatever axios' defaults say (orval's client sets them on the default instance).
  delete bare.defaults.headers.common.Authorization;
  recordAxios(bare, setup);
  const anonymous = createApiClient(setup.baseUrl, { axiosInstance: bare });
  // Zodios resolves with the validated body: the status and headers are those of the last answer.
  let last: AxiosResponse | undefined;
  for (const one of [instance, bare]) one.interceptors.response.use((response) => ((last = response), response));
  // A non-2xx (a 304 included) rejects with axios' error, which carries the answer.
  const ok = async (call: Promise<unknown>): Promise<Answer> => {
    try {
      const body = await call;
      return { status: last!.status, body, headers: Object.fromEntries(Object.entries(last!.headers).map(([k, v]) => [k.toLowerCase(), String(v)])) };
    } catch (error) {
      if (axios.isAxiosError(error) && error.response) return { status: error.response.status, body: error.response.data, headers: {} };
      throw error;
    }
  };
  /**
   * A refused call: Zodios rejects with axios' error. (`isErrorFromAlias` would type its body, but
   * over the document's 51 endpoints TypeScript gives up: "excessive stack depth".)
   */
  const refused = async (call: Promise<unknown>): Promise<Answer> => {
    try {
      await call;
    } catch (error) {
      if (axios.isAxiosError(error) && error.response) return { status: error.response.status, body: error.response.data, headers: {} };
      throw error;
    }
    throw new Error('an error status was expected');
  };
  return {
    createWebhook: (url, events) => ok(api.createWebhook({ url, events: events as Events })),
    testWebhook: (webhook) => ok(api.testWebhook({}, { params: { webhook } })),
    createProject: (url, key) => ok(api.createProject({ url }, key ? { headers: { 'Idempotency-Key': key } } : {})),
    createProjectInvalid: () => refused(api.createProject({ url: 'not a url' })),
    listProjects: (limit, cursor) => ok(api.listProjects({ queries: { limit, cursor } })),
    getProject: (project, etag) => ok(api.getProject({ params: { project }, headers: etag ? { 'If-None-Match': etag } : {} })),
    getMeAnonymous: () => refused(anonymous.getMe()),
    createCampaign: (project, name, start_url) => ok(api.createCampaign({ name, start_url, max_depth: 3, max_urls: 20, notify: true, regression_threshold: 'warning' }, { params: { project } })),
    deleteCampaign: (campaign) => ok(api.deleteCampaign(undefined, { params: { campaign } })),
    launchCrawl: (campaign, key) => ok(api.launchCrawl({}, { params: { campaign }, headers: { 'Idempotency-Key': key } })),
    getCrawl: (crawl) => ok(api.getCrawl({ params: { crawl } })),
    listCrawlPages: (crawl, internal) => ok(api.listCrawlPages({ params: { crawl }, queries: { internal } })),
    listCrawlPageInlinks: (crawl, url, limit, cursor) => ok(api.listCrawlPageInlinks({ params: { crawl }, queries: { url, limit, cursor } })),
    listCrawlIssues: (crawl) => ok(api.listCrawlIssues({ params: { crawl } })),
    getCrawlIssueSummary: (crawl) => ok(api.getCrawlIssueSummary({ params: { crawl } })),
    listCrawlChanges: async (crawl) => {
      const answer = await ok(api.listCrawlChanges({ params: { crawl }, queries: { limit: 100 } }));
      const rows: Change[] = (answer.body as { data: Change[] }).data;
      return { ...answer, pageChangeSeverities: rows.filter((c) => !c.kind.startsWith('issue_')).map(pageSeverity) };
    },
    listCrawlRecommendations: (crawl) => ok(api.listCrawlRecommendations({ params: { crawl } })),
    getScorecard: (project) => ok(api.getScorecard({ params: { project } })),
    createExport: (crawl) => ok(api.createExport({ format: 'xlsx' }, { params: { crawl } })),
  };
}
