/**
 * docs/openapi.json as an integrator in another language uses it: clients generated with
 * openapi-typescript (+ openapi-fetch) and @hey-api/openapi-ts type-check under --strict with a
 * typed usage file, then run a short flow against a server started here. Every answer is
 * validated against the document (ajv, draft 2020-12), every webhook body as delivered against
 * `WebhookEvent` (docs/openapi-clients.md, docs/decisions/openapi-generation.md).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createClient as heyApiGenerate } from '@hey-api/openapi-ts';
import createFetchClient from 'openapi-fetch';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { OpenApiChecker, recordingFetch, type Exchange } from '../../../../tests/support/openapi-conformance.js';
import { startSite, type Site } from '../../../../tests/support/site.js';
import { startTlsReceiver, type TlsReceiver } from '../../../../tests/support/tls.js';

// Webhook URLs are https: the delivery trusts the local receiver's certificate.
vi.mock('undici', async (importOriginal) => {
  const actual = await importOriginal<typeof import('undici')>();
  const { TEST_CERT } = await import('../../../../tests/support/tls.js');
  const buildConnector: typeof actual.buildConnector = (options) => actual.buildConnector({ ...options, ca: [TEST_CERT] });
  return { ...actual, buildConnector };
});

const repo = fileURLToPath(new URL('../../../../', import.meta.url));
const document = path.join(repo, 'docs/openapi.json');
// Inside the repository (gitignored .siteaudit/), so that the generated files resolve openapi-fetch.
const out = path.join(repo, '.siteaudit', `openapi-clients-${process.pid}`);

/** Typed use of both clients: compiles only if the document types what the server does. */
const USAGE = `
import createClient from 'openapi-fetch';
import type { components, paths } from './ots/schema';
import { createClient as createHeyClient, createConfig } from './hey/client';
import { getProject, launchCrawl, listCrawlPages } from './hey/sdk.gen';
import type { CrawlChange, WebhookEvent, ValidationProblem, RateLimitedProblem, PlanProblem } from './hey/types.gen';

type Schemas = components['schemas'];
const client = createClient<paths>({ baseUrl: 'http://localhost' });

export async function typed(project: string, campaign: string, crawl: string): Promise<void> {
  // No header argument on a read: Accept-Language and If-None-Match are optional.
  const read = await client.GET('/v1/projects/{project}', { params: { path: { project } } });
  if (read.data) { const name: string = read.data.data.name; void name; }
  // Idempotency-Key is required on a crawl launch.
  // @ts-expect-error the header is required
  await client.POST('/v1/campaigns/{campaign}/crawls', { params: { path: { campaign } } });
  await client.POST('/v1/campaigns/{campaign}/crawls', { params: { path: { campaign }, header: { 'Idempotency-Key': 'k' } } });
  // A boolean filter is a boolean.
  await client.GET('/v1/crawls/{crawl}/pages', { params: { path: { crawl }, query: { internal: true } } });
  const bad = await client.POST('/v1/projects', { body: { url: 'x' } });
  if (bad.error && 'code' in bad.error && bad.error.code === 'validation_failed') {
    const errors: Schemas['ValidationProblem'] extends infer V ? V : never = bad.error as Schemas['ValidationProblem'];
    void errors;
  }

  const hey = createHeyClient(createConfig({ baseUrl: 'http://localhost' }));
  await getProject({ client: hey, path: { project } });
  await launchCrawl({ client: hey, path: { campaign }, headers: { 'Idempotency-Key': 'k' } });
  await listCrawlPages({ client: hey, path: { crawl }, query: { internal: false } });
}

// Fields the server always sends are required; nullable references are nullable.
export const required = (v: ValidationProblem, r: RateLimitedProblem, p: PlanProblem): unknown[] => [
  Object.keys(v.errors), r.retry_after + 1, r.window.length, p.upgrade_to?.length,
];
// Which fields are null follows the change's kind.
export const nullable = (c: CrawlChange): string | null => (c.kind === 'page_added' ? c.name : c.severity);
export const checkOf = (c: CrawlChange): string => (c.kind === 'issue_new' ? c.name : c.url);
export function eventName(e: WebhookEvent): string {
  switch (e.type) {
    case 'crawl.completed': return e.data.crawl.id;
    case 'webhook.test': return e.data.webhook_id;
    default: return e.type;
  }
}
`;

let h: Harness;
let site: Site;
let receiver: TlsReceiver;
const exchanges: Promise<Exchange>[] = [];
const checker = new OpenApiChecker(document);

beforeAll(async () => {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(path.join(out, 'ots'), { recursive: true });
  writeFileSync(path.join(out, 'ots', 'schema.ts'), astToString(await openapiTS(pathToFileURL(document))));
  await heyApiGenerate({ input: document, output: path.join(out, 'hey'), plugins: ['@hey-api/client-fetch'], logs: { level: 'silent' } });
  writeFileSync(path.join(out, 'usage.ts'), USAGE);
  h = await startHarness();
  site = await startSite();
  receiver = await startTlsReceiver();
}, 60_000);

afterAll(async () => {
  await h?.close();
  await site?.close();
  await receiver?.close();
  rmSync(out, { recursive: true, force: true });
});

describe('clients generated from docs/openapi.json', () => {
  it('type-check under --strict, with a typed use of both', () => {
    const program = ts.createProgram([path.join(out, 'usage.ts')], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
      skipLibCheck: true,
      types: [],
    });
    const errors = ts.getPreEmitDiagnostics(program).map((d) => `${d.file ? path.relative(out, d.file.fileName) : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(errors).toEqual([]);
  }, 60_000);

  it('run a flow against the server whose every answer the document describes', async () => {
    const fetch = recordingFetch(exchanges);
    const auth = { Authorization: `Bearer ${h.token}` };
    const api = createFetchClient<any>({ baseUrl: h.url, fetch, headers: auth });
    const { createClient, createConfig } = (await import(pathToFileURL(path.join(out, 'hey', 'client', 'index.ts')).href)) as any;
    const sdk = (await import(pathToFileURL(path.join(out, 'hey', 'sdk.gen.ts')).href)) as any;
    const hey = createClient(createConfig({ baseUrl: h.url, fetch, headers: auth }));

    // Webhooks first, so the crawl's event is delivered.
    const hook = await api.POST('/v1/webhooks', { body: { url: receiver.url, events: ['crawl.completed'] } });
    expect(hook.response.status).toBe(201);
    expect((await api.POST('/v1/webhooks/{webhook}/test', { params: { path: { webhook: hook.data.data.id } } })).response.status).toBe(202);

    // Idempotent create and replay; pagination.
    const key = { 'Idempotency-Key': 'create-1' };
    const created = await api.POST('/v1/projects', { params: { header: key }, body: { url: `${site.url}/` } });
    const replayed = await api.POST('/v1/projects', { params: { header: key }, body: { url: `${site.url}/` } });
    expect([created.response.status, replayed.response.headers.get('idempotent-replayed'), replayed.data.data.id]).toEqual([201, 'true', created.data.data.id]);
    await api.POST('/v1/projects', { body: { url: `${site.url}/second` } });
    const first = await api.GET('/v1/projects', { params: { query: { limit: 1 } } });
    expect(first.data.meta.has_more).toBe(true);
    const second = await api.GET('/v1/projects', { params: { query: { limit: 1, cursor: first.data.meta.next_cursor } } });
    expect(second.data.data[0].id).not.toBe(first.data.data[0].id);

    // ETag and 304, through hey-api (which reads every non-2xx as an error: the 304 is its one limit).
    const project = created.data.data.id as string;
    const read = await sdk.getProject({ client: hey, path: { project } });
    expect(read.data.data.id).toBe(project);
    const notModified = await api.GET('/v1/projects/{project}', { params: { path: { project } }, headers: { 'If-None-Match': read.response.headers.get('etag') } });
    expect(notModified.response.status).toBe(304);

    // A campaign of our own, a crawl of the local site (Idempotency-Key required) until settled.
    const campaign = await api.POST('/v1/projects/{project}/campaigns', {
      params: { path: { project } },
      body: { name: 'Generated', start_url: `${site.url}/`, max_depth: 3, max_urls: 20 },
    });
    expect(campaign.response.status).toBe(201);
    const launched = await sdk.launchCrawl({ client: hey, path: { campaign: campaign.data.data.id }, headers: { 'Idempotency-Key': 'crawl-1' } });
    expect(launched.response.status).toBe(202);
    const crawl = launched.data.data.id as string;
    for (let settled = false; !settled; ) {
      const state = await api.GET('/v1/crawls/{crawl}', { params: { path: { crawl } } });
      settled = state.data.data.stage_plan.settled;
      if (!settled) await new Promise((resolve) => setTimeout(resolve, 200));
    }

    // The reports.
    const pages = await sdk.listCrawlPages({ client: hey, path: { crawl }, query: { internal: true } });
    expect(pages.data.data.length).toBeGreaterThan(0);
    expect(pages.data.data.every((p: { is_internal: boolean }) => p.is_internal)).toBe(true);
    expect((await api.GET('/v1/crawls/{crawl}/issues', { params: { path: { crawl } } })).response.status).toBe(200);
    expect((await api.GET('/v1/crawls/{crawl}/issues/summary', { params: { path: { crawl } } })).response.status).toBe(200);
    expect((await api.GET('/v1/crawls/{crawl}/changes', { params: { path: { crawl } } })).response.status).toBe(200);
    expect((await api.GET('/v1/projects/{project}/scorecard', { params: { path: { project } } })).response.status).toBe(200);

    // 401, 404, 422.
    const anonymous = createFetchClient<any>({ baseUrl: h.url, fetch });
    expect((await anonymous.GET('/v1/me', {})).error.code).toBe('unauthenticated');
    expect((await api.GET('/v1/projects/{project}', { params: { path: { project: '00000000-0000-4000-8000-000000000000' } } })).response.status).toBe(404);
    const invalid = await api.POST('/v1/projects', { body: { url: 'not a url', extra: 1 } });
    expect([invalid.response.status, Object.keys(invalid.error.errors).length > 0]).toEqual([422, true]);

    // The deliveries, as received.
    while (!receiver.bodies.some((body) => body.includes('"crawl.completed"'))) await new Promise((resolve) => setTimeout(resolve, 100));
    const events = receiver.bodies.map((body) => JSON.parse(body) as { type: string });
    expect(events.map((e) => e.type).sort()).toEqual(['crawl.completed', 'webhook.test']);
    const problems = [
      ...events.flatMap((e) => checker.checkComponent('WebhookEvent', e)),
      ...(await Promise.all(exchanges)).flatMap((x) => checker.check(x)),
    ];
    expect(problems).toEqual([]);
    expect((await Promise.all(exchanges)).length).toBeGreaterThan(20);
  }, 60_000);
});
