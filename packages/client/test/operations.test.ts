import { OPERATIONS, OPERATION_IDS, type OperationId, type OperationInfo } from '@siteaudit/schema/operations';
import { describe, expect, it } from 'vitest';
import { createClient, type Input } from '../src/index.js';
import { UUID, fakeFetch, ids, json } from './fake-fetch.js';

const { project, campaign, crawl, webhook } = ids;
const exportId = ids.export;

interface Sample<K extends OperationId> {
  input: Input<K>;
  /** Expected path, written by hand from the spec (not computed from the table). */
  path: string;
  query?: Record<string, string>;
  body?: unknown;
}

const LOG_BYTES = new Uint8Array([0x1f, 0x8b, 8, 0]);
const campaignBody = { name: 'Weekly', start_url: 'https://example.com/', max_depth: 5, max_urls: 500, schedule: { frequency: 'weekly' as const, day: 'monday', time: '06:00' } };

/** One call of each of the 52 operations, and the request it must produce. */
const SAMPLES: { [K in OperationId]: Sample<K> } = {
  getMe: { input: {}, path: '/v1/me' },
  getUsage: { input: {}, path: '/v1/usage' },
  listOperations: { input: {}, path: '/v1/operations' },

  listProjects: { input: { limit: 10 }, path: '/v1/projects', query: { limit: '10' } },
  createProject: { input: { url: 'https://example.com', name: null }, path: '/v1/projects', body: { url: 'https://example.com', name: null } },
  getProject: { input: { project }, path: `/v1/projects/${project}` },
  updateProject: { input: { project, name: 'Renamed' }, path: `/v1/projects/${project}`, body: { name: 'Renamed' } },
  deleteProject: { input: { project }, path: `/v1/projects/${project}` },
  getScorecard: { input: { project }, path: `/v1/projects/${project}/scorecard` },

  listCampaigns: { input: { project, cursor: 'abc' }, path: `/v1/projects/${project}/campaigns`, query: { cursor: 'abc' } },
  createCampaign: { input: { project, ...campaignBody }, path: `/v1/projects/${project}/campaigns`, body: campaignBody },
  getCampaign: { input: { campaign }, path: `/v1/campaigns/${campaign}` },
  updateCampaign: { input: { campaign, max_urls: 1000, http_password: null }, path: `/v1/campaigns/${campaign}`, body: { max_urls: 1000, http_password: null } },
  deleteCampaign: { input: { campaign }, path: `/v1/campaigns/${campaign}` },

  launchCrawl: { input: { campaign }, path: `/v1/campaigns/${campaign}/crawls` },
  listCrawls: { input: { project }, path: `/v1/projects/${project}/crawls` },
  getCrawl: { input: { crawl }, path: `/v1/crawls/${crawl}` },
  listCrawlIssues: {
    input: { crawl, severity: 'error', category: 'links', name: 'Broken link', limit: 50 },
    path: `/v1/crawls/${crawl}/issues`,
    query: { severity: 'error', category: 'links', name: 'Broken link', limit: '50' },
  },
  getCrawlIssueSummary: { input: { crawl }, path: `/v1/crawls/${crawl}/issues/summary` },
  listCrawlPages: { input: { crawl, status: '4xx', internal: true }, path: `/v1/crawls/${crawl}/pages`, query: { status: '4xx', internal: 'true' } },
  getCrawlPageByUrl: { input: { crawl, url: 'https://example.com/a?b=1&c=d' }, path: `/v1/crawls/${crawl}/pages/by-url`, query: { url: 'https://example.com/a?b=1&c=d' } },
  listCrawlPageInlinks: { input: { crawl, url: 'https://example.com/a', limit: 5 }, path: `/v1/crawls/${crawl}/pages/inlinks`, query: { url: 'https://example.com/a', limit: '5' } },
  getCrawlPagespeed: { input: { crawl }, path: `/v1/crawls/${crawl}/pagespeed` },
  listCrawlChanges: { input: { crawl, kind: 'issue_new', limit: 10 }, path: `/v1/crawls/${crawl}/changes`, query: { kind: 'issue_new', limit: '10' } },
  getCrawlChangesSummary: { input: { crawl }, path: `/v1/crawls/${crawl}/changes/summary` },
  listCrawlRecommendations: { input: { crawl }, path: `/v1/crawls/${crawl}/recommendations` },

  createExport: { input: { crawl, format: 'pdf' }, path: `/v1/crawls/${crawl}/exports`, body: { format: 'pdf' } },
  getExport: { input: { export: exportId }, path: `/v1/exports/${exportId}` },
  downloadExport: { input: { export: exportId }, path: `/v1/exports/${exportId}/download` },

  getPositions: { input: { project, period: '28d' }, path: `/v1/projects/${project}/positions`, query: { period: '28d' } },
  trackKeywords: { input: { project, keywords: ['seo audit', 'crawler'] }, path: `/v1/projects/${project}/tracked-keywords`, body: { keywords: ['seo audit', 'crawler'] } },
  untrackKeywords: { input: { project, keywords: ['crawler'] }, path: `/v1/projects/${project}/tracked-keywords/untrack`, body: { keywords: ['crawler'] } },
  pauseKeywords: { input: { project, keywords: ['crawler'] }, path: `/v1/projects/${project}/tracked-keywords/pause`, body: { keywords: ['crawler'] } },
  resumeKeywords: { input: { project, keywords: ['crawler'] }, path: `/v1/projects/${project}/tracked-keywords/resume`, body: { keywords: ['crawler'] } },
  checkKeyword: { input: { project, keyword: 'seo audit' }, path: `/v1/projects/${project}/tracked-keywords/check`, body: { keyword: 'seo audit' } },
  getSearchConsole: { input: { project }, path: `/v1/projects/${project}/search-console` },

  listWebhooks: { input: {}, path: '/v1/webhooks' },
  createWebhook: {
    input: { url: 'https://hooks.example.com/siteaudit', events: ['crawl.completed'], description: 'CI' },
    path: '/v1/webhooks',
    body: { url: 'https://hooks.example.com/siteaudit', events: ['crawl.completed'], description: 'CI' },
  },
  getWebhook: { input: { webhook }, path: `/v1/webhooks/${webhook}` },
  updateWebhook: { input: { webhook, active: true }, path: `/v1/webhooks/${webhook}`, body: { active: true } },
  deleteWebhook: { input: { webhook }, path: `/v1/webhooks/${webhook}` },
  rotateWebhookSecret: { input: { webhook }, path: `/v1/webhooks/${webhook}/rotate-secret` },
  testWebhook: { input: { webhook }, path: `/v1/webhooks/${webhook}/test` },
  listWebhookDeliveries: { input: { webhook, limit: 100 }, path: `/v1/webhooks/${webhook}/deliveries`, query: { limit: '100' } },
  // The upload's body is the file as given (bytes here), never JSON.
  createLogImport: { input: { project, file: LOG_BYTES, content_type: 'application/gzip' }, path: `/v1/projects/${project}/log-imports`, body: LOG_BYTES },
  listLogImports: { input: { project }, path: `/v1/projects/${project}/log-imports` },
  getLogImport: { input: { project, import: project }, path: `/v1/projects/${project}/log-imports/${project}` },
  deleteLogImport: { input: { project, import: project }, path: `/v1/projects/${project}/log-imports/${project}` },
  getLogInsights: { input: { project }, path: `/v1/projects/${project}/logs/insights` },
  listLogUrls: { input: { project, family: 'googlebot' }, path: `/v1/projects/${project}/logs/urls`, query: { family: 'googlebot' } },
  listLogDays: { input: { project }, path: `/v1/projects/${project}/logs/days` },
  listLogFindings: { input: { project, kind: 'not_in_crawl' }, path: `/v1/projects/${project}/logs/findings`, query: { kind: 'not_in_crawl' } },
};

/** The answer each kind of operation gets from the fake server. */
function answer(id: OperationId): Response {
  const op = OPERATIONS[id];
  if (op.kind === 'empty') return json(204);
  if (op.kind === 'file') return new Response('%PDF-1.7', { status: 200, headers: { 'content-type': 'application/pdf' } });
  if (op.kind === 'list') return json(200, { data: [], meta: { limit: 25, has_more: false, next_cursor: null } });
  return json(op.status, { data: { ok: true } });
}

/** Calls an operation through its resource method (`client.crawls.issues.summary`), as a user would. */
function method(client: object, id: OperationId): (input?: object, options?: object) => Promise<unknown> {
  let node: any = client;
  for (const segment of OPERATIONS[id].sdk) node = node[segment];
  expect(node, `client.${OPERATIONS[id].sdk.join('.')}`).toBeTypeOf('function');
  return node;
}

function setup(id: OperationId) {
  const fake = fakeFetch(answer(id));
  const client = createClient({ baseUrl: 'https://api.test/', token: 'sat_secret', language: 'en', fetch: fake.fetch, retries: 0 });
  return { fake, client };
}

describe('every operation builds its request', () => {
  it('has a sample for each of the 52 operations', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual([...OPERATION_IDS].sort());
    expect(OPERATION_IDS).toHaveLength(52);
  });

  it.each(OPERATION_IDS)('%s', async (id) => {
    const op = OPERATIONS[id];
    const sample = SAMPLES[id] as Sample<OperationId>;
    const { fake, client } = setup(id);
    await method(client, id)(sample.input);

    expect(fake.requests).toHaveLength(1);
    const [req] = fake.requests;
    expect(req!.method).toBe(op.method);
    expect(req!.url.origin + req!.url.pathname).toBe(`https://api.test${sample.path}`);
    expect(Object.fromEntries(req!.url.searchParams)).toEqual(sample.query ?? {});
    expect(req!.body).toEqual(sample.body);
    expect(req!.headers['content-type']).toBe((op as OperationInfo).upload ? 'application/gzip' : sample.body === undefined ? undefined : 'application/json');
    expect(req!.headers.authorization).toBe('Bearer sat_secret');
    expect(req!.headers['accept-language']).toBe('en');
    expect(req!.headers.accept).toBe(op.kind === 'file' ? undefined : 'application/json');
    if (op.idempotency === 'required') expect(req!.headers['idempotency-key']).toMatch(UUID);
    else expect(req!.headers['idempotency-key']).toBeUndefined();
    expect(req!.headers['if-none-match']).toBeUndefined();
  });

  it.each(OPERATION_IDS)('%s: a given idempotency key is sent only where the operation honours one', async (id) => {
    const { fake, client } = setup(id);
    await method(client, id)((SAMPLES[id] as Sample<OperationId>).input, { idempotencyKey: 'order-42' });
    const expected = OPERATIONS[id].idempotency === 'none' ? undefined : 'order-42';
    expect(fake.requests[0]!.headers['idempotency-key']).toBe(expected);
  });
});

describe('request shape', () => {
  it('generates a new key for each call of a required-key operation', async () => {
    const { fake, client } = setup('launchCrawl');
    await client.crawls.launch({ campaign });
    await client.crawls.launch({ campaign });
    const [a, b] = fake.requests.map((r) => r.headers['idempotency-key']);
    expect(a).toMatch(UUID);
    expect(b).toMatch(UUID);
    expect(a).not.toBe(b);
  });

  it('keeps a base URL path prefix, sends the user agent and lets per-call headers win', async () => {
    const fake = fakeFetch(json(200, { data: {} }));
    const client = createClient({ baseUrl: 'https://gw.test/siteaudit///', token: 't', userAgent: 'ci-bot/1.0', fetch: fake.fetch });
    await client.projects.get({ project }, { headers: { 'Accept-Language': 'fr', 'X-Trace': '1' } });
    const req = fake.requests[0]!;
    expect(req.url.href).toBe(`https://gw.test/siteaudit/v1/projects/${project}`);
    expect(req.headers['user-agent']).toBe('ci-bot/1.0');
    expect(req.headers['accept-language']).toBe('fr');
    expect(req.headers['x-trace']).toBe('1');
  });

  it('leaves Accept-Language to the server default when no language is set', async () => {
    const fake = fakeFetch(json(200, { data: {} }));
    await createClient({ baseUrl: 'https://api.test', token: 't', fetch: fake.fetch }).account.me();
    expect(fake.requests[0]!.headers['accept-language']).toBeUndefined();
  });

  it('encodes path parameters and refuses a missing one', async () => {
    const fake = fakeFetch(json(200, { data: {} }));
    const client = createClient({ baseUrl: 'https://api.test', token: 't', fetch: fake.fetch });
    await client.projects.get({ project: 'a/b c' });
    expect(fake.requests[0]!.url.pathname).toBe('/v1/projects/a%2Fb%20c');
    await expect(client.projects.get({} as never)).rejects.toThrow(/project/);
  });

  it('unwraps { data } answers, keeps { data, meta } ones whole, and resolves undefined on 204', async () => {
    const fake = fakeFetch(
      json(200, { data: { id: project, name: 'Example' } }),
      json(200, { data: [], meta: { total: 0, shown: 0 } }),
      json(204),
    );
    const client = createClient({ baseUrl: 'https://api.test', token: 't', fetch: fake.fetch });
    await expect(client.projects.get({ project })).resolves.toEqual({ id: project, name: 'Example' });
    await expect(client.account.operations()).resolves.toEqual({ data: [], meta: { total: 0, shown: 0 } });
    await expect(client.projects.delete({ project })).resolves.toBeUndefined();
  });

  it('calls any operation by id through request()', async () => {
    const fake = fakeFetch(json(200, { data: { id: crawl } }), json(200, { data: [{ id: 1 }], meta: { limit: 25, has_more: false, next_cursor: null } }));
    const client = createClient({ baseUrl: 'https://api.test', token: 't', fetch: fake.fetch });
    await expect(client.request('getCrawl', { crawl })).resolves.toEqual({ id: crawl });
    await expect(client.request('listProjects').toArray({ limit: 5 })).resolves.toEqual([{ id: 1 }]);
    expect(fake.requests.map((r) => r.url.pathname)).toEqual([`/v1/crawls/${crawl}`, '/v1/projects']);
  });
});
