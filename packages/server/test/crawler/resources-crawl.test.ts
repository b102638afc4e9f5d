/**
 * The resources pages load, crawled on a local site built for it: a missing stylesheet, a missing
 * script, an image broken only in its srcset, a redirecting script, a missing stylesheet on
 * another host, a script robots.txt disallows, and a stylesheet whose server refuses HEAD. Three
 * pages use them all, one page uses only sound ones. Each finding is asserted as documented
 * (docs/decisions/resources.md), and the servers' logs show each resource requested once.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prose } from './fixture-site.js';
import { crawl } from '../../../../tests/support/crawler.js';

const RESOURCE_CHECKS = new Set(['broken_stylesheet', 'broken_script', 'broken_image', 'broken_resource', 'resource_redirect', 'resource_blocked_by_robots', 'resource_budget_reached', 'image_too_large']);

interface Served {
  origin: string;
  /** "METHOD path" of every request. */
  log: string[];
  close(): Promise<void>;
}

async function serve(handler: (req: IncomingMessage, res: ServerResponse, path: string) => void): Promise<Served> {
  const log: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    log.push(`${req.method} ${path}`);
    handler(req, res, path);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function answer(req: IncomingMessage, res: ServerResponse, status: number, type: string, body = '', headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body), ...headers });
  res.end(req.method === 'HEAD' ? undefined : body);
}

function html(title: string, head: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body><h1>${title}</h1>${body}<p>${prose(title)}</p></body></html>`;
}

describe('resources pages load', () => {
  let site: Served;
  let cdn: Served;
  let result: Awaited<ReturnType<typeof crawl>>;

  beforeAll(async () => {
    cdn = await serve((req, res, path) => {
      if (path === '/lib/missing.css') return answer(req, res, 404, 'text/html', 'gone');
      if (path === '/robots.txt') return answer(req, res, 404, 'text/plain', 'none');
      answer(req, res, 200, 'text/css', 'body{}');
    });
    const head = (origin: string) =>
      [
        '<link rel="stylesheet" href="/css/site.css">',
        '<link rel="stylesheet" href="/css/missing.css">',
        '<link rel="stylesheet" href="/css/head-refused.css">',
        `<link rel="stylesheet" href="${cdn.origin}/lib/missing.css">`,
        '<script src="/js/missing.js"></script>',
        '<script src="/js/old.js"></script>',
        '<script src="/blocked/tracker.js"></script>',
        `<link rel="icon" href="${origin}/favicon.ico">`,
      ].join('');
    const broken = '<img src="/img/photo.png" srcset="/img/photo.png 1x, /img/photo-2x.png 2x" alt="photo" width="10" height="10">';
    const links = '<a href="/a">a</a> <a href="/b">b</a> <a href="/clean">clean</a>';
    const pages: Record<string, (origin: string) => string> = {
      '/': (o) => html('Home of the resource site', head(o), `${links}${broken}`),
      '/a': (o) => html('Page A of the resource site', head(o), `${links}${broken}`),
      '/b': (o) => html('Page B of the resource site', head(o), `${links}${broken}`),
      '/clean': () => html('Clean page of the resource site', '<link rel="stylesheet" href="/css/site.css"><script src="/js/app.js"></script>', `${links}<img src="/img/photo.png" alt="p" width="1" height="1">`),
    };
    site = await serve((req, res, path) => {
      const page = pages[path];
      if (page) return answer(req, res, 200, 'text/html; charset=utf-8', page(site.origin));
      if (path === '/robots.txt') return answer(req, res, 200, 'text/plain', 'User-agent: *\nDisallow: /blocked/\n');
      if (path === '/js/old.js') return answer(req, res, 301, 'text/html', '', { location: '/js/new.js' });
      if (path === '/css/head-refused.css' && req.method === 'HEAD') return answer(req, res, 405, 'text/plain', '', { allow: 'GET' });
      const found: Record<string, string> = { '/css/site.css': 'text/css', '/css/head-refused.css': 'text/css', '/js/new.js': 'text/javascript', '/js/app.js': 'text/javascript', '/img/photo.png': 'image/png', '/favicon.ico': 'image/x-icon' };
      if (found[path]) return answer(req, res, 200, found[path], 'x'.repeat(100));
      answer(req, res, 404, 'text/html', 'not found');
    });
    result = await crawl(`${site.origin}/`);
  });
  afterAll(async () => {
    await site.close();
    await cdn.close();
  });

  const issuesOn = (path: string) =>
    result.issues
      .filter((i) => i.url === `${site.origin}${path}` && RESOURCE_CHECKS.has(i.name))
      .map((i) => `${i.name}: ${i.details}`)
      .sort();

  it('reports each broken, redirecting or blocked resource on every page that uses it', () => {
    const o = site.origin;
    const expected = [
      `broken_image: image ${o}/img/photo-2x.png: status 404`,
      `broken_script: script ${o}/js/missing.js: status 404`,
      `broken_stylesheet: stylesheet ${cdn.origin}/lib/missing.css: status 404`,
      `broken_stylesheet: stylesheet ${o}/css/missing.css: status 404`,
      `resource_blocked_by_robots: script ${o}/blocked/tracker.js is disallowed by robots.txt for siteauditbot`,
      `resource_redirect: script ${o}/js/old.js redirects (status 301) to ${o}/js/new.js`,
    ].sort();
    for (const path of ['/', '/a', '/b']) expect(issuesOn(path), path).toEqual(expected);
  });

  it('reports nothing on a page whose resources are sound, nor a budget within its limit', () => {
    expect(issuesOn('/clean')).toEqual([]);
    expect(result.issues.filter((i) => i.name === 'resource_budget_reached' || i.name === 'broken_resource')).toEqual([]);
  });

  it('requests each resource once however many pages use it, and never one robots.txt disallows', () => {
    const count = (log: string[], path: string) => log.filter((l) => l.endsWith(` ${path}`)).length;
    for (const path of ['/css/site.css', '/css/missing.css', '/js/missing.js', '/js/old.js', '/js/new.js', '/js/app.js', '/img/photo.png', '/img/photo-2x.png', '/favicon.ico']) {
      expect(count(site.log, path), path).toBe(1);
    }
    expect(site.log.filter((l) => l.endsWith(' /css/site.css'))).toEqual(['HEAD /css/site.css']);
    // HEAD refused: asked again with GET, and then sound.
    expect(site.log.filter((l) => l.endsWith(' /css/head-refused.css'))).toEqual(['HEAD /css/head-refused.css', 'GET /css/head-refused.css']);
    expect(count(site.log, '/blocked/tracker.js')).toBe(0);
    // The third-party host: its robots.txt, then the stylesheet, once each.
    expect(cdn.log).toEqual(['GET /robots.txt', 'HEAD /lib/missing.css']);
  });

  it('records each resource once, outside the pages of the crawl', () => {
    const o = site.origin;
    expect(result.outcome.crawled).toBe(4);
    expect(result.pages.map((p) => new URL(p.url).pathname).sort()).toEqual(['/', '/a', '/b', '/clean']);
    const byUrl = new Map(result.resources.map((r) => [r.url, r]));
    expect(result.resources).toHaveLength(byUrl.size);
    expect(byUrl.get(`${o}/js/old.js`)).toMatchObject({ type: 'script', status_code: 301, redirect_url: `${o}/js/new.js`, final_status_code: 200, error_type: null, is_internal: true });
    expect(byUrl.get(`${o}/blocked/tracker.js`)).toMatchObject({ status_code: null, error_type: 'blocked_by_robots' });
    expect(byUrl.get(`${cdn.origin}/lib/missing.css`)).toMatchObject({ type: 'stylesheet', status_code: 404, is_internal: false });
    expect(byUrl.get(`${o}/img/photo.png`)).toMatchObject({ type: 'image', status_code: 200, content_type: 'image/png', size_bytes: 100 });
    const home = result.pages.find((p) => p.url === `${o}/`)!;
    const ids = new Map(result.resources.map((r) => [r.id, r.url]));
    expect(home.resource_ids!.map((id) => ids.get(id))).toContain(`${o}/css/missing.css`);
  });

  it('obeys a third-party host whose robots.txt answers 5xx without reporting it as the site\'s robots.txt', async () => {
    const down = await serve((req, res, path) => answer(req, res, path === '/robots.txt' ? 503 : 200, 'text/plain', 'x'));
    const own = await serve((req, res, path) => {
      if (path === '/robots.txt') return answer(req, res, 200, 'text/plain', 'User-agent: *\nAllow: /\n');
      answer(req, res, 200, 'text/html; charset=utf-8', html('Page loading a script from a host that refuses robots', `<script src="${down.origin}/lib.js"></script>`, ''));
    });
    try {
      const r = await crawl(`${own.origin}/`, {}, { tuning: { retryBaseDelayMs: 5, maxWaitMs: 2000 } });
      expect(r.issues.filter((i) => i.name === 'robots_txt_5xx')).toEqual([]);
      expect(r.issues.filter((i) => i.name === 'resource_blocked_by_robots').map((i) => i.details)).toEqual([
        `script ${down.origin}/lib.js is disallowed by robots.txt for siteauditbot`,
      ]);
      expect(down.log.filter((l) => !l.endsWith(' /robots.txt'))).toEqual([]);
    } finally {
      await down.close();
      await own.close();
    }
  });

  it('checks at most the resource budget, and says so once', async () => {
    const limited = await crawl(`${site.origin}/`, {}, { tuning: { retryBaseDelayMs: 5, maxWaitMs: 2000, maxResourceChecks: 3 } });
    expect(limited.resources).toHaveLength(3);
    const notices = limited.issues.filter((i) => i.name === 'resource_budget_reached');
    expect(notices).toHaveLength(1);
    expect(notices[0].details).toMatch(/^3 distinct resources checked/);
  });
});
