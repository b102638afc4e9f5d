/**
 * The resources a page loads, through the HTTP API on both databases: the by-URL read lists
 * them with their status, they are not pages (not counted, not listed), and they go with their
 * crawl when its project is deleted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { startSite, type Site } from '../../../../tests/support/site.js';

const page = (title: string, head: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body><h1>${title}</h1>${body}<p>${'Words of content for the page. '.repeat(60)}</p></body></html>`;

const HEAD = '<link rel="stylesheet" href="/css/site.css"><link rel="stylesheet" href="/css/missing.css"><script src="/js/old.js"></script>';

let h: Harness;
let site: Site;

beforeAll(async () => {
  h = await startHarness();
  site = await startSite({
    '/': { html: page('Home page of the resource test site', HEAD, '<a href="/about">About</a><img src="/img/a.png" srcset="/img/a.png 1x, /img/a-2x.png 2x" alt="a">') },
    '/about': { html: page('About page of the resource test site', HEAD, '<a href="/">Home</a>') },
    '/css/site.css': { html: 'body{}', headers: { 'content-type': 'text/css' } },
    '/js/old.js': { status: 301, headers: { location: '/js/new.js' } },
    '/js/new.js': { html: 'void 0;', headers: { 'content-type': 'text/javascript' } },
    '/img/a.png': { html: 'png', headers: { 'content-type': 'image/png' } },
    '/robots.txt': { html: 'User-agent: *\nAllow: /\n', headers: { 'content-type': 'text/plain' } },
  });
});
afterAll(async () => {
  await h.close();
  await site.close();
});

describe('page resources', () => {
  it('reads a page with its resources and their status, and keeps them out of the pages', async () => {
    const project = (await (await h.call('POST', '/v1/projects', { body: { url: `${site.url}/` } })).json()).data;
    const campaign = (
      await (await h.call('POST', `/v1/projects/${project.id}/campaigns`, { body: { name: 'Site', start_url: `${site.url}/`, max_depth: 3, max_urls: 50 } })).json()
    ).data;
    const launched = (await (await h.call('POST', `/v1/campaigns/${campaign.id}/crawls`, { headers: { 'idempotency-key': crypto.randomUUID() } })).json()).data;
    await h.server.jobs.idle();
    const crawl = (await (await h.call('GET', `/v1/crawls/${launched.id}`)).json()).data;
    expect(crawl).toMatchObject({ status: 'completed', pages: { crawled: 2, discovered: 2 } });

    const pages = (await (await h.call('GET', `/v1/crawls/${crawl.id}/pages?limit=100`)).json()).data as { url: string }[];
    expect(pages.map((p) => new URL(p.url).pathname).sort()).toEqual(['/', '/about']);

    const res = await h.call('GET', `/v1/crawls/${crawl.id}/pages/by-url?url=${encodeURIComponent(`${site.url}/`)}`);
    expect(res.status).toBe(200);
    const home = (await res.json()).data;
    const o = site.url;
    expect(home.resources).toEqual([
      { url: `${o}/css/site.css`, type: 'stylesheet', status_code: 200, final_status_code: 200, redirect_url: null, error_type: null, content_type: 'text/css', size_bytes: null },
      { url: `${o}/css/missing.css`, type: 'stylesheet', status_code: 404, final_status_code: 404, redirect_url: null, error_type: null, content_type: 'text/html', size_bytes: null },
      { url: `${o}/js/old.js`, type: 'script', status_code: 301, final_status_code: 200, redirect_url: `${o}/js/new.js`, error_type: null, content_type: 'text/javascript', size_bytes: null },
      { url: `${o}/img/a.png`, type: 'image', status_code: 200, final_status_code: 200, redirect_url: null, error_type: null, content_type: 'image/png', size_bytes: null },
      { url: `${o}/img/a-2x.png`, type: 'image', status_code: 404, final_status_code: 404, redirect_url: null, error_type: null, content_type: 'text/html', size_bytes: null },
    ]);
    const names = home.issues.map((i: { name: string }) => i.name);
    expect(names).toEqual(expect.arrayContaining(['broken_stylesheet', 'broken_image', 'resource_redirect']));
    const about = (await (await h.call('GET', `/v1/crawls/${crawl.id}/pages/by-url?url=${encodeURIComponent(`${o}/about`)}`)).json()).data;
    expect(about.resources.map((r: { url: string }) => r.url)).toEqual([`${o}/css/site.css`, `${o}/css/missing.css`, `${o}/js/old.js`]);
    // Each resource requested once for both pages; the support site sends no Content-Length, so no size.
    expect(site.hits.get('/css/missing.css')).toBe(1);
    expect(site.hits.get('/js/old.js')).toBe(1);

    expect(Number((await h.knex('crawl_resources').where({ crawl_id: crawl.id }).count({ n: '*' }))[0].n)).toBe(5);
    expect(await h.call('DELETE', `/v1/projects/${project.id}`).then((r) => r.status)).toBe(204);
    for (const table of ['crawl_resources', 'crawl_page_resources']) {
      expect(Number((await h.knex(table).where({ crawl_id: crawl.id }).count({ n: '*' }))[0].n), table).toBe(0);
    }
  });
});
