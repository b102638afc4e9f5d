/** orval's axios client (`client: 'axios'`, `headers: true`): functions over axios' default instance. */
import axios from 'axios';
import { getSiteAuditAPI, type CrawlChange, type CreateWebhookBodyEventsItem } from './orval/api';
import { recordAxios, settle } from './axios-record';
import type { Api, Setup } from './api';

/** The severity of a page change: typed `null` by the union on `kind`. */
export const pageSeverity = (c: CrawlChange): string | null => {
  if (c.kind === 'page_added' || c.kind === 'page_removed' || c.kind === 'status_changed') {
    const none: null = c.severity;
    return none;
  }
  return c.severity;
};

export function create(setup: Setup): Api {
  axios.defaults.baseURL = setup.baseUrl;
  axios.defaults.headers.common.Authorization = `Bearer ${setup.token}`;
  recordAxios(axios, setup);
  const api = getSiteAuditAPI();
  return {
    createWebhook: (url, events) => settle(api.createWebhook({ url, events: events as CreateWebhookBodyEventsItem[] })),
    testWebhook: (webhook) => settle(api.testWebhook(webhook)),
    createProject: (url, key) => settle(api.createProject({ url }, key ? { headers: { 'Idempotency-Key': key } } : undefined)),
    createProjectInvalid: async () => {
      const answer = await settle(api.createProject({ url: 'not a url' }));
      return answer;
    },
    listProjects: (limit, cursor) => settle(api.listProjects({ limit, cursor })),
    getProject: (project, etag) => settle(api.getProject(project, etag ? { headers: { 'If-None-Match': etag } } : undefined)),
    getMeAnonymous: () => settle(api.getMe({ headers: { Authorization: false } })),
    createCampaign: (project, name, start_url) => settle(api.createCampaign(project, { name, start_url, max_depth: 3, max_urls: 20, notify: true, regression_threshold: 'warning' })),
    deleteCampaign: (campaign) => settle(api.deleteCampaign(campaign)),
    launchCrawl: (campaign, key) => settle(api.launchCrawl(campaign, { 'Idempotency-Key': key })),
    getCrawl: (crawl) => settle(api.getCrawl(crawl)),
    listCrawlPages: (crawl, internal) => settle(api.listCrawlPages(crawl, { internal })),
    listCrawlPageInlinks: (crawl, url, limit, cursor) => settle(api.listCrawlPageInlinks(crawl, { url, limit, cursor })),
    listCrawlIssues: (crawl) => settle(api.listCrawlIssues(crawl)),
    getCrawlIssueSummary: (crawl) => settle(api.getCrawlIssueSummary(crawl)),
    listCrawlChanges: async (crawl) => {
      const response = await api.listCrawlChanges(crawl, { limit: 100 });
      const rows: CrawlChange[] = response.data.data;
      return { status: response.status, body: response.data, headers: {}, pageChangeSeverities: rows.filter((c) => !c.kind.startsWith('issue_')).map(pageSeverity) };
    },
    listCrawlRecommendations: (crawl) => settle(api.listCrawlRecommendations(crawl)),
    getScorecard: (project) => settle(api.getScorecard(project)),
    createExport: (crawl) => settle(api.createExport(crawl, { format: 'xlsx' })),
  };
}
