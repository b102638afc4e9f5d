/**
 * One page built to trigger each page-level check, and a clean page built not to. The clean page
 * is HTTPS with HSTS, compression, a declared charset and the security headers, so it must
 * trigger nothing at all.
 */
import { describe, expect, it } from 'vitest';
import { CHECKS, THRESHOLDS } from '../../../src/crawler/index.js';
import { HtmlAnalyser } from '../../../src/crawler/page/html-analyser.js';
import { analysePage } from '../../../src/crawler/page/page-audit.js';
import type { PageInput } from '../../../src/crawler/page/page-facts.js';
import { isLocaleSegment, urlHygiene } from '../../../src/crawler/page/url-hygiene.js';
import { prose } from '../fixture-site.js';

const URL_ = 'https://shop.example/p';

/** The clean page's headers: each case that changes headers starts from them. */
const CLEAN_HEADERS: Record<string, string> = {
  'content-type': 'text/html; charset=utf-8',
  'content-encoding': 'gzip',
  'strict-transport-security': 'max-age=31536000',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'self'; frame-ancestors 'self'",
  'referrer-policy': 'strict-origin-when-cross-origin',
};
const without = (...names: string[]) => Object.fromEntries(Object.entries(CLEAN_HEADERS).filter(([k]) => !names.includes(k)));

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
    b.og === false ? '' : '<meta property="og:title" content="t"><meta property="og:description" content="d"><meta property="og:image" content="https://shop.example/i.png"><meta name="twitter:card" content="summary">',
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
    headers: CLEAN_HEADERS,
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
  ['hsts_missing', () => names(html(), { headers: without('strict-transport-security') })],
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
  ['image_missing_alt', () => names(html({ main: `<h1>P</h1><p>${prose('x')}</p><img src="/a.png" width="1" height="1">` }))],
  ['image_alt_too_long', () => names(html({ main: `<h1>P</h1><p>${prose('x')}</p><img src="/a.png" width="1" height="1" alt="${'a'.repeat(101)}">` }))],
  ['image_missing_dimensions', () => names(html({ main: `<h1>P</h1><p>${prose('x')}</p><img src="/a.png" alt="a" width="1">` }))],
  ['hreflang_no_x_default', () => names(html({ head: `<link rel="alternate" hreflang="en" href="${URL_}"><link rel="alternate" hreflang="fr" href="https://shop.example/fr/p">` }))],
  ['hreflang_no_self', () => names(html({ head: '<link rel="alternate" hreflang="x-default" href="https://shop.example/fr/p">' }))],
  ['slow_response', () => names(html(), { ttfbMs: THRESHOLDS.slowMs + 1 })],
  ['not_compressed', () => names(html(), { headers: without('content-encoding') })],
  ['form_to_http', () => names(html({ main: `<h1>P</h1><p>${prose('x')}</p><form method="POST" action="http://shop.example/send"></form>` }))],
  ['jsonld_invalid', () => names(html({ head: '<script type="application/ld+json">{"@type": </script>' }))],
  ['og_missing', () => names(html({ og: false }))],
  // The deeper catalogue
  ['url_uppercase', () => names(html({ canonical: ['https://shop.example/Shoes'] }), { url: 'https://shop.example/Shoes' })],
  ['url_underscores', () => names(html({ canonical: ['https://shop.example/red_shoes'] }), { url: 'https://shop.example/red_shoes' })],
  ['url_spaces', () => names(html({ canonical: ['https://shop.example/red%20shoes'] }), { url: 'https://shop.example/red%20shoes' })],
  ['url_non_ascii', () => names(html({ canonical: ['https://shop.example/caf%C3%A9'] }), { url: 'https://shop.example/caf%C3%A9' })],
  ['url_too_long', () => names(html({ canonical: [`${URL_}/${'a'.repeat(THRESHOLDS.urlMaxChars)}`] }), { url: `${URL_}/${'a'.repeat(THRESHOLDS.urlMaxChars)}` })],
  ['url_many_parameters', () => names(html({ canonical: ['https://shop.example/p?a=1&b=2&c=3&d=4'] }), { url: 'https://shop.example/p?a=1&b=2&c=3&d=4' })],
  ['url_session_id', () => names(html({ canonical: ['https://shop.example/p?PHPSESSID=abc'] }), { url: 'https://shop.example/p?PHPSESSID=abc' })],
  ['internal_link_to_http', () => names(html({ links: '<a href="http://shop.example/q">q</a>' }))],
  ['soft_404', () => names(html({ titles: ['Page not found – Shop example'] }))],
  ['robots_conflict', () => names(html({ head: '<meta name="robots" content="index"><meta name="siteauditbot" content="nofollow, follow">' }))],
  ['robots_unknown_directive', () => names(html({ head: '<meta name="robots" content="no-index">' }))],
  ['x_robots_tag_directives', () => names(html(), { headers: { ...CLEAN_HEADERS, 'x-robots-tag': 'noarchive, noimageindex' } })],
  ['robots_nosnippet', () => names(html({ head: '<meta name="robots" content="max-snippet:0">' }))],
  ['noindex_with_canonical', () => names(html({ canonical: ['https://shop.example/other'], head: '<meta name="robots" content="noindex">' }))],
  ['canonical_missing', () => names(html({ canonical: [] }))],
  ['canonical_cross_domain', () => names(html({ canonical: ['https://elsewhere.example/p'] }))],
  ['canonical_to_http', () => names(html({ canonical: ['http://shop.example/p'] }))],
  ['description_multiple', () => names(html({ head: '<meta name="description" content="A second description of the product page, long enough to be useful.">' }))],
  ['h1_empty', () => names(html({ main: `<h1> </h1><p>${prose('x')}</p>` }))],
  ['h1_too_long', () => names(html({ main: `<h1>${'Long heading '.repeat(7)}</h1><p>${prose('x')}</p>` }))],
  ['placeholder_text', () => names(html({ text: `Lorem ipsum dolor sit amet. ${prose('x')}` }))],
  ['charset_missing', () => names(html(), { headers: { ...CLEAN_HEADERS, 'content-type': 'text/html' } })],
  ['anchor_text_empty', () => names(html({ links: '<a href="/">home</a> <a href="/cart"><span class="icon"></span></a>' }))],
  ['anchor_text_generic', () => names(html({ links: '<a href="/">home</a> <a href="/news/1">Read more…</a>' }))],
  ['hreflang_invalid_code', () => names(html({ head: `<link rel="alternate" hreflang="en-UK" href="${URL_}"><link rel="alternate" hreflang="x-default" href="${URL_}">` }))],
  ['hreflang_duplicate_lang', () => names(html({ head: `<link rel="alternate" hreflang="fr" href="${URL_}"><link rel="alternate" hreflang="fr" href="https://shop.example/fr"><link rel="alternate" hreflang="x-default" href="${URL_}">` }))],
  ['x_content_type_options_missing', () => names(html(), { headers: without('x-content-type-options') })],
  ['csp_missing', () => names(html(), { headers: { ...without('content-security-policy'), 'x-frame-options': 'DENY' } })],
  ['frame_protection_missing', () => names(html(), { headers: { ...CLEAN_HEADERS, 'content-security-policy': "default-src 'self'" } })],
  ['referrer_policy_missing', () => names(html(), { headers: without('referrer-policy') })],
  ['og_image_not_absolute', () => names(html({ head: '<meta property="og:image" content="/img/share.png">', og: false }))],
  ['twitter_card_missing', () => names(html({ og: false, head: '<meta property="og:title" content="t"><meta property="og:description" content="d"><meta property="og:image" content="https://shop.example/i.png">' }))],
  ...(
    [
      ['schema_product_incomplete', { '@type': 'Product', name: 'Widget' }],
      ['schema_article_incomplete', { '@type': 'BlogPosting', author: 'A' }],
      ['schema_breadcrumb_incomplete', { '@type': 'BreadcrumbList', itemListElement: [{ '@type': 'ListItem', position: 1, name: 'Home' }, { '@type': 'ListItem', position: 2, name: 'Shoes' }] }],
      ['schema_organization_incomplete', { '@type': 'Organization', url: 'https://shop.example/' }],
      ['schema_faq_incomplete', { '@type': 'FAQPage', mainEntity: [{ '@type': 'Question', name: 'Why?', acceptedAnswer: { '@type': 'Answer' } }] }],
      ['schema_event_incomplete', { '@type': 'Event', name: 'Sale', startDate: '2026-12-01' }],
      ['schema_recipe_incomplete', { '@type': 'Recipe', name: 'Soup' }],
      ['schema_local_business_incomplete', { '@context': 'https://schema.org', '@graph': [{ '@type': 'Restaurant', name: 'Chez nous' }] }],
    ] as const
  ).map(([name, data]): [string, () => string[]] => [name, () => names(html({ head: `<script type="application/ld+json">${JSON.stringify(data)}</script>` }))]),
];

/** Structured data each rich result accepts: complete, so nothing is reported. */
const COMPLETE_STRUCTURED_DATA = [
  { '@context': 'https://schema.org', '@type': 'Product', name: 'Widget', offers: { '@type': 'Offer', price: '9.90', priceCurrency: 'EUR' } },
  { '@type': ['Article'], headline: 'News', brand: { '@type': 'Organization' } },
  { '@type': 'BreadcrumbList', itemListElement: [{ '@type': 'ListItem', position: 1, name: 'Home', item: 'https://shop.example/' }, { '@type': 'ListItem', position: 2, name: 'Shoes' }] },
  { '@type': 'Organization', name: 'Shop' },
  { '@type': 'FAQPage', mainEntity: [{ '@type': 'Question', name: 'Why?', acceptedAnswer: { '@type': 'Answer', text: 'Because.' } }] },
  { '@type': 'Event', name: 'Sale', startDate: '2026-12-01', location: { '@type': 'Place', name: 'Shop' } },
  { '@type': 'Recipe', name: 'Soup', image: 'https://shop.example/soup.jpg' },
  { '@graph': [{ '@type': 'LocalBusiness', name: 'Shop', address: '1 rue de la Paix, Paris' }, { '@type': 'WebSite', name: 'Shop' }] },
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
    // Chinese, Japanese and Korean characters count as two half-widths: an 11-character Japanese title is 22 wide.
    expect(names(html({ titles: ['シェルのチュートリアル'] }))).not.toContain('title_too_short');
    expect(audit(html({ titles: ['序章'] })).findings.find((i) => i.name === 'title_too_short')?.details).toBe('2 characters, 4 half-widths (a Chinese, Japanese or Korean character counts as two)');
    expect(names(html({ titles: ['日本語'.repeat(11)] }))).toContain('title_too_long');
    // alt="" marks a decorative image: not a missing alt.
    expect(names(html({ main: `<h1>P</h1><p>${prose('x')}</p><img src="/a.png" alt="" width="1" height="1">` }))).toEqual([]);
    // Going back up a level is not a skip.
    expect(names(html({ main: `<h1>P</h1><h2>a</h2><h3>b</h3><h2>c</h2><p>${prose('x')}</p>` }))).toEqual([]);
    // A meta refresh to the page itself is a reload, not a redirect.
    expect(names(html({ head: '<meta http-equiv="refresh" content="30">' }))).toEqual([]);
    // X-Robots-Tag for another crawler does not apply to us.
    expect(names(html(), { headers: { ...CLEAN_HEADERS, 'x-robots-tag': 'otherbot: noindex' } })).toEqual([]);
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

  it('stays quiet on the legitimate variants of the deeper catalogue', () => {
    const quiet = (source: string, over: Partial<PageInput> = {}) => expect(names(source, over)).toEqual([]);
    // URLs: an encoded é is not uppercase; dashes, three parameters, a sort parameter are fine.
    quiet(html({ canonical: ['https://shop.example/red-shoes?a=1&b=2&sort=asc'] }), { url: 'https://shop.example/red-shoes?a=1&b=2&sort=asc' });
    // Robots: consistent directives, and directives of other engines, say nothing wrong.
    quiet(html({ head: '<meta name="robots" content="index, follow, max-snippet:-1, max-image-preview:large, noodp">' }));
    quiet(html(), { headers: { ...CLEAN_HEADERS, 'x-robots-tag': 'otherbot: noarchive' } });
    // A self canonical on a noindex page; a canonical to the page itself.
    expect(names(html({ head: '<meta name="robots" content="noindex">' }))).toEqual(['noindex']);
    // A noindex page without canonical is not asked for one.
    expect(names(html({ canonical: [], head: '<meta name="robots" content="noindex">' }))).toEqual(['noindex']);
    // The charset in <meta charset> is as good as in the header; frame-ancestors or X-Frame-Options.
    quiet(html({ head: '<meta charset="utf-8">' }), { headers: { ...CLEAN_HEADERS, 'content-type': 'text/html' } });
    quiet(html(), { headers: { ...CLEAN_HEADERS, 'content-security-policy': "default-src 'self'", 'x-frame-options': 'SAMEORIGIN' } });
    // Security headers are not asked of plain HTTP pages (http_page says it first).
    expect(names(html({ canonical: ['http://shop.example/p'] }), { url: 'http://shop.example/p', headers: { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip' } })).toEqual(['http_page']);
    // Anchors: an image alt or aria-label names a link; descriptive text; external generic links are not ours.
    quiet(html({ links: '<a href="/"><img src="/logo.png" alt="Shop home" width="1" height="1"></a> <a href="/cart" aria-label="Cart"></a> <a href="/news/1">Read the launch story</a> <a href="https://other.example/">here</a>' }));
    // An h1 holding a logo with alt is not empty; a page titled about 404 errors is not one.
    quiet(html({ main: `<h1><img src="/logo.png" alt="Shop" width="1" height="1"></h1><p>${prose('x')}</p>` }));
    quiet(html({ titles: ['How we reduced our 404 errors by half'] }));
    // A 404 page answering 404 is http_4xx's business, not a soft 404.
    expect(names(html({ titles: ['Page not found – Shop example'] }), { status: 404 })).not.toContain('soft_404');
    // hreflang: valid codes, one URL per language.
    quiet(html({ head: `<link rel="alternate" hreflang="en-GB" href="${URL_}"><link rel="alternate" hreflang="zh-Hant-TW" href="https://shop.example/tw"><link rel="alternate" hreflang="x-default" href="${URL_}">` }));
    // Social: no Open Graph at all is og_missing's only; an absolute og:image.
    expect(names(html({ og: false }))).toEqual(['og_missing']);
    // Structured data: complete entities of every type.
    for (const data of COMPLETE_STRUCTURED_DATA) quiet(html({ head: `<script type="application/ld+json">${JSON.stringify(data)}</script>` }));
  });

  it('does not judge a page canonicalised elsewhere or noindex on what only shows in results: words, h1, description', () => {
    // A "moved, click here" page (JavaScript sends on) and a printable copy, canonical to their target.
    const moved = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Redirecting to the new page</title><link rel="canonical" href="https://shop.example/new"><script>location.replace('/new')</script></head><body><p>Click <a href="/new">the new page</a> if you are not redirected.</p></body></html>`;
    const judged = ['thin_content', 'h1_missing', 'description_missing', 'description_too_short', 'description_too_long'];
    expect(names(moved).filter((n) => judged.includes(n))).toEqual([]);
    const noindex = moved.replace('<link rel="canonical" href="https://shop.example/new">', '<meta name="robots" content="noindex">');
    expect(names(noindex).filter((n) => judged.includes(n))).toEqual([]);
    // The same page canonical to itself (or with none) asks to be indexed: judged.
    const self = moved.replace('https://shop.example/new', URL_);
    expect(names(self).filter((n) => judged.includes(n)).sort()).toEqual(['description_missing', 'h1_missing', 'thin_content']);
    const short = self.replace('</title>', '</title><meta name="description" content="Moved.">');
    expect(names(short)).toContain('description_too_short');
    expect(names(short.replace(`href="${URL_}"`, 'href="https://shop.example/new"'))).not.toContain('description_too_short');
  });

  it('refuses an hreflang whose language is a country code (jp, cn, gr, dk), and accepts every ISO 639-1 language, withdrawn ones too', () => {
    const alternates = (code: string) => html({ head: `<link rel="alternate" hreflang="${code}" href="${URL_}"><link rel="alternate" hreflang="x-default" href="${URL_}">` });
    for (const code of ['jp', 'JP', 'cn', 'gr', 'dk', 'jp-JP', 'cn-Hans', 'xx']) expect(names(alternates(code)), code).toContain('hreflang_invalid_code');
    for (const code of ['ja', 'ja-JP', 'zh-cn', 'zh-Hans', 'el', 'da', 'iw', 'nb', 'fil', 'yue-HK', 'es-419']) expect(names(alternates(code)), code).not.toContain('hreflang_invalid_code');
    // Every two-letter language CLDR names is accepted, and only those.
    const named = new Intl.DisplayNames('en', { type: 'language', fallback: 'none' });
    for (let a = 97; a < 123; a++) {
      for (let b = 97; b < 123; b++) {
        const code = String.fromCharCode(a, b);
        expect(names(alternates(code)).includes('hreflang_invalid_code'), code).toBe(named.of(code) === undefined);
      }
    }
  });

  it('details the new findings with the shared templates', () => {
    const details = (source: string, over: Partial<PageInput> = {}) => Object.fromEntries(audit(source, over).findings.map((f) => [f.name, f.details]));
    // No language declared: both languages' lists.
    expect(details(html({ lang: null, links: '<a href="/">home</a> <a href="/a">click here</a> <a href="/b">Lire la suite</a>' })).anchor_text_generic).toBe(
      '2 link(s) with generic text: "click here" → https://shop.example/a, "Lire la suite" → https://shop.example/b',
    );
    expect(details(html({ head: '<script type="application/ld+json">{"@type":"Product","name":"W"}</script>' })).schema_product_incomplete).toBe('Product without offers | review | aggregateRating');
    expect(details(html(), { url: 'https://shop.example/Caf%C3%A9_Menu' }).url_uppercase).toBe('uppercase letters in /Café_Menu');
    expect(details(html({ head: '<meta name="robots" content="index, noindex">' })).robots_conflict).toBe('conflicting directives: index, noindex');
  });

  it('names an image a template repeats once, with its count, and counts the other files', () => {
    const details = (source: string) => Object.fromEntries(audit(source).findings.map((f) => [f.name, f.details]));
    const img = (src: string) => `<img src="${src}">`;
    const page = (imgs: string) => html({ main: `<h1>P</h1><p>${prose('x')}</p>${imgs}` });
    const logo3 = details(page(img('/logo.svg') + img('/a.png') + img('/logo.svg') + img('/logo.svg')));
    expect(logo3.image_missing_dimensions).toBe('4 image(s): /logo.svg ×3, /a.png');
    expect(logo3.image_missing_alt).toBe('4 image(s) without alt: /logo.svg ×3, /a.png');
    expect(details(page(['/a', '/b', '/c', '/d', '/e', '/a'].map(img).join(''))).image_missing_dimensions).toBe('6 image(s): /a ×2, /b, /c (+2)');
  });

  it('names an image by its path on the site, whatever relative path a folder wrote, and never by inline bytes', () => {
    const details = (source: string, url: string) => Object.fromEntries(audit(source, { url }).findings.map((f) => [f.name, f.details]));
    const page = (imgs: string) => html({ main: `<h1>P</h1><p>${prose('x')}</p>${imgs}` });
    // rustdoc writes its logo relative to each page's folder: one file, one cause of a template decision.
    const deep = details(page('<img src="../../rust-logo.svg" alt="logo">'), 'https://shop.example/std/io/index.html');
    const deeper = details(page('<img src="../../../rust-logo.svg" alt="logo">'), 'https://shop.example/core/str/lossy/struct.A.html');
    expect(deep.image_missing_dimensions).toBe('1 image(s): /rust-logo.svg');
    expect(deeper.image_missing_dimensions).toBe(deep.image_missing_dimensions);
    // Another host keeps its URL; a query stays (another image); a base element is followed.
    expect(details(page('<img src="https://cdn.example/a.png?w=2" alt="a"><img src="b.png?v=1" alt="b">'), 'https://shop.example/x/').image_missing_dimensions).toBe(
      '2 image(s): https://cdn.example/a.png?w=2, /x/b.png?v=1',
    );
    expect(details(html({ head: '<base href="https://shop.example/static/">', main: `<h1>P</h1><p>${prose('x')}</p><img src="i.png" alt="i">` }), 'https://shop.example/a/b').image_missing_dimensions).toBe('1 image(s): /static/i.png');
    // A lazy loader's placeholder names the image it stands for; an inline image its type, not its bytes.
    const inline = `data:image/gif;base64,${'R0lGODlhAQABAIAAAAAAAP'.repeat(40)}`;
    expect(details(page(`<img src="${inline}" data-src="/photos/cat.jpg">`), 'https://shop.example/').image_missing_alt).toBe('1 image(s) without alt: /photos/cat.jpg');
    expect(details(page(`<img src="${inline}"><img>`), 'https://shop.example/').image_missing_alt).toBe('2 image(s) without alt: inline image/gif, (no src)');
    // A name past 100 characters is cut.
    const long = details(page(`<img src="/${'a'.repeat(300)}.png">`), 'https://shop.example/').image_missing_alt;
    expect(long.length).toBeLessThan(140);
    expect(long).toMatch(/…$/);
  });

  it('does not call a BCP 47 locale segment (en-US, pt-BR, zh-Hans) an uppercase URL', () => {
    const findings = (url: string) => urlHygiene(url).map((f) => f.name);
    for (const url of ['https://shop.example/en-US/shoes', 'https://shop.example/pt-BR/', 'https://shop.example/zh-Hans/docs/intro', 'https://shop.example/zh-Hant-TW/a', 'https://shop.example/es-419/ofertas']) {
      expect(findings(url), url).not.toContain('url_uppercase');
    }
    // Capitals elsewhere in the path still count; a lone word or a non-tag is no locale.
    expect(findings('https://shop.example/en-US/Shoes')).toContain('url_uppercase');
    expect(findings('https://shop.example/Shoes')).toContain('url_uppercase');
    expect(findings('https://shop.example/EN/shoes')).toContain('url_uppercase');
    expect(findings('https://shop.example/Foo-Bar/')).toContain('url_uppercase');
    expect(isLocaleSegment('pt-BR') && isLocaleSegment('zh-Hans') && !isLocaleSegment('Shoes') && !isLocaleSegment('en_US')).toBe(true);
    expect(urlHygiene('https://shop.example/en-US/Shoes').find((f) => f.name === 'url_uppercase')?.details).toBe('uppercase letters in /en-US/Shoes');
  });

  it("judges an anchor text in the page's language, and never an identifier in code", () => {
    const generic = (lang: string | null, links: string) => audit(html({ lang, links: `<a href="/">home</a> ${links}` })).findings.find((f) => f.name === 'anchor_text_generic')?.details ?? null;
    // "suite" and "plus" are generic in French; on an English page, an index term and an operator.
    expect(generic('en', '<a href="/grammar#suite">suite</a> <a href="/ops#plus">plus</a>')).toBeNull();
    expect(generic('fr-FR', '<a href="/blog/1">Lire la suite</a>')).toBe('1 link(s) with generic text: "Lire la suite" → https://shop.example/blog/1');
    expect(generic('fr', '<a href="/a">here</a>')).toBeNull();
    expect(generic('de', '<a href="/a">here</a> <a href="/b">plus</a>')).toBe('2 link(s) with generic text: "here" → https://shop.example/a, "plus" → https://shop.example/b');
    // A link whose words are all code names its target: `continue`, `PLUS`.
    expect(generic('en', '<a href="/stmts#continue"><code class="xref"><span class="pre">continue</span></code></a> <pre><a href="/t#more">more</a></pre>')).toBeNull();
    // A word outside code makes it prose again.
    expect(generic('en', '<a href="/a"><code>see</code> more</a> <a href="/b">Continue</a>')).toBe('2 link(s) with generic text: "see more" → https://shop.example/a, "Continue" → https://shop.example/b');
  });

  it('judges every anchor of a page, and says how many it could not resolve past its cap', () => {
    const details = (source: string) => Object.fromEntries(audit(source).findings.map((f) => [f.name, f.details]));
    // 800 long link texts then 700 generic ones: every generic one is judged (the old cap of 500 short anchors hid them).
    const long = Array.from({ length: 800 }, (_, i) => `<a href="/p${i}">a long and descriptive text ${i}</a>`).join(' ');
    const generic = Array.from({ length: 700 }, (_, i) => `<a href="/g${i}">read more</a>`).join(' ');
    expect(details(html({ links: `<a href="/">home</a> ${long} ${generic}` })).anchor_text_generic).toMatch(/^700 link\(s\) with generic text: /);
    const many = Array.from({ length: 5_003 }, (_, i) => `<a href="/g${i}">here</a>`).join(' ');
    expect(details(html({ links: `<a href="/">home</a> ${many}` })).anchor_text_generic).toMatch(/^5000 link\(s\) with generic text: .* \(and 3 more empty or generic link\(s\) past the 5000 read per page, not resolved\)$/);
  });

  it('reads noindex from X-Robots-Tag, for everyone or for our token', () => {
    const base = CLEAN_HEADERS;
    expect(names(html(), { headers: { ...base, 'x-robots-tag': 'noindex' } })).toEqual(['noindex']);
    const ours = audit(html(), { headers: { ...base, 'x-robots-tag': ['otherbot: none', 'siteauditbot: noindex, nofollow'] } });
    expect(ours.findings.map((f) => f.name)).toContain('noindex');
    expect(ours.summary.nofollow).toBe(true);
    expect(audit(html(), { headers: { ...base, 'x-robots-tag': 'none' } }).summary.indexable).toBe(false);
  });

  it('leaves nofollow on internal links to the link graph, which judges it with the targets: the summary marks it', () => {
    const { findings, summary } = audit(html({ links: '<a href="/">home</a> <a href="/x" rel="nofollow">x</a> <a href="/y" rel="external NoFollow">y</a>' }));
    expect(findings.map((f) => f.name)).toEqual([]);
    expect(summary.internalLinks).toEqual([
      { url: 'https://shop.example/', nofollow: false, text: 'home' },
      { url: 'https://shop.example/x', nofollow: true, text: 'x' },
      { url: 'https://shop.example/y', nofollow: true, text: 'y' },
    ]);
    const page = audit(html({ head: '<meta name="robots" content="nofollow">' }));
    expect(page.findings.map((f) => f.name)).toEqual([]);
    expect(page.summary.nofollow).toBe(true);
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
