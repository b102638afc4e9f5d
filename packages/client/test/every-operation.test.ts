/**
 * Every one of the 52 operations (40 of the spec, 12 extensions) through the client against a real server started in process
 * (in-memory SQLite, a local site to crawl, a local receiver for webhooks). A recording fetch
 * proves each operation was called and answered with its contract's success status.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OPERATIONS, SCOPES, type OperationId } from '@siteaudit/schema';
import { createSiteAuditServer, type SiteAuditServer } from '@siteaudit/server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createClient, type SiteAuditClient } from '../src/index.js';

let server: SiteAuditServer;
let site: Server;
let siteUrl: string;
let client: SiteAuditClient;
const answered = new Map<OperationId, number>();

const routes = (Object.entries(OPERATIONS) as [OperationId, (typeof OPERATIONS)[OperationId]][]).map(([id, op]) => ({
  id,
  method: op.method,
  pattern: new RegExp(`^${op.path.replace(/:[a-z_]+/g, '[^/]+')}$`),
}));

beforeAll(async () => {
  site = createServer((req, res) => {
    const html = req.url === '/' ? '<html lang="en"><head><title>Home page of the local site</title></head><body><h1>Home</h1><a href="/about">About</a></body></html>' : '<html lang="en"><head><title>About the local site</title></head><body><h1>About</h1><a href="/">Home</a></body></html>';
    res.writeHead(200, { 'content-type': 'text/html' }).end(html);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  server = await createSiteAuditServer({ database: 'sqlite::memory:', network: { allowPrivateAddresses: true }, secretKey: 'client-test-secret-key-0123456789abcdef' });
  const { url } = await server.listen(0);
  await server.admin.createTeam({ slug: 'all', name: 'All', plan: 'agency' });
  await server.admin.addMember({ team: 'all', email: 'o@all.test', name: 'O', role: 'owner' });
  const { token } = await server.admin.createToken({ team: 'all', member: 'o@all.test', name: 'every-op', scopes: [...SCOPES] });
  const recording: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    const request = new Request(input, init);
    const path = new URL(request.url).pathname;
    const route = routes.find((r) => r.method === request.method && r.pattern.test(path));
    if (route && res.status === OPERATIONS[route.id].status) answered.set(route.id, (answered.get(route.id) ?? 0) + 1);
    return res;
  };
  client = createClient({ baseUrl: url, token, fetch: recording, retries: 0 });
});

afterAll(async () => {
  await server?.close();
  site?.close();
});

it('calls all 52 operations of the contract, each answering its success status', async () => {
  await client.account.me();
  await client.account.usage();
  await client.account.operations();

  const project = await client.projects.create({ url: siteUrl, name: 'Every operation' });
  await client.projects.list();
  await client.projects.get({ project: project.id });
  await client.projects.update({ project: project.id, name: 'Every operation, renamed' });
  await client.projects.scorecard({ project: project.id });

  const campaign = await client.campaigns.create({ project: project.id, name: 'All', start_url: siteUrl, max_depth: 2, max_urls: 10 });
  await client.campaigns.list({ project: project.id });
  await client.campaigns.get({ campaign: campaign.id });
  await client.campaigns.update({ campaign: campaign.id, max_urls: 20 });

  const launched = await client.crawls.launch({ campaign: campaign.id });
  const crawl = await client.waitForCrawl(launched.id, { intervalMs: 20 });
  await client.crawls.list({ project: project.id });
  await client.crawls.issues.list({ crawl: crawl.id });
  await client.crawls.issues.summary({ crawl: crawl.id });
  const pages = await client.crawls.pages.list({ crawl: crawl.id });
  await client.crawls.pages.byUrl({ crawl: crawl.id, url: pages.data[0].url });
  await client.crawls.pages.inlinks({ crawl: crawl.id, url: pages.data[0].url });
  await client.crawls.pagespeed({ crawl: crawl.id });
  await client.crawls.changes.list({ crawl: crawl.id });
  await client.crawls.changes.summary({ crawl: crawl.id });
  await client.crawls.recommendations({ crawl: crawl.id });

  const requested = await client.exports.create({ crawl: crawl.id, format: 'xlsx' });
  await client.waitForExport(requested.id, { intervalMs: 20 });
  const file = await client.exports.download({ export: requested.id });
  expect((await file.arrayBuffer()).byteLength).toBeGreaterThan(0);

  await client.positions.track({ project: project.id, keywords: ['site audit', 'crawler'] });
  await client.positions.pause({ project: project.id, keywords: ['crawler'] });
  await client.positions.resume({ project: project.id, keywords: ['crawler'] });
  await client.positions.check({ project: project.id, keyword: 'site audit' });
  await client.positions.get({ project: project.id });
  await client.positions.untrack({ project: project.id, keywords: ['crawler'] });
  await client.searchConsole.get({ project: project.id });

  const hook = await client.webhooks.create({ url: 'https://127.0.0.1:9/hook', events: ['crawl.completed'] });
  await client.webhooks.list();
  await client.webhooks.get({ webhook: hook.id });
  await client.webhooks.update({ webhook: hook.id, description: 'every operation' });
  await client.webhooks.rotateSecret({ webhook: hook.id });
  await client.webhooks.test({ webhook: hook.id });
  await client.webhooks.deliveries({ webhook: hook.id });
  await client.webhooks.delete({ webhook: hook.id });

  const log = `66.249.66.1 - - [09/Mar/2026:08:15:00 +0000] "GET / HTTP/1.1" 200 512 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"\n`;
  const logImport = await client.logs.imports.create({ project: project.id, file: log, content_type: 'text/plain' });
  await server.jobs.idle();
  await client.logs.imports.list({ project: project.id });
  expect(await client.logs.imports.get({ project: project.id, import: logImport.id })).toMatchObject({ status: 'completed', lines: { read: 1, kept: 1, refused: 0 } });
  await client.logs.insights({ project: project.id });
  await client.logs.urls({ project: project.id });
  await client.logs.days({ project: project.id });
  await client.logs.findings({ project: project.id, kind: 'not_in_crawl' });
  await client.logs.imports.delete({ project: project.id, import: logImport.id });

  await client.campaigns.delete({ campaign: campaign.id });
  await client.projects.delete({ project: project.id });
  await server.jobs.idle();

  const missing = (Object.keys(OPERATIONS) as OperationId[]).filter((id) => !answered.has(id));
  expect(missing).toEqual([]);
  expect(answered.size).toBe(52);
}, 180_000);
