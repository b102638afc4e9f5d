/**
 * The served documentation: GET /openapi.json, /v1 (an index), /docs/errors, and /docs opened in
 * a real Chromium (playwright-core, Debian's browser as the rendering tests use it), with every
 * request outside the server refused and recorded: the page must need nothing from the internet.
 */
import { createServer } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, OPERATION_IDS, WEBHOOK_EVENT_PAYLOADS } from '@siteaudit/schema';
import { CHECK_GUIDE, CHECKS } from '@siteaudit/schema/rules';
import { BROWSER_TIMEOUT, CHROME, HAS_CHROMIUM, SKIP_NOTE } from '../../../../tests/support/rendering.js';
import { createSiteAuditServer, type SiteAuditServer } from '../../src/index.js';
import { onPostgres, sharedDatabase, startHarness, type Harness } from '../../../../tests/support/harness.js';

/** A port free now, so a server can be told its public URL before it listens. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

describe('the served documentation', () => {
  it('serves the OpenAPI document with this server as its server, and links to the errors page', async () => {
    const res = await fetch(`${h.url}/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { servers: { url: string }[]; paths: Record<string, Record<string, { operationId: string }>> };
    expect(doc.servers[0].url).toBe(h.url);
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((o) => o.operationId));
    expect(ids.sort()).toEqual([...OPERATION_IDS].sort());
    expect(JSON.stringify(doc)).toContain('https://siteaudit.dev/docs/errors#not_found');
    // Its 3.0.3 rendering, for generators that read only 3.0, with the same server.
    const res30 = await fetch(`${h.url}/openapi-3.0.json`);
    expect(res30.status).toBe(200);
    const doc30 = (await res30.json()) as { openapi: string; servers: { url: string }[]; paths: Record<string, unknown> };
    expect(doc30.openapi).toBe('3.0.3');
    expect(doc30.servers[0].url).toBe(h.url);
    expect(Object.keys(doc30.paths)).toEqual(Object.keys(doc.paths));
  });

  it('answers GET /v1 with an index instead of 404, with or without the trailing slash', async () => {
    for (const path of ['/v1', '/v1/']) {
      const res = await fetch(`${h.url}${path}`);
      expect(res.status, path).toBe(200);
      expect(await res.json()).toEqual({
        name: 'Site Audit API',
        version: expect.stringMatching(/^\d+\.\d+\.\d+/),
        links: { docs: `${h.url}/docs`, openapi: `${h.url}/openapi.json`, openapi_3_0: `${h.url}/openapi-3.0.json`, errors: 'https://siteaudit.dev/docs/errors', checks: 'https://siteaudit.dev/docs/checks' },
      });
    }
  });

  it('lists every check of the catalogue on the checks page, with why and how to fix in both languages, linked from the reference', async () => {
    const res = await fetch(`${h.url}/docs/checks`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    for (const name of Object.keys(CHECKS)) expect(html, name).toContain(`<tr id="${name}">`);
    expect(html).toContain(CHECK_GUIDE.url_session_id.why.en);
    expect(html).toContain(CHECK_GUIDE.url_session_id.fix.fr);
    // The reference's description (what /docs shows first) links to it.
    const doc = await (await fetch(`${h.url}/openapi.json`)).text();
    expect(doc).toContain('https://siteaudit.dev/docs/checks');
  });

  it('lists every code of the catalogue on the errors page, each anchored by its name', async () => {
    const res = await fetch(`${h.url}/docs/errors`);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    for (const code of ERROR_CODES) expect(html, code).toContain(`<tr id="${code}">`);
    expect(html).toContain('Project is read-only'); // en title
    expect(html).toContain('Projet en lecture seule'); // fr title
    // The descriptions' Markdown is rendered: code spans, no raw backticks.
    expect(html).not.toContain('`');
    expect(html).toContain('(<code>errors</code> names the field)');
  });

  it('shows a TypeScript sample with @siteaudit/client for every operation, beside curl', async () => {
    const doc = (await (await fetch(`${h.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, { operationId: string; 'x-codeSamples'?: { lang: string; label: string; source: string }[] }>> };
    const operations = Object.values(doc.paths).flatMap((item) => Object.values(item));
    expect(operations).toHaveLength(OPERATION_IDS.length);
    for (const op of operations) {
      const [sample] = op['x-codeSamples'] ?? [];
      expect(sample, op.operationId).toMatchObject({ lang: 'TypeScript', label: '@siteaudit/client' });
      expect(sample!.source).toContain("import { createClient } from '@siteaudit/client';");
      expect(sample!.source).toMatch(/await client\.[a-zA-Z.]+\(/);
    }
    const html = await (await fetch(`${h.url}/docs`)).text();
    // Scalar's own toolbar is hidden, and its generated clients but curl.
    const config = html.replace(/\s+/g, '');
    expect(config).toContain('"showDeveloperTools":"never"');
    expect(config).toMatch(/"hiddenClients":\{[^}]*"php":true[^}]*"ruby":true/);
    expect(config).toContain('"clientKey":"curl"');
  });

  it('points problem types at the documentation base given as docsUrl, each server its own', async () => {
    const other = await startHarness({ docsUrl: 'https://docs.example.com/siteaudit/' });
    try {
      const typeOf = async (url: string, init?: RequestInit) => ((await (await fetch(url, init)).json()) as { type: string }).type;
      // Two servers in one process: each answers with its own base, in and outside the pipeline.
      expect(await typeOf(`${other.url}/v1/me`)).toBe('https://docs.example.com/siteaudit/errors#unauthenticated');
      expect(await typeOf(`${h.url}/v1/me`)).toBe('https://siteaudit.dev/docs/errors#unauthenticated');
      expect(await typeOf(`${other.url}/v1/nowhere`)).toBe('https://docs.example.com/siteaudit/errors#not_found');
      expect(await typeOf(`${other.url}/v1/me`, { method: 'PUT' })).toBe('https://docs.example.com/siteaudit/errors#method_not_allowed');
      expect(await typeOf(`${other.url}/elsewhere`)).toBe('https://docs.example.com/siteaudit/errors#not_found');
      expect(await typeOf(`${h.url}/elsewhere`)).toBe('https://siteaudit.dev/docs/errors#not_found');
      const doc = await (await fetch(`${other.url}/openapi.json`)).text();
      expect(doc).toContain('https://docs.example.com/siteaudit/errors#unauthenticated');
      expect(doc).not.toContain('https://siteaudit.dev/docs/errors');
    } finally {
      await other.close();
    }
  });

  it('serves the reference page with its script from this server', async () => {
    const html = await (await fetch(`${h.url}/docs`)).text();
    expect(html).toContain('<script src="/docs/assets/scalar.js">');
    expect(html).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)[^"']*\.(js|css)/);
    const script = await fetch(`${h.url}/docs/assets/scalar.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
  });
});

// The page in a browser is the same on either database (the document and pages it loads read no
// data): it runs with the SQLite project only, sparing CI a second Chromium render of Scalar.
describe.skipIf(!HAS_CHROMIUM || onPostgres)(`the API reference in a browser${onPostgres ? ' (SQLite project only)' : SKIP_NOTE}`, () => {
  let browser: Browser;
  let server: SiteAuditServer;
  let drop: () => Promise<void>;
  let base: string;
  beforeAll(async () => {
    // Answers and the document point at this server's own errors page (docsUrl).
    const db = await sharedDatabase();
    drop = db.drop;
    base = `http://127.0.0.1:${await freePort()}`;
    server = await createSiteAuditServer({ database: db.knex, logger: false, jobs: false, publicUrl: base, docsUrl: `${base}/docs`, secretKey: 'test-secret-key-0123456789abcdef0123' });
    await server.listen(Number(new URL(base).port), '127.0.0.1');
    browser = await chromium.launch({ executablePath: CHROME, args: ['--no-sandbox', '--disable-gpu'] });
  }, BROWSER_TIMEOUT);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await drop?.();
  });

  it(
    'shows every operation (the spec\'s 40 and the marked extensions) with nothing fetched from the internet, and an error link opens its code',
    async () => {
      const page = await browser.newPage();
      const outside: string[] = [];
      await page.route('**/*', (route) => {
        const url = route.request().url();
        if (url.startsWith(`${base}/`) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
        outside.push(url);
        return route.abort();
      });
      await page.goto(`${base}/docs`);
      // Scalar's sidebar names each operation `…/tag/<tag>/<METHOD>/<path>` (tags open by default).
      const operation = /\/tag\/[^/]+\/(GET|POST|PATCH|DELETE)\/v1\/[^.]*$/;
      const sidebar = '[data-sidebar-id]';
      await page.waitForFunction(
        ([selector, source, count]) => new Set([...document.querySelectorAll(selector)].map((e) => e.getAttribute('data-sidebar-id')).filter((id) => new RegExp(source).test(id ?? ''))).size >= count,
        [sidebar, operation.source, OPERATION_IDS.length] as const,
        { timeout: 60_000, polling: 500 },
      );
      const ids = await page.$$eval(sidebar, (elements) => elements.map((e) => e.getAttribute('data-sidebar-id') ?? ''));
      const operations = new Set(ids.filter((id) => operation.test(id)).map((id) => id.replace(/^.*\/tag\/[^/]+\//, '')));
      expect(operations.size).toBe(OPERATION_IDS.length);
      expect(OPERATION_IDS.length).toBe(52);
      expect(operations).toContain('GET/v1/projects/{project}');
      // The webhook events have entries of their own, named, and no entry is half-named.
      const events = ids.filter((id) => /\/tag\/events\/webhook\/POST\/./.test(id));
      expect(events).toContain(ids.find((id) => id.endsWith('/webhook/POST/crawlcompleted')));
      expect(new Set(events).size).toBe(Object.keys(WEBHOOK_EVENT_PAYLOADS).length);
      expect(ids.filter((id) => id.includes('undefined'))).toEqual([]);

      // The error codes of each answer link to their entry of this server's errors page.
      const codeLink = `a[href^="${base}/docs/errors#"]`;
      // The links come with the operations' answers, rendered after the sidebar.
      let href: string | undefined;
      for (let tries = 0; tries < 60 && !href; tries++) {
        href = (await page.$$eval(codeLink, (links) => links.map((a) => a.getAttribute('href') ?? ''))).find((h) => !h.endsWith('#'));
        if (!href) await page.waitForTimeout(500);
      }
      expect(href, 'a link to a code of the errors page').toBeDefined();
      const code = decodeURIComponent(new URL(href!).hash.slice(1));
      expect(ERROR_CODES).toContain(code);
      await page.goto(href!);
      expect(await page.locator('tr:target td').first().textContent()).toBe(code);
      expect(outside).toEqual([]);
      // No toolbar of Scalar's own (Developer Tools, Configure, Share, Deploy).
      expect(await page.getByText('Developer Tools', { exact: true }).count()).toBe(0);
      expect(await page.getByText('Deploy', { exact: true }).count()).toBe(0);
      await page.close();

      // The problem `type` of an answer is the same page.
      const problem = (await (await fetch(`${base}/v1/me`)).json()) as { type: string };
      expect(problem.type).toBe(`${base}/docs/errors#unauthenticated`);
    },
    BROWSER_TIMEOUT,
  );
});
