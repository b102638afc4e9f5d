/**
 * JavaScript rendering and accessibility through the API, on both databases: a campaign with
 * `javascript_rendering` reports the script-written title and crawls the script-added link;
 * `check_accessibility` and `check_accessibility_rendered` report axe findings as
 * `a11y_<rule>` issues of category accessibility.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_TIMEOUT, HAS_CHROMIUM, SKIP_NOTE, page, serve, type LocalSite } from '../../../../tests/support/rendering.js';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { allIssues, crawlToSettled, pathOf, projectWithCampaign } from './support/crawl-flow.js';

let h: Harness;
let site: LocalSite;

beforeAll(async () => {
  h = await startHarness();
  site = await serve({
    '/': {
      body: page({
        title: null,
        body: `<main id="app"><h1>Shop</h1><img src="/logo.png" width="10" height="10"><p style="color:#f4f4f4;background:#fff">Faint text.</p></main>
<script>
  document.title = 'Shop home page, rendered by script';
  const a = document.createElement('a');
  a.href = '/catalogue/';
  a.textContent = 'Catalogue';
  document.getElementById('app').append(a);
</script>`,
      }),
    },
    '/catalogue/': { body: page({ title: 'The catalogue of the shop, all items', body: '<main><h1>Catalogue</h1><a href="/">Home</a></main>' }) },
    '/logo.png': { type: 'image/png', body: '' },
    '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nAllow: /\n' },
  });
});
afterAll(async () => {
  await h?.close();
  await site?.close();
});

async function pages(crawlId: string) {
  return (await (await h.call('GET', `/v1/crawls/${crawlId}/pages?limit=100`)).json()).data as { url: string; title: string | null; status_code: number }[];
}

describe.skipIf(!HAS_CHROMIUM)(`rendering and accessibility through the API${SKIP_NOTE}`, () => {
  it(
    'without rendering sees the HTML shell; with javascript_rendering, the rendered page and its script-added link',
    async () => {
      const { campaign: plainCampaign } = await projectWithCampaign(h, site.url);
      const plain = await crawlToSettled(h, plainCampaign.id);
      expect((await pages(plain.id)).map((p) => pathOf(p.url))).not.toContain('/catalogue/');
      expect((await allIssues(h, plain.id, '&name=title_missing')).map((i) => pathOf(i.url))).toEqual(['/']);

      const { campaign } = await projectWithCampaign(h, site.url, { javascript_rendering: true });
      const crawl = await crawlToSettled(h, campaign.id);
      expect(crawl.status).toBe('completed');
      const rendered = await pages(crawl.id);
      expect(rendered.find((p) => pathOf(p.url) === '/')!.title).toBe('Shop home page, rendered by script');
      expect(rendered.find((p) => pathOf(p.url) === '/catalogue/')).toMatchObject({ status_code: 200, title: 'The catalogue of the shop, all items' });
      expect(await allIssues(h, crawl.id, '&name=title_missing')).toEqual([]);
      // Accessibility was not asked for.
      expect(await allIssues(h, crawl.id, '&category=accessibility')).toEqual([]);
    },
    BROWSER_TIMEOUT,
  );

  it(
    'reports axe findings on fetched HTML with check_accessibility, layout rules aside',
    async () => {
      const { campaign } = await projectWithCampaign(h, site.url, { check_accessibility: true });
      const crawl = await crawlToSettled(h, campaign.id);
      const a11y = await allIssues(h, crawl.id, '&category=accessibility');
      const image = a11y.find((i) => i.name === 'a11y_image-alt');
      expect(image).toEqual({ name: 'a11y_image-alt', severity: 'error', category: 'accessibility', url: `${site.url}/`, details: 'Images must have alternative text: 1 element, img' });
      expect(a11y.map((i) => i.name)).not.toContain('a11y_color-contrast');
      const summary = (await (await h.call('GET', `/v1/crawls/${crawl.id}/issues/summary`)).json()).data;
      expect(summary.groups).toContainEqual({ name: 'a11y_image-alt', label: expect.any(String), severity: 'error', category: 'accessibility', occurrences: 1, pages: 1, templates: [] });
    },
    BROWSER_TIMEOUT,
  );

  it(
    'summarises an axe finding repeated by a template: the issue summary reads its scope (one per page)',
    async () => {
      // Four pages of one template, each with an image without alt: enough pages to be asked
      // whether a template causes it, which read the catalogue entry an axe rule does not have.
      const templated = await serve(
        Object.fromEntries([
          ['/', { body: page({ title: 'The shop, its catalogue and its team', body: '<main><h1>Shop</h1><img src="/logo.png"><a href="/a">A</a> <a href="/b">B</a> <a href="/c">C</a></main>' }) }],
          ...['a', 'b', 'c'].map((p) => [`/${p}`, { body: page({ title: `Page ${p} of the shop, with its logo`, body: `<main><h1>${p}</h1><img src="/logo.png"><a href="/">Home</a></main>` }) }]),
          ['/logo.png', { type: 'image/png', body: '' }],
        ]),
      );
      try {
        const { campaign } = await projectWithCampaign(h, templated.url, { check_accessibility: true });
        const crawl = await crawlToSettled(h, campaign.id);
        const res = await h.call('GET', `/v1/crawls/${crawl.id}/issues/summary`);
        expect(res.status).toBe(200);
        const summary = (await res.json()).data;
        expect(summary.groups).toContainEqual(expect.objectContaining({ name: 'a11y_image-alt', pages: 4 }));
      } finally {
        await templated.close();
      }
    },
    BROWSER_TIMEOUT,
  );

  it(
    'runs the full rule set in Chromium with check_accessibility_rendered',
    async () => {
      const { campaign } = await projectWithCampaign(h, site.url, { check_accessibility_rendered: true });
      const crawl = await crawlToSettled(h, campaign.id);
      const names = (await allIssues(h, crawl.id, '&category=accessibility')).map((i) => i.name);
      expect(names).toEqual(expect.arrayContaining(['a11y_image-alt', 'a11y_color-contrast']));
    },
    BROWSER_TIMEOUT,
  );
});
