/**
 * Canonicals as written: `canonical_url` shows the declared value resolved against the page when
 * it is a URL at all; one that names no crawlable http(s) URL is ignored (the page stays
 * indexable) and raises canonical_invalid; one in <body> is ignored and raises canonical_in_body.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { HtmlAnalyser } from '../../src/crawler/page/html-analyser.js';
import { analysePage, readCanonical } from '../../src/crawler/page/page-audit.js';
import { fillFromAnalysis, emptyRecord } from '../../src/crawler/page/page-record.js';
import { pageHtml, startFixtureSite, type FixtureSite, type Route } from './fixture-site.js';
import { crawl, issuesOf } from '../../../../tests/support/crawler.js';

const URL_ = 'https://docs.example/guide/intro.html';

function audit(head: string, body = '<main><h1>Intro</h1></main>', headers: Record<string, string> = {}) {
  const analyser = new HtmlAnalyser(['robots']);
  analyser.write(`<!doctype html><html><head><title>Intro</title>${head}</head><body>${body}</body></html>`);
  const facts = analyser.end();
  const out = analysePage({
    url: URL_,
    status: 200,
    headers,
    ttfbMs: 10,
    depth: 1,
    discoveredVia: 'link',
    html: facts,
    sizeBytes: 100,
    isInternal: (u) => new URL(u).hostname === 'docs.example',
    robotsToken: 'siteauditbot',
  });
  const record = emptyRecord(URL_, 1, 'link', true);
  fillFromAnalysis(record, out.summary, facts, { contentHash: null, simhash: null });
  const issue = (name: string) => out.findings.find((f) => f.name === name)?.details ?? null;
  return { ...out, record, issue };
}

describe('reading a canonical', () => {
  it.each([
    ['file:///home/build/site/guide/intro.html', 'file:///home/build/site/guide/intro.html', 'file URL file:///home/build/site/guide/intro.html'],
    ['ftp://docs.example/intro', 'ftp://docs.example/intro', 'ftp URL ftp://docs.example/intro'],
    ['mailto:web@docs.example', 'mailto:web@docs.example', 'mailto URL mailto:web@docs.example'],
    ['', null, 'empty href'],
    ['   ', null, 'empty href'],
    ['https://exa mple.com/x', null, '"https://exa mple.com/x" is not a URL'],
    ['http://[::1', null, '"http://[::1" is not a URL'],
  ])('%j is invalid: shown as %j, because %s', (raw, shown, problem) => {
    const r = audit(`<link rel="canonical" href="${raw}">`);
    expect(readCanonical(raw, URL_)).toMatchObject({ url: null, shown, problem });
    expect(r.record.canonical_url).toBe(shown);
    expect(r.issue('canonical_invalid')).toBe(`canonical ignored: ${problem}`);
    // Search engines ignore it: the page is indexable as if it had none.
    expect(r.summary.canonical).toBeNull();
    expect(r.summary.indexable).toBe(true);
  });

  it('resolves a relative canonical against the page (and <base>), and keeps a valid one', () => {
    const r = audit('<link rel="canonical" href="../guide/intro.html#top">');
    expect(r.record.canonical_url).toBe(URL_);
    expect(r.issue('canonical_invalid')).toBeNull();
    expect(r.issue('canonical_relative')).toBe('canonical href "../guide/intro.html#top"');
    const based = audit('<base href="https://docs.example/v2/"><link rel="canonical" href="intro.html">');
    expect(based.record.canonical_url).toBe('https://docs.example/v2/intro.html');
    expect(based.summary.indexable).toBe(false);
  });

  it('reports an invalid canonical in the Link header too', () => {
    const r = audit('', undefined, { link: '<file:///srv/intro.html>; rel="canonical"' });
    expect(r.record.canonical_url).toBe('file:///srv/intro.html');
    expect(r.issue('canonical_invalid')).toBe('canonical ignored: file URL file:///srv/intro.html');
  });

  it('ignores a canonical in <body> and reports it', () => {
    const r = audit('', '<main><h1>Intro</h1><link rel="canonical" href="https://docs.example/other"></main>');
    expect(r.record.canonical_url).toBeNull();
    expect(r.summary.indexable).toBe(true);
    expect(r.issue('canonical_in_body')).toBe('<link rel="canonical" href="https://docs.example/other"> in <body>, where search engines ignore it');
    // After an element that only <body> holds, the head is over (the HTML parsing rules).
    const late = audit('<div>banner</div><link rel="canonical" href="https://docs.example/x">');
    expect(late.record.canonical_url).toBeNull();
    expect(late.issue('canonical_in_body')).not.toBeNull();
  });

  it('raises nothing on a valid canonical in the head', () => {
    const r = audit(`<link rel="canonical" href="${URL_}">`);
    expect(r.findings.map((f) => f.name).filter((n) => n.startsWith('canonical'))).toEqual([]);
    expect(r.record.canonical_url).toBe(URL_);
  });
});

describe('a site whose every page declares a file:// canonical', () => {
  let site: FixtureSite | undefined;
  afterEach(async () => {
    await site?.close();
    site = undefined;
  });

  it('shows each page’s declared canonical and raises canonical_invalid on every page', async () => {
    const page = (path: string, links: string[]): Route => ({
      html: (o) => pageHtml({ path, nav: false, canonical: `file:///var/www/site${path}index.html`, body: links.map((l) => `<a href="${l}">${l}</a>`).join(' ') }, o),
    });
    site = await startFixtureSite({ robots: 'User-agent: *\nAllow: /\n', sitemap: false, only: [], routes: { '/': page('/', ['/a/', '/b/']), '/a/': page('/a/', []), '/b/': page('/b/', []) } });
    const r = await crawl(`${site.origin}/`);
    const html = r.pages.filter((p) => p.status_code === 200);
    expect(html.map((p) => p.url).sort()).toEqual([`${site.origin}/`, `${site.origin}/a/`, `${site.origin}/b/`]);
    for (const p of html) {
      const path = new URL(p.url).pathname;
      expect(p.canonical_url).toBe(`file:///var/www/site${path}index.html`);
      expect(p.indexable).toBe(true);
      expect(issuesOf(r.issues, p.url)).toContain('canonical_invalid');
    }
  });
});
