/**
 * The SDK in a browser, as a web app on another origin uses it (docs/decisions/cors.md): the
 * client bundled by esbuild, loaded by a page of one origin in headless Chromium, calling the
 * reference server on another. The browser enforces CORS, which no Node test does: without the
 * server's headers every call fails with an opaque `TypeError: Failed to fetch`, as the server
 * started with `cors: false` shows.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { SCOPES } from '@siteaudit/schema';
import { createSiteAuditServer, type SiteAuditServer } from '@siteaudit/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_FLAGS } from '../../server/src/rendering/chromium.js';
import { BROWSER_TIMEOUT, CHROME, HAS_CHROMIUM, SKIP_NOTE } from '../../../tests/support/rendering.js';

const ENTRY = fileURLToPath(new URL('../src/index.ts', import.meta.url));

let browser: Browser;
let page: Page;
let site: Server;
const servers: SiteAuditServer[] = [];

/** A server on its own origin and an owner token of a new team on it. */
async function apiServer(cors: boolean): Promise<{ url: string; token: string }> {
  const server = await createSiteAuditServer({ database: 'sqlite::memory:', logger: false, cors, secretKey: 'browser-test-secret-key-0123456789abcdef' });
  servers.push(server);
  const { url } = await server.listen(0, '127.0.0.1');
  await server.admin.createTeam({ slug: 'web', name: 'Web', plan: 'agency' });
  await server.admin.addMember({ team: 'web', email: 'web@agency.test', name: 'Web', role: 'owner' });
  const { token } = await server.admin.createToken({ team: 'web', member: 'web@agency.test', name: 'browser', scopes: [...SCOPES] });
  return { url, token };
}

/** What the page's script does, run in the page: the SDK, then raw fetches that read the answer's headers. */
async function pageFlow(baseUrl: string, token: string) {
  return page.evaluate(
    async ({ baseUrl, token }) => {
      try {
        // The bundle, as the page's module script loaded it from the page's own origin.
        const { createClient, NotFoundError } = (window as unknown as { sdk: typeof import('../src/index.js') }).sdk;
        const client = createClient({ baseUrl, token, language: 'en', retries: 0 });
        const project = await client.projects.create({ url: 'https://shop.example/', name: 'From a browser' }, { idempotencyKey: 'browser-create-1' });
        const replay = await fetch(`${baseUrl}/v1/projects`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': 'browser-create-1' },
          body: JSON.stringify({ url: 'https://shop.example/', name: 'From a browser' }),
        });
        const read = await fetch(`${baseUrl}/v1/projects/${project.id}`, { headers: { authorization: `Bearer ${token}` } });
        const etag = read.headers.get('etag');
        const again = await fetch(`${baseUrl}/v1/projects/${project.id}`, { headers: { authorization: `Bearer ${token}`, 'if-none-match': etag ?? '' }, cache: 'no-store' });
        let missing: unknown = null;
        try {
          await client.projects.get({ project: '00000000-0000-4000-8000-000000000000' });
        } catch (error) {
          missing = { notFound: error instanceof NotFoundError, code: (error as { code: string }).code };
        }
        const refused = await fetch(`${baseUrl}/v1/me`, { headers: { authorization: 'Bearer sa_not_a_token' } });
        return {
          ok: true as const,
          project: project.name,
          replayed: replay.headers.get('idempotent-replayed'),
          requestId: read.headers.get('x-request-id'),
          remaining: read.headers.get('x-ratelimit-remaining'),
          etag,
          notModified: again.status,
          missing,
          refused: { status: refused.status, challenge: refused.headers.get('www-authenticate'), body: await refused.json() },
        };
      } catch (error) {
        return { ok: false as const, error: String(error) };
      }
    },
    { baseUrl, token },
  );
}

describe.skipIf(!HAS_CHROMIUM)(`@siteaudit/client in a browser, on another origin${SKIP_NOTE}`, () => {
  beforeAll(async () => {
    const bundle = await build({ entryPoints: [ENTRY], bundle: true, format: 'esm', platform: 'browser', write: false, logLevel: 'silent' });
    const script = bundle.outputFiles[0]!.text;
    // The page's origin: `localhost`, where the API is on `127.0.0.1` (another origin, as another site would be).
    site = createServer((req, res) => {
      if (req.url === '/client.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
      else res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>agency dashboard</title><script type="module">import * as sdk from "/client.js"; window.sdk = sdk;</script>');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROME, args: [...CHROMIUM_FLAGS], timeout: 60_000 });
    page = await browser.newPage();
    await page.goto(`http://localhost:${(site.address() as AddressInfo).port}/`);
    await page.waitForFunction(() => 'sdk' in window);
  }, BROWSER_TIMEOUT);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => site?.close(resolve));
    await Promise.all(servers.map((s) => s.close()));
  });

  it('creates, replays, reads with its ETag and request id, and reads refusals, through CORS', async () => {
    const { url, token } = await apiServer(true);
    expect(new URL(url).origin).not.toBe(new URL(page.url()).origin);
    const result = await pageFlow(url, token);
    expect(result).toMatchObject({
      ok: true,
      project: 'From a browser',
      replayed: 'true',
      requestId: expect.stringMatching(/^req_[0-9a-f]{32}$/),
      remaining: expect.stringMatching(/^\d+$/),
      etag: expect.stringMatching(/^W\/"/),
      notModified: 304,
      missing: { notFound: true, code: 'not_found' },
      refused: { status: 401, challenge: 'Bearer realm="siteaudit", error="invalid_token"', body: { code: 'unauthenticated' } },
    });
  }, BROWSER_TIMEOUT);

  it('fails every call of a page on another origin when the server leaves CORS to its host (cors: false)', async () => {
    const { url, token } = await apiServer(false);
    const result = await pageFlow(url, token);
    expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/Failed to fetch|NetworkError/) });
  }, BROWSER_TIMEOUT);
});
