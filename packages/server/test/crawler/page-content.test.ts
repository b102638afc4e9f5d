/**
 * What the HTML analysis reads of a page: the main content for content facts (word count, heading
 * outline and skips, fingerprints), the whole page for links, however many there are.
 */
import { describe, expect, it } from 'vitest';
import { HtmlAnalyser } from '../../src/crawler/page/html-analyser.js';
import { analysePage } from '../../src/crawler/page/page-audit.js';
import { prose } from './fixture-site.js';

function analyse(html: string, chunk = html.length) {
  const a = new HtmlAnalyser(['robots']);
  for (let i = 0; i < html.length; i += chunk) a.write(html.slice(i, i + chunk));
  return a.end();
}

function findings(html: string, url = 'https://docs.example/guide/') {
  return analysePage({
    url,
    status: 200,
    headers: {},
    ttfbMs: 10,
    depth: 1,
    discoveredVia: 'link',
    html: analyse(html),
    sizeBytes: html.length,
    isInternal: (u) => new URL(u).hostname === 'docs.example',
    robotsToken: 'siteauditbot',
  });
}

/** A documentation page: an h1 article, and a sidebar of h3/h4 sections, as real doc sites are built. */
const DOC_PAGE = (sidebar: (inner: string) => string) => `<!doctype html><html lang="en"><head><title>Guide</title></head><body>
<header><div class="logo">Docs</div><nav><a href="/">Home</a></nav></header>
${sidebar('<h3>Reference</h3><h4>API</h4><ul><li><a href="/api/">API</a></li></ul><h4>CLI</h4><ul><li><a href="/cli/">CLI</a></li></ul>')}
<main><h1>Getting started</h1><p>${prose('doc-page', 120)}</p><h2>Install</h2><p>Run the installer.</p></main>
<footer><h5>Legal</h5><p>Copyright words here</p></footer></body></html>`;

describe('main content', () => {
  it('raises no heading_skip for a sidebar of h3/h4 beside an h1 article, inside or outside <nav>', () => {
    for (const sidebar of [(s: string) => `<nav class="sidebar">${s}</nav>`, (s: string) => `<aside>${s}</aside>`, (s: string) => `<div role="navigation">${s}</div>`]) {
      const page = DOC_PAGE(sidebar);
      const f = analyse(page);
      expect(f.headingSkip).toBeNull();
      expect(f.headings.map((h) => h.level)).toEqual([1, 2]);
      expect(findings(page).findings.map((x) => x.name)).not.toContain('heading_skip');
    }
  });

  it('still raises heading_skip for a skip inside the content', () => {
    const page = DOC_PAGE((s) => `<nav>${s}</nav>`).replace('<h2>Install</h2>', '<h3>Install</h3>');
    expect(analyse(page).headingSkip).toEqual({ from: 1, to: 3 });
    expect(findings(page).findings.map((x) => x.name)).toContain('heading_skip');
  });

  it('counts the words of the main content only', () => {
    const page = DOC_PAGE((s) => `<nav>${s}</nav>`);
    const f = analyse(page);
    // h1 (2) + prose (120) + h2 (1) + "Run the installer." (3): nothing of the header, sidebar or footer.
    expect(f.wordCount).toBe(126);
    expect(f.mainWords).toContain('installer');
    expect(f.mainWords).not.toContain('copyright');
  });

  it('takes <article> and role=main as the main content, keeping an article’s own header', () => {
    const article = analyse('<html><body><div class="menu"><h4>Menu</h4></div><article><header><h1>Post title</h1></header><p>one two three</p></article></body></html>');
    expect(article.wordCount).toBe(5);
    expect(article.headings).toEqual([{ level: 1, text: 'Post title' }]);
    const role = analyse('<html><body><div>Chrome words</div><div role="main"><h2>Section</h2><p>four five</p><nav>skip me</nav></div></body></html>');
    expect(role.wordCount).toBe(3);
    expect(role.mainWords).toEqual(['section', 'four', 'five']);
  });

  it('falls back to the body without navigation, header, footer and aside when there is no main element', () => {
    const f = analyse('<html><body><header><h1>Site</h1></header><nav>menu</nav><div><h2>Title</h2><p>one two</p></div><aside><h4>Aside</h4></aside><div role="contentinfo">foot</div></body></html>');
    expect(f.wordCount).toBe(3);
    expect(f.headings).toEqual([{ level: 2, text: 'Title' }]);
    expect(f.headingSkip).toBeNull();
    // The h1 is read from the whole page, as search engines read it.
    expect(f.h1).toEqual(['Site']);
  });

  it('keeps scopes right across void elements, implied closes and stray end tags', () => {
    const f = analyse('<html><body><nav><p>menu<br><img src="/a.png"></p></nav></br></p><main><p>one<p>two<br>three</main><p>after</p></body></html>');
    expect(f.mainWords).toEqual(['one', 'two', 'three']);
    expect(f.wordCount).toBe(3);
  });

  it('is thin content when only the chrome has words', () => {
    const page = `<html lang="en"><head><title>Tag page</title></head><body><nav>${prose('nav', 400)}</nav><main><h1>Tag</h1><p>Nothing yet.</p></main></body></html>`;
    const thin = findings(page).findings.find((x) => x.name === 'thin_content');
    expect(thin?.details).toBe('3 words');
  });
});

describe('links of large pages', () => {
  it('reads every anchor of a 14,000-anchor contents page, counting distinct targets', () => {
    const anchors: string[] = [];
    // 14,000 anchors: in-page fragments, repeated links, and 484 distinct internal pages (the last ones past 5,000 anchors).
    for (let i = 0; i < 14_000; i++) {
      if (i % 3 === 0) anchors.push(`<a href="#s${i}">§</a>`);
      else if (i % 3 === 1) anchors.push(`<a href="/page/${i % 484}">p</a>`);
      else anchors.push(`<a href="/index.html#s${i}">top</a>`);
    }
    anchors.push('<a href="/page/last-one">last</a>', '<a href="https://elsewhere.example/x">out</a>');
    const page = `<html><head><title>Contents</title></head><body><main>${anchors.join('\n')}</main></body></html>`;
    const { summary } = findings(page, 'https://docs.example/index.html');
    const internal = summary.internalLinks.map((l) => l.url);
    // 484 pages, the last one, and /index.html itself (fragments dropped by normalisation).
    expect(new Set(internal).size).toBe(internal.length);
    expect(internal).toHaveLength(486);
    expect(internal).toContain('https://docs.example/page/last-one');
    expect(internal).toContain('https://docs.example/page/483');
    expect(summary.externalLinks).toEqual(['https://elsewhere.example/x']);
  });

  it('gives the same links whatever the chunking, and marks a target nofollow when any link to it is', () => {
    const page = '<html><body><a href="/a">a</a><a href="/b" rel="nofollow">b</a><a href="/a" rel="NoFollow">a again</a><a href="/b">b again</a></body></html>';
    for (const chunk of [page.length, 7, 1]) {
      expect(analyse(page, chunk).links).toEqual([
        { href: '/a', nofollow: true },
        { href: '/b', nofollow: true },
      ]);
    }
  });
});
