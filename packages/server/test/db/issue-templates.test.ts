/**
 * Template decisions in the issue summary, over HTTP (docs/checks.md, "Scope"): a check on most
 * pages of one section for one cause reads as one decision of that section, the occurrences
 * staying listed page by page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { page, serve, type LocalSite } from '../../../../tests/support/rendering.js';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { allIssues, crawlToSettled, pathOf, projectWithCampaign } from './support/crawl-flow.js';

let h: Harness;
let site: LocalSite;

// 12 pages at the root with an h1, 10 under /docs/ whose template has none: h1_missing is on 10 of
// 22 pages (not most of the site) but on every page of /docs/.
const ROOT = Array.from({ length: 11 }, (_, i) => `/p${i}`);
const DOCS = Array.from({ length: 10 }, (_, i) => `/docs/d${i}`);
// And 30 meta-refresh stubs (as rustdoc writes them), linked from the home page: redirects, not
// HTML pages of the site's template (else http_page, on the 22 pages, would be under half of 52).
const STUBS = Array.from({ length: 30 }, (_, i) => `/old/s${i}`);
const links = [...ROOT, ...DOCS].map((p) => `<a href="${p}">${p}</a>`).join(' ');
const stub = (to: string) =>
  `<!DOCTYPE html><html lang="en"><head><meta http-equiv="refresh" content="0;URL=${to}"><title>Redirection</title></head><body><p>Redirecting to <a href="${to}">${to}</a>...</p></body></html>`;

beforeAll(async () => {
  h = await startHarness();
  const routes: Record<string, { body: string; type?: string }> = {
    '/': { body: page({ body: `<main><h1>Home</h1><p>Welcome.</p>${links} ${STUBS.map((p) => `<a href="${p}">${p}</a>`).join(' ')}</main>` }) },
    '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nAllow: /\n' },
  };
  for (const p of ROOT) routes[p] = { body: page({ body: `<main><h1>Page ${p}</h1><p>Text.</p>${links}</main>` }) };
  for (const p of DOCS) routes[p] = { body: page({ body: `<main><h2>Doc ${p}</h2><p>Text.</p>${links}</main>` }) };
  for (const [i, p] of STUBS.entries()) routes[p] = { body: stub(ROOT[i % ROOT.length]) };
  site = await serve(routes);
});
afterAll(async () => {
  await h?.close();
  await site?.close();
});

describe('template decisions of a section', () => {
  it('reads a check on every page of /docs/ as one decision of that section, its pages still listed', async () => {
    const { campaign } = await projectWithCampaign(h, site.url);
    const crawl = await crawlToSettled(h, campaign.id);
    const res = await h.call('GET', `/v1/crawls/${crawl.id}/issues/summary`, { headers: { 'accept-language': 'en' } });
    const summary = (await res.json()).data;
    const group = summary.groups.find((g: { name: string }) => g.name === 'h1_missing');
    expect(group).toMatchObject({ pages: 10, templates: [{ scope: 'section', section: '/docs/', pages: 10, share: 1, details: 'no <h1>' }] });
    expect(group.templates[0].examples).toHaveLength(3);
    for (const url of group.templates[0].examples) expect(pathOf(url).startsWith('/docs/')).toBe(true);
    // The occurrences stay readable page by page.
    expect((await allIssues(h, crawl.id, '&name=h1_missing')).map((i) => pathOf(i.url)).sort()).toEqual([...DOCS].sort());
    // A check on every page of the site is the site's decision, not each section's.
    const http = summary.groups.find((g: { name: string }) => g.name === 'http_page');
    expect(http.templates).toEqual([expect.objectContaining({ scope: 'site', section: null, pages: 22, share: 1 })]);
    // The stubs are redirects: meta_refresh on each, and no template decision counts them as pages.
    expect(summary.groups.find((g: { name: string }) => g.name === 'meta_refresh')).toMatchObject({ pages: 30 });
  });

  it('scores a template decision of the page checks over the same pages: the stubs, redirects, are scored URLs, not HTML pages', async () => {
    const { project, campaign } = await projectWithCampaign(h, site.url);
    const crawl = await crawlToSettled(h, campaign.id);
    const summary = (await (await h.call('GET', `/v1/crawls/${crawl.id}/issues/summary`)).json()).data;
    const card = (await (await h.call('GET', `/v1/projects/${project.id}/scorecard`)).json()).data;
    const technique = card.pillars.find((p: { key: string }) => p.key === 'technique');
    // 22 pages (the home page among them) and 30 stubs: 52 scored URLs, 22 HTML pages.
    expect(technique.computation).toMatchObject({ scored_pages: 52, html_pages: 22 });
    const checks = technique.axes.flatMap((a: { checks: { name: string }[] }) => a.checks);
    const scored = (name: string) => checks.find((c: { name: string }) => c.name === name);
    // http_page is on every HTML page (not the stubs): the summary's decision of the whole site
    // (share 1), and the scorecard's full weight of an error, "22 of 22 pages" (was 22 of 52,
    // a share of 0.42 the stubs diluted).
    const http = summary.groups.find((g: { name: string }) => g.name === 'http_page');
    expect(http.templates).toEqual([expect.objectContaining({ scope: 'site', pages: 22, share: 1 })]);
    expect(scored('http_page')).toMatchObject({ pages: 22, judged_pages: 22, share: 1 });
    expect(scored('http_page').cost).toBeCloseTo(0.35, 12);
    // meta_refresh is on the stubs: a redirect, judged among the scored URLs as a 301 is.
    expect(scored('meta_refresh')).toMatchObject({ pages: 30, judged_pages: 52 });
  });
});

describe('a settled crawl\'s summary, stored when it settles', () => {
  it('answers the summary, the fix list and the scorecard from what the crawl stored, as counting its issues again would', async () => {
    const { project, campaign } = await projectWithCampaign(h, site.url);
    const crawl = await crawlToSettled(h, campaign.id);
    const reads = async () => {
      const out: unknown[] = [];
      for (const language of ['en', 'fr']) {
        const headers = { 'accept-language': language };
        out.push((await (await h.call('GET', `/v1/crawls/${crawl.id}/issues/summary`, { headers })).json()).data);
        out.push((await (await h.call('GET', `/v1/crawls/${crawl.id}/recommendations?limit=100`, { headers })).json()).data);
        out.push((await (await h.call('GET', `/v1/projects/${project.id}/scorecard`, { headers })).json()).data);
      }
      return out;
    };
    const row = await h.knex('crawl_summaries').where({ crawl_id: crawl.id }).first();
    expect(row, 'the settled crawl stored its summary').toBeTruthy();
    const stored = await reads();
    // Without the stored row (a crawl settled before summaries were stored), the same answers,
    // counted from the issues.
    await h.knex('crawl_summaries').where({ crawl_id: crawl.id }).delete();
    expect(await reads()).toEqual(stored);
    // With it, the issues are not read again: an issue removed behind the API's back changes nothing.
    await h.knex('crawl_summaries').insert(row);
    await h.knex('crawl_issues').where({ crawl_id: crawl.id, name: 'h1_missing' }).delete();
    expect(await reads()).toEqual(stored);
    const summary = (stored[0] as { groups: { name: string; templates: unknown[] }[] }).groups;
    expect(summary.find((g) => g.name === 'h1_missing')?.templates).toHaveLength(1);
  });
});

describe('what a template is made of', () => {
  it('counts only the HTML pages: broken targets linked from one page are no decision of the template', async () => {
    // Six HTML pages; the home page links nine targets that answer 404. http_4xx is on nine URLs,
    // more than half as many as the pages, but on none of them: those URLs are not pages of it.
    const gone = Array.from({ length: 9 }, (_, i) => `/gone/g${i}`);
    const pages = Array.from({ length: 5 }, (_, i) => `/a${i}`);
    const nav = pages.map((p) => `<a href="${p}">${p}</a>`).join(' ');
    const routes: Record<string, { body: string; type?: string }> = {
      '/': { body: page({ body: `<main><h1>Home</h1><p>Welcome.</p>${nav} ${gone.map((p) => `<a href="${p}">${p}</a>`).join(' ')}</main>` }) },
      '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nAllow: /\n' },
    };
    for (const p of pages) routes[p] = { body: page({ body: `<main><h1>Page ${p}</h1><p>Text.</p>${nav}</main>` }) };
    const small = await serve(routes);
    try {
      const { campaign } = await projectWithCampaign(h, small.url);
      const crawl = await crawlToSettled(h, campaign.id);
      const summary = (await (await h.call('GET', `/v1/crawls/${crawl.id}/issues/summary`, { headers: { 'accept-language': 'en' } })).json()).data;
      const group = (name: string) => summary.groups.find((g: { name: string }) => g.name === name);
      expect(group('http_4xx')).toMatchObject({ pages: 9, templates: [] });
      expect(group('broken_internal_link')).toMatchObject({ pages: 1, occurrences: 9, templates: [] });
      // A decision that is on the pages still reads as one: the site is served over HTTP.
      expect(group('http_page').templates).toEqual([expect.objectContaining({ scope: 'site', pages: 6, share: 1 })]);
    } finally {
      await small.close();
    }
  });
});

describe('a template whose pages differ in a count', () => {
  it('shows the range the count spans, not one page’s count, and examples from all its pages', async () => {
    // 12 pages over 100 links each (the catalogue's threshold), from 101 to 112.
    const paths = Array.from({ length: 12 }, (_, i) => `/t${i}`);
    const routes: Record<string, { body: string; type?: string }> = { '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nAllow: /\n' } };
    paths.forEach((p, i) => {
      const extra = Array.from({ length: 89 + i }, (_, k) => `<a href="/x${k}">x${k}</a>`).join(' ');
      const own = paths.map((q) => `<a href="${q}">${q}</a>`).join(' ');
      routes[p === '/t0' ? '/' : p] = { body: page({ body: `<main><h1>Page ${p}</h1><p>Text.</p>${own} ${extra}</main>` }) };
    });
    const links = await serve(routes);
    try {
      const { campaign } = await projectWithCampaign(h, links.url, { max_urls: 30 });
      const crawl = await crawlToSettled(h, campaign.id);
      const counts = (await allIssues(h, crawl.id, '&name=too_many_links')).map((i) => Number(/^(\d+) links$/.exec(i.details)![1]));
      expect(counts.length).toBe(12);
      const [min, max] = [Math.min(...counts), Math.max(...counts)];
      expect(min).toBeLessThan(max);
      for (const [language, words] of [['en', 'links'], ['fr', 'liens']] as const) {
        const summary = (await (await h.call('GET', `/v1/crawls/${crawl.id}/issues/summary`, { headers: { 'accept-language': language } })).json()).data;
        const group = summary.groups.find((g: { name: string }) => g.name === 'too_many_links');
        expect(group.templates).toEqual([expect.objectContaining({ scope: 'site', pages: 12, details: `${min}–${max} ${words}` })]);
        expect(group.templates[0].examples).toHaveLength(3);
      }
    } finally {
      await links.close();
    }
  });
});
