/**
 * JavaScript rendering through crawlSite: a page whose title and links are written by script is
 * analysed as rendered (title found, script-added links crawled, including one added after a
 * fetch), while the plain crawl sees the empty shell. The browser never fetches the document a
 * second time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RenderError } from '../../src/crawler/index.js';
import { createRenderer, type Renderer } from '../../src/rendering/index.js';
import { crawl } from '../../../../tests/support/crawler.js';
import { BROWSER_TIMEOUT, CHROME, HAS_CHROMIUM, SKIP_NOTE, page, serve, type LocalSite } from '../../../../tests/support/rendering.js';

const shell = page({
  title: null,
  body: `<main id="app"><a href="/static">A link in the HTML</a></main>
<script>
  document.title = 'Rendered home page of the site';
  const h1 = document.createElement('h1');
  h1.textContent = 'Written by script';
  document.getElementById('app').prepend(h1);
  const a = document.createElement('a');
  a.href = '/added';
  a.textContent = 'Added by script';
  document.getElementById('app').append(a);
  fetch('/data.json').then((r) => r.json()).then((d) => {
    const b = document.createElement('a');
    b.href = d.next;
    b.textContent = 'Added after a fetch';
    document.getElementById('app').append(b);
  });
</script>`,
});

let site: LocalSite;
let renderer: Renderer;

beforeAll(async () => {
  site = await serve({
    '/': { body: shell },
    '/static': { body: page({ body: '<h1>Static</h1><a href="/">Home</a>' }) },
    '/added': { body: page({ body: '<h1>Added</h1><a href="/">Home</a>' }) },
    '/from-data': { body: page({ body: '<h1>From data</h1><a href="/">Home</a>' }) },
    '/data.json': { type: 'application/json', body: JSON.stringify({ next: '/from-data' }) },
    '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nAllow: /\n' },
    // The image never answers: the page never reaches `load`.
    '/stuck': { body: page({ title: 'A page whose load never ends, at all', body: '<main><h1>Stuck</h1><img src="/hang.png" alt="" width="1" height="1"></main>' }) },
    '/hang.png': () => new Promise<never>(() => undefined) as never,
  });
  renderer = createRenderer({ executablePath: CHROME, allowPrivateAddresses: true, concurrency: 2, timeoutMs: 8_000 });
});
afterAll(async () => {
  await renderer?.close();
  await site?.close();
});

const path = (url: string) => new URL(url).pathname;

describe.skipIf(!HAS_CHROMIUM)(`JavaScript rendering${SKIP_NOTE}`, () => {
  it('without rendering, the script-written title is missing and the script-added links are unknown', async () => {
    const r = await crawl(`${site.url}/`, { maxDepth: 3 });
    const home = r.pages.find((p) => path(p.url) === '/')!;
    expect(home.title).toBeNull();
    expect(r.issues.filter((i) => i.name === 'title_missing').map((i) => path(i.url))).toEqual(['/']);
    expect(r.pages.map((p) => path(p.url))).not.toContain('/added');
  });

  it(
    'with rendering, the analysis reads the rendered DOM and follows the links scripts added',
    async () => {
      site.hits.clear();
      const r = await crawl(`${site.url}/`, { maxDepth: 3, javascriptRendering: true }, { renderer, tuning: { retryBaseDelayMs: 5 } });
      const home = r.pages.find((p) => path(p.url) === '/')!;
      expect(home.title).toBe('Rendered home page of the site');
      expect(home.h1).toBe('Written by script');
      expect(r.issues.filter((i) => i.name === 'title_missing')).toEqual([]);
      const crawled = r.pages.filter((p) => p.status_code === 200).map((p) => path(p.url));
      expect(crawled).toEqual(expect.arrayContaining(['/', '/static', '/added', '/from-data']));
      expect(r.pages.find((p) => path(p.url) === '/added')!.depth).toBe(1);
      // The browser was handed the HTML the crawler fetched: one request for each document.
      expect(site.hits.get('/')).toBe(1);
      expect(site.hits.get('/added')).toBe(1);
      // The script's own request went to the site, from the browser.
      expect(site.hits.get('/data.json')).toBeGreaterThanOrEqual(1);
      expect(r.issues.filter((i) => i.name === 'render_failed')).toEqual([]);
      expect(renderer.stats.rendered).toBeGreaterThanOrEqual(4);
    },
    BROWSER_TIMEOUT,
  );

  it(
    'falls back to the fetched HTML and reports render_failed when a page cannot be rendered',
    async () => {
      // The crawler's own HEAD of the image hangs too: no retries, a short limit.
      const r = await crawl(`${site.url}/stuck`, { maxDepth: 0, javascriptRendering: true, retries: 0, timeoutMs: 3_000 }, { renderer, tuning: { retryBaseDelayMs: 5 } });
      const stuck = r.pages.find((p) => path(p.url) === '/stuck')!;
      expect(stuck.title).toBe('A page whose load never ends, at all');
      const failed = r.issues.filter((i) => i.name === 'render_failed');
      expect(failed).toHaveLength(1);
      expect(failed[0]).toMatchObject({ severity: 'info', category: 'http' });
      expect(failed[0].details).toMatch(/^timeout: /);
    },
    BROWSER_TIMEOUT,
  );

  it('refuses to crawl with rendering asked and no renderer given', async () => {
    await expect(crawl(`${site.url}/`, { javascriptRendering: true })).rejects.toThrow(/renderer/);
  });
});

describe('JavaScript rendering without a browser', () => {
  it('fails the crawl, saying where Chromium was expected', async () => {
    const missing = createRenderer({ executablePath: '/nonexistent/chromium', allowPrivateAddresses: true });
    try {
      const error = await crawl(`${site.url}/static`, { maxDepth: 0, javascriptRendering: true }, { renderer: missing }).catch((e) => e);
      expect(error).toBeInstanceOf(RenderError);
      expect(error).toMatchObject({ code: 'launch_failed' });
      expect(error.message).toContain('/nonexistent/chromium');
    } finally {
      await missing.close();
    }
  });
});
