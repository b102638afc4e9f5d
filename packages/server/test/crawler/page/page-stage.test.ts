import { analyseHere } from '../../../src/crawler/page/page-analysis.js';
import { describe, expect, it } from 'vitest';
import { browserPass } from '../../../src/crawler/page/browser-pass.js';
import { ExternalChecks } from '../../../src/crawler/site/external-checks.js';
import { CHAIN_FAILED, Flag, State } from '../../../src/crawler/run/url-registry.js';
import { HtmlAnalyser } from '../../../src/crawler/page/html-analyser.js';
import { FetchError } from '../../../src/crawler/fetch/http-client.js';
import { PageStage } from '../../../src/crawler/page/page-stage.js';
import { ResourceChecks } from '../../../src/crawler/site/resource-checks.js';
import { accessibilityDetails, parseJsonLd } from '../../../src/crawler/page/page-record.js';
import { RenderError, type PageRenderer } from '../../../src/crawler/crawl-types.js';
import { fakeClient, parts, response, START } from '../parts.js';
import { prose } from '../fixture-site.js';

const HTML = { 'content-type': 'text/html; charset=utf-8' };

function page(body: string, title = 'A product page of the shop') {
  return `<!doctype html><html lang="en"><head><title>${title}</title></head><body><h1>Shop</h1>${body}<p>${prose('stage')}</p></body></html>`;
}

function stage(options: { checkExternalLinks?: boolean; renderer?: PageRenderer; javascriptRendering?: boolean } = {}) {
  const p = parts();
  const client = fakeClient({});
  const externals = new ExternalChecks(p.ctx(client), { maxExternalChecks: 10 });
  const resources = new ResourceChecks(p.ctx(client), { maxResourceChecks: 10, maxRedirects: 10, token: 'siteauditbot' });
  const browser = options.renderer
    ? { renderer: options.renderer, javascriptRendering: options.javascriptRendering ?? false, rules: 'static' as const, token: 'siteauditbot', signal: p.control.signal }
    : null;
  const s = new PageStage(p.ctx(client), { links: p.links, externals, resources }, {
    maxHtmlBytes: 1024 * 1024,
    checkExternalLinks: options.checkExternalLinks ?? false,
    token: 'siteauditbot',
    browser,
    analyser: analyseHere,
  });
  return { ...p, client, handle: (id: number, r: ReturnType<typeof response>, depth = 0) => s.handle({ id, url: p.reg.url(id), depth, response: r, slot: null }) };
}

describe('page stage', () => {
  it('analyses an HTML page: record, digest, links one depth down, its own issues', async () => {
    const t = stage();
    await t.handle(t.startId, response(200, HTML, page('<a href="/a">a</a> <a href="/b">b</a>')));
    const [record] = t.store.pages;
    expect(record).toMatchObject({ url: START, status_code: 200, title: 'A product page of the shop', h1: 'Shop', internal_links: 2, lang: 'en' });
    expect(record.content_hash).toMatch(/^[0-9a-f]+$/);
    expect(t.reg.state[t.startId]).toBe(State.Done);
    for (const flag of [Flag.Html, Flag.HasTitle, Flag.HasText]) expect(t.reg.has(t.startId, flag)).toBe(true);
    const a = t.reg.get(`${START}a`)!;
    expect([t.reg.depth[a], t.reg.state[a], t.reg.inlinks[a]]).toEqual([1, State.Queued, 1]);
    expect(t.store.issues.map((i) => i.name)).toContain('description_missing');
  });

  it('records an error answer with its status issue, unread', async () => {
    const t = stage();
    await t.handle(t.startId, response(404, { ...HTML, 'content-length': '120' }, 'not found'));
    expect(t.store.pages.map((p) => [p.status_code, p.size_bytes, p.title])).toEqual([[404, 120, null]]);
    expect(t.store.issues.map((i) => i.name)).toEqual(['http_4xx']);
    expect(t.client.discarded).toBe(1);
  });

  it('records a challenge page as protection, without its issues, and stops the crawl on the start URL', async () => {
    const t = stage();
    await t.handle(t.startId, response(200, HTML, '<html><head><title>Just a moment...</title></head><body>Checking your browser before accessing</body></html>'));
    expect(t.store.pages.map((p) => [p.protection, p.error_type])).toEqual([[true, 'protection']]);
    expect(t.store.issues).toEqual([]);
    expect(t.control.blocked).toBe('firewall');
  });

  it('records a body that fails half way as a fetch failure', async () => {
    const t = stage();
    t.client.stream = async () => {
      throw new FetchError('connection', 'reset', START);
    };
    await t.handle(t.startId, response(200, HTML, page('')));
    expect(t.store.pages.map((p) => p.error_type)).toEqual(['connection']);
    expect(t.reg.finalStatus[t.startId]).toBe(CHAIN_FAILED);
    expect(t.store.issues.map((i) => i.details)).toEqual(['connection while reading the body: reset']);
  });

  it('checks external links and the images it loads, internal and third-party, as auxiliary jobs', async () => {
    const t = stage({ checkExternalLinks: true });
    let jobs = 0;
    t.scheduler.queueAux = () => void jobs++;
    await t.handle(t.startId, response(200, HTML, page('<a href="https://other.example/">x</a><img src="/i.png" alt="i"><img src="https://cdn.example/i.png" alt="i">')));
    expect(jobs).toBe(3);
  });

  it('hands the fetched HTML to the browser and reports its accessibility findings unscored', async () => {
    const seen: string[] = [];
    const renderer: PageRenderer = {
      render: async () => ({ html: '', accessibility: null }),
      auditHtml: async (p) => {
        seen.push(p.html);
        return [{ rule: 'image-alt', impact: 'critical', help: 'Images must have alternative text', targets: ['img'], nodes: 1 }];
      },
    };
    const t = stage({ renderer });
    const html = page('<img src="/i.png">');
    await t.handle(t.startId, response(200, HTML, html));
    expect(seen).toEqual([html]);
    const a11y = t.store.issues.find((i) => i.name === 'a11y_image-alt')!;
    expect(a11y).toMatchObject({ severity: 'error', category: 'accessibility', details: 'Images must have alternative text: 1 element, img' });
  });
});

describe('browser pass', () => {
  const fetchedPage = { url: START, status: 200, headers: {}, html: '<title>Fetched</title>' };
  const facts = () => {
    const a = new HtmlAnalyser(['robots', 'siteauditbot']);
    a.write(fetchedPage.html);
    return a.end();
  };
  const options = (renderer: PageRenderer, javascriptRendering = true) => ({
    renderer,
    javascriptRendering,
    rules: 'none' as const,
    token: 'siteauditbot',
    signal: new AbortController().signal,
  });

  it('analyses the rendered DOM with JavaScript rendering', async () => {
    const renderer = { render: async () => ({ html: '<title>Rendered</title>', accessibility: null }), auditHtml: async () => [] };
    const outcome = await browserPass(options(renderer), fetchedPage, facts());
    expect(outcome.html.titles).toEqual(['Rendered']);
    expect(outcome.failure).toBeNull();
  });

  it('falls back to the fetched HTML when rendering fails, and fails the crawl when no browser starts', async () => {
    const failing = (code: string) => ({
      render: async () => {
        throw new RenderError(code, 'went wrong');
      },
      auditHtml: async () => [],
    });
    const outcome = await browserPass(options(failing('timeout')), fetchedPage, facts());
    expect(outcome.html.titles).toEqual(['Fetched']);
    expect(outcome.failure).toBe('timeout: went wrong');
    await expect(browserPass(options(failing('launch_failed')), fetchedPage, facts())).rejects.toThrow('went wrong');
  });
});

describe('page record helpers', () => {
  it('keeps the JSON-LD blocks that parse, within 32 KB', () => {
    expect(parseJsonLd(['{"a":1}', 'not json', '[2]'])).toEqual([{ a: 1 }, [2]]);
    expect(parseJsonLd([`"${'x'.repeat(40 * 1024)}"`, '{"b":2}'])).toEqual([]);
  });

  it('summarises an accessibility finding with at most three selectors', () => {
    expect(accessibilityDetails({ rule: 'r', impact: 'minor', help: 'Help', targets: ['a', 'b', 'c', 'd'], nodes: 5 })).toBe('Help: 5 elements, a, b, c (+2)');
  });
});
