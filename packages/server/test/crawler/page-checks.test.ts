/**
 * One page built to trigger each page-level check, and a clean page built not to. The clean page
 * is HTTPS with HSTS and compression, so it must trigger nothing at all.
 */
import { describe, expect, it } from 'vitest';
import { CHECKS, THRESHOLDS } from '../../src/crawler/index.js';
import { HtmlAnalyser } from '../../src/crawler/html.js';
import { analysePage, type PageInput } from '../../src/crawler/page-audit.js';
import { prose } from './fixture-site.js';

const URL_ = 'https://shop.example/p';

interface Build {
  lang?: string | null;
  titles?: string[];
  description?: string | null;
  viewport?: boolean;
  canonical?: string[];
  og?: boolean;
  head?: string;
  main?: string;
  text?: string;
  links?: string;
}

function html(b: Build = {}): string {
  const titles = b.titles ?? ['A clean product page title'];
  const description = b.description === undefined ? 'A clean description of the product page, long enough to be useful in results.' : b.description;
  const canonical = b.canonical ?? [URL_];
  return [
    `<!doctype html><html${b.lang === null ? '' : ` lang="${b.lang ?? 'en'}"`}><head>`,
    ...titles.map((t) => `<title>${t}</title>`),
    description === null ? '' : `<meta name="description" content="${description}">`,
    b.viewport === false ? '' : '<meta name="viewport" content="width=device-width">',
    ...canonical.map((c) => `<link rel="canonical" href="${c}">`),
    b.og === false ? '' : '<meta property="og:title" content="t"><meta property="og:description" content="d"><meta property="og:image" content="https://shop.example/i.png">',
    b.head ?? '',
    '</head><body>',
    `<nav>${b.links ?? '<a href="/">home</a> <a href="https://other.example/">other</a>'}</nav>`,
    `<main>${b.main ?? `<h1>Product</h1><h2>Details</h2><p>${b.text ?? prose('page-checks')}</p><img src="/i.png" alt="pic" width="1" height="1">`}</main>`,
    '</body></html>',
  ].join('');
}

function audit(source: string, over: Partial<PageInput> = {}) {
  const analyser = new HtmlAnalyser(['robots', 'siteauditbot']);
  analyser.write(source);
  return analysePage({
    url: URL_,
    status: 200,
    headers: { 'content-encoding': 'gzip', 'strict-transport-security': 'max-age=31536000' },
    ttfbMs: 120,
    depth: 1,
    discoveredVia: 'link',
    html: analyser.end(),
    sizeBytes: Buffer.byteLength(source),
    isInternal: (u) => new URL(u).hostname === 'shop.example',
    robotsToken: 'siteauditbot',
    ...over,
  });
}

const names = (source: string, over: Partial<PageInput> = {}) => audit(source, over).findings.map((f) => f.name);

const manyLinks = Array.from({ length: THRESHOLDS.maxLinks + 1 }, (_, i) => `<a href="/l${i}">${i}</a>`).join('');

/** [check, page that triggers it]: each case changes one thing of the clean page. */
const TRIGGERS: [string, () => string[]][] = [
  ['http_page', () => names(html(), { url: 'http://shop.example/p' })],
  ['mixed_content', () => names(html({ head: '<script src="http://cdn.example/a.js"></script>' }))],
  ['hsts_missing', () => names(html(), { headers: { 'content-encoding': 'gzip' } })],
  ['meta_refresh', () => names(html({ head: '<meta http-equiv="refresh" content="3; url=/elsewhere">' }))],
  ['noindex', () => names(html({ head: '<meta name="robots" content="noindex">' }))],
  ['meta_robots_in_body', () => names(html({ main: `<h1>P</h1><meta name="robots" content="index"><p>${prose('x')}</p>` }))],
  ['deep_page', () => names(html(), { depth: THRESHOLDS.maxDepth + 1 })],
  ['dead_end_page', () => names(html({ links: '' }))],
  ['canonical_conflict', () => names(html({ canonical: [URL_, 'https://shop.example/other'] }))],
  ['canonical_relative', () => names(html({ canonical: ['/p'] }))],
  ['title_missing', () => names(html({ titles: [] }))],
  ['title_too_long', () => names(html({ titles: ['x'.repeat(THRESHOLDS.titleMax + 1)] }))],
  ['title_too_short', () => names(html({ titles: ['Short'] }))],
  ['title_multiple', () => names(html({ titles: ['A clean product page title', 'Another clean title for it'] }))],
  ['description_missing', () => names(html({ description: null }))],
  ['description_too_short', () => names(html({ description: 'Too short.' }))],
  ['description_too_long', () => names(html({ description: 'y'.repeat(THRESHOLDS.descriptionMax + 1) }))],
  ['h1_missing', () => names(html({ main: `<h2>Only h2</h2><p>${prose('x')}</p>` }))],
  ['h1_multiple', () => names(html({ main: `<h1>One</h1><h1>Two</h1><p>${prose('x')}</p>` }))],
  ['heading_skip', () => names(html({ main: `<h1>One</h1><h3>Three</h3><p>${prose('x')}</p>` }))],
  ['thin_content', () => names(html({ text: prose('thin', 50) }))],
  ['lang_missing', () => names(html({ lang: null }))],
  ['lang_invalid', () => names(html({ lang: 'english!' }))],
  ['viewport_missing', () => names(html({ viewport: false }))],
  ['html_too_large', () => names(html(), { sizeBytes: THRESHOLDS.htmlBytes + 1 })],
  ['duplicate_id', () => names(html({ main: `<h1 id="a">P</h1><p id="a">${prose('x')}</p>` }))],
  ['too_many_links', () => names(html({ links: manyLinks }))],
  ['internal_nofollow', () => names(html({ links: '<a href="/x" rel="nofollow">x</a>' }))],
  ['image_missing_alt', () => names(html({ main: `<h1>P</h1><p>${prose('x')}</p><img src="/a.png" width="1" height="1">` }))],
  ['image_alt_too_long', () => names(html({ main: `<h1>P</h1><p>${prose('x')}</p><img src="/a.png" width="1" height="1" alt="${'a'.repeat(101)}">` }))],
  ['image_missing_dimensions', () => names(html({ main: `<h1>P</h1><p>${prose('x')}</p><img src="/a.png" alt="a" width="1">` }))],
  ['hreflang_no_x_default', () => names(html({ head: `<link rel="alternate" hreflang="en" href="${URL_}"><link rel="alternate" hreflang="fr" href="https://shop.example/fr/p">` }))],
  ['hreflang_no_self', () => names(html({ head: '<link rel="alternate" hreflang="x-default" href="https://shop.example/fr/p">' }))],
  ['slow_response', () => names(html(), { ttfbMs: THRESHOLDS.slowMs + 1 })],
  ['not_compressed', () => names(html(), { headers: { 'strict-transport-security': 'max-age=1' } })],
  ['form_to_http', () => names(html({ main: `<h1>P</h1><p>${prose('x')}</p><form method="POST" action="http://shop.example/send"></form>` }))],
  ['jsonld_invalid', () => names(html({ head: '<script type="application/ld+json">{"@type": </script>' }))],
  ['og_missing', () => names(html({ og: false }))],
];

describe('page-level checks', () => {
  it('a clean page triggers none', () => {
    expect(names(html())).toEqual([]);
  });

  it.each(TRIGGERS)('%s: a page built for it triggers it', (name, run) => {
    expect(CHECKS).toHaveProperty(name);
    expect(run()).toContain(name);
  });

  it('stays quiet at the thresholds and on the legitimate variants', () => {
    expect(names(html({ titles: ['x'.repeat(THRESHOLDS.titleMax)] }))).not.toContain('title_too_long');
    expect(names(html({ titles: ['x'.repeat(THRESHOLDS.titleMin)] }))).not.toContain('title_too_short');
    expect(names(html({ description: 'd'.repeat(THRESHOLDS.descriptionMin) }))).toEqual([]);
    // alt="" marks a decorative image: not a missing alt.
    expect(names(html({ main: `<h1>P</h1><p>${prose('x')}</p><img src="/a.png" alt="" width="1" height="1">` }))).toEqual([]);
    // Going back up a level is not a skip.
    expect(names(html({ main: `<h1>P</h1><h2>a</h2><h3>b</h3><h2>c</h2><p>${prose('x')}</p>` }))).toEqual([]);
    // A meta refresh to the page itself is a reload, not a redirect.
    expect(names(html({ head: '<meta http-equiv="refresh" content="30">' }))).toEqual([]);
    // X-Robots-Tag for another crawler does not apply to us.
    expect(names(html(), { headers: { 'content-encoding': 'br', 'strict-transport-security': 'x', 'x-robots-tag': 'otherbot: noindex' } })).toEqual([]);
    // A form posting over HTTPS, an https subresource, a complete hreflang set: fine.
    expect(
      names(
        html({
          head: `<script src="https://cdn.example/a.js"></script><link rel="alternate" hreflang="en" href="${URL_}"><link rel="alternate" hreflang="x-default" href="${URL_}">`,
          main: `<h1>P</h1><p>${prose('x')}</p><form method="post" action="/send"></form>`,
        }),
      ),
    ).toEqual([]);
    expect(names(html(), { depth: THRESHOLDS.maxDepth })).toEqual([]);
    // Sitemap-only pages have no click depth to judge.
    expect(names(html(), { depth: 9, discoveredVia: 'sitemap' })).toEqual([]);
    expect(names(html(), { ttfbMs: THRESHOLDS.slowMs })).toEqual([]);
  });

  it('reads noindex from X-Robots-Tag, for everyone or for our token', () => {
    const base = { 'content-encoding': 'gzip', 'strict-transport-security': 'x' };
    expect(names(html(), { headers: { ...base, 'x-robots-tag': 'noindex' } })).toEqual(['noindex']);
    expect(names(html(), { headers: { ...base, 'x-robots-tag': ['otherbot: none', 'siteauditbot: noindex, nofollow'] } })).toEqual(
      expect.arrayContaining(['noindex', 'internal_nofollow']),
    );
    expect(audit(html(), { headers: { ...base, 'x-robots-tag': 'none' } }).summary.indexable).toBe(false);
  });

  it('summarises the page: links resolved and split, canonical, indexability', () => {
    const { summary } = audit(
      html({
        head: '<base href="https://shop.example/dir/">',
        links: '<a href="a">a</a><a href="#top">top</a><a href="mailto:x@y.z">m</a><a href="https://other.example/x#f">o</a><a href="A?b=2&a=1">q</a>',
        canonical: ['https://shop.example/other'],
      }),
    );
    expect(summary.internalLinks.map((l) => l.url)).toEqual(['https://shop.example/dir/a', 'https://shop.example/dir/A?a=1&b=2']);
    expect(summary.externalLinks).toEqual(['https://other.example/x']);
    expect(summary.canonical).toBe('https://shop.example/other');
    expect(summary.indexable).toBe(false);
  });
});

describe('the catalogue', () => {
  it('has at least 45 checks with stable names, severities, categories and both labels', () => {
    const entries = Object.entries(CHECKS);
    expect(entries.length).toBeGreaterThanOrEqual(45);
    for (const [name, def] of entries) {
      expect(name).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
      expect(['error', 'warning', 'info']).toContain(def.severity);
      expect(def.category).toMatch(/^[a-z_]+$/);
      expect(def.label.fr.length).toBeGreaterThan(3);
      expect(def.label.en.length).toBeGreaterThan(3);
      expect(def.label.fr).not.toBe(def.label.en);
    }
  });
});
