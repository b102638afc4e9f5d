/**
 * A small site with known, labelled defects, served by node:http on 127.0.0.1. Every page is
 * clean (title 20-60 chars, description 70-160, one h1, 200+ distinct words, lang, viewport, og
 * tags, compressed…) except for the defects its `labels` name. A second server on another port
 * plays the external web.
 *
 * One label applies everywhere and is added by the tests rather than listed per page:
 * `http_page`, since the fixture is served over plain HTTP.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

export interface Label {
  name: string;
  /** Path of the URL the issue is on (origin added by `labels()`). */
  path: string;
}

export interface FixtureSite {
  origin: string;
  externalOrigin: string;
  /** Seeded defects, as (check name, absolute URL). */
  labels(): { name: string; url: string }[];
  /** Requests seen, as "METHOD path" (for robots, auth and retry tests). */
  requests: string[];
  /** Requests the external server saw, as "METHOD path authorization-or-dash". */
  externalRequests: string[];
  /** Page requests open at once, and the most seen together. */
  load: { inFlight: number; peak: number };
  close(): Promise<void>;
}

// ---------------------------------------------------------------- text

function rng(seed: string): () => number {
  let h = 2166136261;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 16777619);
  return () => {
    h = Math.imul(h ^ (h >>> 15), 2246822507);
    h = Math.imul(h ^ (h >>> 13), 3266489909);
    h ^= h >>> 16;
    return (h >>> 0) / 4294967296;
  };
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'vi', 'so', 'pe', 'du', 'ga', 'fi', 'ho', 'ze', 'bu', 'ry', 'wa', 'qi'];
const VOCABULARY: string[] = [];
{
  const r = rng('vocabulary');
  while (VOCABULARY.length < 800) {
    const n = 2 + Math.floor(r() * 3);
    let w = '';
    for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(r() * SYLLABLES.length)];
    if (!VOCABULARY.includes(w)) VOCABULARY.push(w);
  }
}

/** Deterministic, page-specific prose: different seeds share almost no word 3-shingles. */
export function prose(seed: string, words = 260): string {
  const r = rng(seed);
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(VOCABULARY[Math.floor(r() * VOCABULARY.length)]);
  return out.join(' ');
}

// ---------------------------------------------------------------- pages

export interface PageOptions {
  path: string;
  title?: string | null;
  titles?: string[];
  description?: string | null;
  h1?: string[];
  lang?: string | null;
  viewport?: boolean;
  og?: boolean;
  canonical?: string | string[] | null;
  nav?: boolean;
  text?: string;
  head?: string;
  body?: string;
  /** Replaces the whole <main> inner HTML. */
  main?: string;
}

const NAV = ['/', '/about', '/blog/', '/products/', '/contact', '/defects/'];

export function pageHtml(o: PageOptions, origin: string): string {
  const name = o.path;
  const titles = o.titles ?? (o.title === null ? [] : [o.title ?? `Page ${name} of the fixture site`]);
  const description = o.description === undefined ? `This is the page ${name} of the fixture site, a perfectly clean page for the audit tests.` : o.description;
  const h1 = o.h1 ?? [`Heading of ${name}`];
  const canonicals = o.canonical === undefined ? [`${origin}${o.path}`] : o.canonical === null ? [] : Array.isArray(o.canonical) ? o.canonical : [o.canonical];
  const lang = o.lang === undefined ? 'en' : o.lang;
  const head = [
    '<meta charset="utf-8">',
    ...titles.map((t) => `<title>${t}</title>`),
    description === null ? '' : `<meta name="description" content="${description}">`,
    o.viewport === false ? '' : '<meta name="viewport" content="width=device-width, initial-scale=1">',
    ...canonicals.map((c) => `<link rel="canonical" href="${c}">`),
    o.og === false
      ? ''
      : `<meta property="og:title" content="OG ${name}"><meta property="og:description" content="Open Graph description of ${name}"><meta property="og:image" content="${origin}/img/logo.png"><meta name="twitter:card" content="summary">`,
    o.head ?? '',
  ].join('\n');
  const nav = o.nav === false ? '' : `<header><nav>${NAV.map((p) => `<a href="${p}">${p}</a>`).join(' ')}</nav></header>`;
  const main =
    o.main ??
    `${h1.map((h) => `<h1>${h}</h1>`).join('')}<h2>Section</h2><p>${o.text ?? prose(o.path)}</p>` +
      `<img src="/img/logo.png" alt="Logo" width="10" height="10">${o.body ?? ''}`;
  const footer = o.nav === false ? '' : '<footer><p>Fixture footer</p></footer>';
  return `<!doctype html>\n<html${lang === null ? '' : ` lang="${lang}"`}><head>${head}</head><body>${nav}<main>${main}</main>${footer}</body></html>`;
}

export interface Route {
  /** Dynamic answer; `count` is the 1-based number of requests seen for this path. */
  respond?: (count: number, req: IncomingMessage) => { status: number; headers?: Record<string, string>; body?: string };
  status?: number;
  headers?: Record<string, string>;
  html?: (origin: string) => string;
  body?: (origin: string) => string | Buffer;
  /** No gzip even when accepted. */
  raw?: boolean;
  /** Never answers (for timeouts). */
  hang?: boolean;
  /** Answers after this delay (overrides the site's `delayMs`). */
  delayMs?: number;
  labels?: string[];
}

const DUP_TEXT = prose('duplicate-text');
const NEAR_WORDS = prose('near-duplicate-text', 300).split(' ');
const NEAR_B = [...NEAR_WORDS];
NEAR_B[100] = 'changedword';
NEAR_B[200] = 'otherchange';

const page = (o: PageOptions, labels: string[] = [], extra: Partial<Route> = {}): [string, Route] => [
  o.path,
  { html: (origin) => pageHtml(o, origin), labels, ...extra },
];

const redirect = (path: string, status: number, to: string, labels: string[] = []): [string, Route] => [
  path,
  { status, headers: { location: to }, body: () => '', labels },
];

const CHALLENGE =
  '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><div id="cf-wrapper">Checking your browser before accessing the site.</div>' +
  '<script src="/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1"></script></body></html>';

export const DEFECT_PATHS: string[] = [];

/** The paths the fixture's sitemap lists. */
export const SITEMAP_PATHS = ['/', '/about', '/orphan', '/noindex', '/old-about'];

function defects(): [string, Route][] {
  const list: [string, Route][] = [
    page({ path: '/missing-title', title: null }, ['title_missing']),
    page({ path: '/short-title', title: 'Too short' }, ['title_too_short']),
    page({ path: '/long-title', title: 'A title that goes on and on well beyond the sixty characters a result shows' }, ['title_too_long']),
    page({ path: '/two-titles', titles: ['First title of the two-titles page', 'Second title of the page'] }, ['title_multiple']),
    page({ path: '/no-description', description: null }, ['description_missing']),
    page({ path: '/short-description', description: 'Far too short.' }, ['description_too_short']),
    page({ path: '/long-description', description: 'A description that keeps going. '.repeat(7) }, ['description_too_long']),
    page({ path: '/dup-title-a', title: 'The same title on two pages here' }, ['title_duplicate']),
    page({ path: '/dup-title-b', title: 'The same title on two pages here' }, ['title_duplicate']),
    page({ path: '/dup-desc-a', description: 'The very same meta description, used on two different pages of this site.' }, ['description_duplicate']),
    page({ path: '/dup-desc-b', description: 'The very same meta description, used on two different pages of this site.' }, ['description_duplicate']),
    page({ path: '/dup-content-a', h1: ['Duplicated'], text: DUP_TEXT }, ['duplicate_content']),
    page({ path: '/dup-content-b', h1: ['Duplicated'], text: DUP_TEXT }, ['duplicate_content']),
    page({ path: '/near-dup-a', h1: ['Near'], text: NEAR_WORDS.join(' ') }, ['near_duplicate_content']),
    page({ path: '/near-dup-b', h1: ['Near'], text: NEAR_B.join(' ') }, ['near_duplicate_content']),
    page({ path: '/no-h1', h1: [] }, ['h1_missing']),
    page({ path: '/two-h1', h1: ['One', 'Two'] }, ['h1_multiple']),
    page({ path: '/heading-skip', main: `<h1>Top</h1><h3>Skipped a level</h3><p>${prose('/heading-skip')}</p>` }, ['heading_skip']),
    page({ path: '/thin', text: prose('/thin', 40) }, ['thin_content']),
    page({ path: '/no-lang', lang: null }, ['lang_missing']),
    page({ path: '/bad-lang', lang: 'en_US' }, ['lang_invalid']),
    page({ path: '/no-viewport', viewport: false }, ['viewport_missing']),
    page({ path: '/big-page', body: `<!-- ${'x'.repeat(2_200_000)} -->` }, ['html_too_large']),
    page({ path: '/dup-id', body: '<p id="twice">a</p><p id="twice">b</p>' }, ['duplicate_id']),
    page({ path: '/nofollow', body: '<a href="/about" rel="nofollow">about</a>' }, ['internal_nofollow_to_indexable']),
    page({ path: '/nofollow-noindex', body: '<a href="/noindex" rel="nofollow">hidden</a>' }, ['internal_nofollow']),
    page({ path: '/img-no-alt', body: '<img src="/img/logo.png" width="1" height="1">' }, ['image_missing_alt']),
    page({ path: '/img-long-alt', body: `<img src="/img/logo.png" width="1" height="1" alt="${'long alt text '.repeat(9)}">` }, ['image_alt_too_long']),
    page({ path: '/img-no-size', body: '<img src="/img/logo.png" alt="no size">' }, ['image_missing_dimensions']),
    page({ path: '/big-image-page', body: '<img src="/img/huge.png" alt="huge" width="10" height="10">' }),
    page({ path: '/uncompressed' }, ['not_compressed'], { raw: true }),
    page({ path: '/form-http', body: '<form method="post" action="http://127.0.0.1:9/submit"><input name="q"></form>' }, ['form_to_http']),
    page({ path: '/bad-jsonld', head: '<script type="application/ld+json">{ "@type": "Thing", </script>' }, ['jsonld_invalid']),
    page({ path: '/no-og', og: false }, ['og_missing']),
    page({ path: '/noindex', head: '<meta name="robots" content="noindex, follow">' }, ['noindex', 'sitemap_noindex']),
    page({ path: '/x-robots-noindex' }, ['noindex'], { headers: { 'x-robots-tag': 'noindex' } }),
    page({ path: '/robots-in-body', body: '<meta name="robots" content="index, follow">' }, ['meta_robots_in_body']),
    page({ path: '/meta-refresh', head: '<meta http-equiv="refresh" content="0; url=/about">' }, ['meta_refresh']),
    page({ path: '/dead-end', nav: false }, ['dead_end_page']),
    page({ path: '/canonical-404', canonical: '/gone' }, ['canonical_to_error', 'canonical_relative']),
    ['/gone', { status: 404, html: () => '<html><body>Not found</body></html>', labels: ['http_4xx'] }],
    page({ path: '/canonical-redirect' }, ['canonical_to_redirect'], { html: (o) => pageHtml({ path: '/canonical-redirect', canonical: `${o}/old-about` }, o) }),
    redirect('/old-about', 301, '/about', ['sitemap_redirect']),
    page({ path: '/canonical-noindex' }, ['canonical_to_noindex'], { html: (o) => pageHtml({ path: '/canonical-noindex', canonical: `${o}/noindex` }, o) }),
    page({ path: '/canonical-chain' }, ['canonical_chain'], { html: (o) => pageHtml({ path: '/canonical-chain', canonical: `${o}/canonical-mid` }, o) }),
    page({ path: '/canonical-mid' }, [], { html: (o) => pageHtml({ path: '/canonical-mid', canonical: `${o}/about` }, o) }),
    page({ path: '/canonical-conflict' }, ['canonical_conflict'], { html: (o) => pageHtml({ path: '/canonical-conflict', canonical: [`${o}/canonical-conflict`, `${o}/about`] }, o) }),
    page({ path: '/canonical-relative', canonical: '/canonical-relative' }, ['canonical_relative']),
    page({ path: '/links-broken', body: '<a href="/gone-link">a</a> <a href="/server-error">b</a> <a href="/loop-a">c</a>' }, ['broken_internal_link']),
    ['/gone-link', { status: 404, html: () => '<html><body>Not found</body></html>', labels: ['http_4xx'] }],
    ['/server-error', { status: 500, html: () => '<html><body>Oops</body></html>', labels: ['http_5xx'] }],
    redirect('/loop-a', 301, '/loop-b', ['redirect_loop']),
    redirect('/loop-b', 301, '/loop-a'),
    page({ path: '/links-redirect', body: '<a href="/redirect-chain">a</a> <a href="/temp-redirect">b</a> <a href="/meta-refresh">c</a>' }, ['link_to_redirect']),
    redirect('/redirect-chain', 301, '/redirect-chain-2', ['redirect_chain']),
    redirect('/redirect-chain-2', 301, '/about'),
    redirect('/temp-redirect', 302, '/contact', ['temporary_redirect']),
    page({ path: '/private/page' }, ['blocked_by_robots']),
    ['/challenge', { status: 503, headers: { 'retry-after': '1' }, html: () => CHALLENGE }],
    page({ path: '/orphan' }, ['orphan_page']),
    page({ path: '/en/page', head: '' }, [], {
      html: (o) => pageHtml({ path: '/en/page', head: hreflang(o, { en: '/en/page', fr: '/fr/page', 'x-default': '/en/page' }) }, o),
    }),
    page({ path: '/fr/page', lang: 'fr' }, [], {
      html: (o) => pageHtml({ path: '/fr/page', lang: 'fr', head: hreflang(o, { en: '/en/page', fr: '/fr/page', 'x-default': '/en/page' }) }, o),
    }),
    page({ path: '/hreflang-no-return' }, ['hreflang_no_return'], {
      html: (o) => pageHtml({ path: '/hreflang-no-return', head: hreflang(o, { en: '/hreflang-no-return', de: '/de/page', 'x-default': '/hreflang-no-return' }) }, o),
    }),
    page({ path: '/de/page', lang: 'de' }),
    page({ path: '/hreflang-bad' }, ['hreflang_bad_target'], {
      html: (o) => pageHtml({ path: '/hreflang-bad', head: hreflang(o, { en: '/hreflang-bad', es: '/es/missing', 'x-default': '/hreflang-bad' }) }, o),
    }),
    ['/es/missing', { status: 404, html: () => '<html><body>No</body></html>', labels: ['http_4xx'] }],
    page({ path: '/hreflang-no-self' }, ['hreflang_no_self', 'hreflang_no_return'], {
      html: (o) => pageHtml({ path: '/hreflang-no-self', head: hreflang(o, { en: '/en/page', 'x-default': '/en/page' }) }, o),
    }),
    page({ path: '/hx-a' }, ['hreflang_no_x_default'], { html: (o) => pageHtml({ path: '/hx-a', head: hreflang(o, { en: '/hx-a', fr: '/hx-b' }) }, o) }),
    page({ path: '/hx-b', lang: 'fr' }, ['hreflang_no_x_default'], {
      html: (o) => pageHtml({ path: '/hx-b', lang: 'fr', head: hreflang(o, { en: '/hx-a', fr: '/hx-b' }) }, o),
    }),
    page({ path: '/external-links' }, ['broken_external_link'], {
      html: (o) =>
        pageHtml(
          {
            path: '/external-links',
            body: `<a href="${externalOrigin}/ok">ok</a> <a href="${externalOrigin}/missing">missing</a> <a href="${externalOrigin}/head-405">h</a>`,
          },
          o,
        ),
    }),
    page({ path: '/many-links' }, ['too_many_links'], {
      html: (o) =>
        pageHtml(
          { path: '/many-links', body: Array.from({ length: 101 }, (_, i) => `<a href="${externalOrigin}/ok?n=${i}">${i}</a>`).join(' ') },
          o,
        ),
    }),
    page({ path: '/deep/1', body: '<a href="/deep/2">next</a>' }),
    page({ path: '/deep/2', body: '<a href="/deep/3">next</a>' }),
    page({ path: '/deep/3', body: '<a href="/deep/4">next</a>' }),
    page({ path: '/deep/4', body: '<a href="/deep/5">next</a>' }, ['deep_page']),
    page({ path: '/deep/5' }, ['deep_page']),
  ];
  return list;
}

function hreflang(origin: string, map: Record<string, string>): string {
  return Object.entries(map)
    .map(([lang, path]) => `<link rel="alternate" hreflang="${lang}" href="${origin}${path}">`)
    .join('');
}

/** Set while building routes, so pages can link to the external server. */
let externalOrigin = '';

/** Pages only reachable from the defects hub or not linked at all. */
const NOT_IN_HUB = new Set([
  '/gone',
  // A meta-refresh redirect, reached from /links-redirect.
  '/meta-refresh',
  '/old-about',
  '/canonical-mid',
  '/gone-link',
  '/server-error',
  '/loop-a',
  '/loop-b',
  '/redirect-chain',
  '/redirect-chain-2',
  '/temp-redirect',
  '/orphan',
  '/de/page',
  '/es/missing',
  '/deep/2',
  '/deep/3',
  '/deep/4',
  '/deep/5',
]);

export interface FixtureOptions {
  /** Overrides of whole routes (status, headers, body), by path. */
  routes?: Record<string, Route>;
  robots?: string | { status: number; body?: string } | null;
  sitemap?: boolean;
  llms?: string | null;
  /** Basic auth required on every path. */
  auth?: { user: string; password: string };
  /** Only the given paths exist (plus robots, sitemap); for small focused tests. */
  only?: string[];
  /** Pages answer after this delay, so concurrent requests overlap on the server. */
  delayMs?: number;
}

function buildRoutes(options: FixtureOptions): Map<string, Route> {
  const routes = new Map<string, Route>();
  const clean = ['/', '/about', '/blog/', '/blog/post-1', '/blog/post-2', '/products/', '/contact'];
  const extraLinks: Record<string, string> = {
    '/blog/': '<a href="/blog/post-1">post 1</a> <a href="/blog/post-2">post 2</a>',
  };
  for (const path of clean) routes.set(path, page({ path, body: extraLinks[path] })[1]);
  const list = defects();
  const hubLinks = list.map(([p]) => p).filter((p) => !NOT_IN_HUB.has(p));
  DEFECT_PATHS.splice(0, DEFECT_PATHS.length, ...list.map(([p]) => p));
  routes.set('/defects/', page({ path: '/defects/', body: hubLinks.map((p) => `<a href="${p}">${p}</a>`).join(' ') })[1]);
  for (const [path, route] of list) routes.set(path, route);
  routes.set('/img/logo.png', { headers: { 'content-type': 'image/png' }, body: () => Buffer.alloc(300, 1) });
  routes.set('/img/huge.png', { headers: { 'content-type': 'image/png' }, body: () => Buffer.alloc(600 * 1024, 1), labels: ['image_too_large'] });
  if (options.only) {
    for (const path of [...routes.keys()]) if (!options.only.includes(path)) routes.delete(path);
  }
  for (const [path, route] of Object.entries(options.routes ?? {})) routes.set(path, route);
  return routes;
}

const DEFAULT_ROBOTS = (origin: string) =>
  ['User-agent: *', 'Disallow: /private/', '', 'User-agent: GPTBot', 'Disallow: /', '', 'User-agent: PerplexityBot', 'Disallow: /', '', `Sitemap: ${origin}/sitemap.xml`].join('\n');

const SITEMAP = (origin: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${SITEMAP_PATHS
    .map((p) => `<url><loc>${origin}${p}</loc></url>`)
    .join('')}</urlset>`;

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

function send(req: IncomingMessage, res: ServerResponse, status: number, headers: Record<string, string>, body: string | Buffer, raw = false) {
  let payload = typeof body === 'string' ? Buffer.from(body) : body;
  const h: Record<string, string | number> = { ...headers };
  if (!raw && /gzip/.test(req.headers['accept-encoding'] ?? '') && /html|xml|text/.test(String(h['content-type'] ?? ''))) {
    payload = gzipSync(payload);
    h['content-encoding'] = 'gzip';
  }
  h['content-length'] = payload.length;
  res.writeHead(status, h);
  res.end(req.method === 'HEAD' ? undefined : payload);
}

export async function startFixtureSite(options: FixtureOptions = {}): Promise<FixtureSite> {
  const requests: string[] = [];
  const load = { inFlight: 0, peak: 0 };
  const counts = new Map<string, number>();
  const externalRequests: string[] = [];
  const external = createServer((req, res) => {
    externalRequests.push(`${req.method} ${req.url} ${req.headers.authorization ?? '-'}`);
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/missing') return send(req, res, 404, { 'content-type': 'text/html' }, 'gone');
    if (path === '/head-405' && req.method === 'HEAD') return send(req, res, 405, { allow: 'GET' }, '');
    return send(req, res, 200, { 'content-type': 'text/html' }, '<html><body>external</body></html>');
  });
  const extOrigin = await listen(external);
  externalOrigin = extOrigin;
  const routes = buildRoutes(options);
  let origin = '';
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    requests.push(`${req.method} ${url}`);
    if (options.auth) {
      const expected = `Basic ${Buffer.from(`${options.auth.user}:${options.auth.password}`).toString('base64')}`;
      if (req.headers.authorization !== expected) {
        res.writeHead(401, { 'www-authenticate': 'Basic realm="fixture"', 'content-type': 'text/html' });
        return res.end('<html><body>auth</body></html>');
      }
    }
    const path = url.split('?')[0];
    if (path === '/robots.txt') {
      const robots = options.robots === undefined ? DEFAULT_ROBOTS(origin) : options.robots;
      if (robots === null) return send(req, res, 404, { 'content-type': 'text/plain' }, 'not found');
      if (typeof robots === 'string') return send(req, res, 200, { 'content-type': 'text/plain' }, robots);
      return send(req, res, robots.status, { 'content-type': 'text/plain' }, robots.body ?? '');
    }
    if (path === '/sitemap.xml' && options.sitemap !== false) return send(req, res, 200, { 'content-type': 'application/xml' }, SITEMAP(origin));
    if (path === '/llms.txt') {
      const llms = options.llms === undefined ? 'Fixture site\n\nNo heading here.\n' : options.llms;
      if (llms === null) return send(req, res, 404, { 'content-type': 'text/plain' }, 'not found');
      return send(req, res, 200, { 'content-type': 'text/plain' }, llms);
    }
    const route = routes.get(path);
    if (!route) return send(req, res, 404, { 'content-type': 'text/html' }, '<html><body>Not found</body></html>');
    counts.set(path, (counts.get(path) ?? 0) + 1);
    if (route.hang) return;
    if (route.respond) {
      const a = route.respond(counts.get(path)!, req);
      return send(req, res, a.status, { 'content-type': 'text/html; charset=utf-8', ...a.headers }, a.body ?? '');
    }
    const headers = { 'content-type': 'text/html; charset=utf-8', ...route.headers };
    const body = route.html ? route.html(origin) : (route.body?.(origin) ?? '');
    load.inFlight++;
    load.peak = Math.max(load.peak, load.inFlight);
    const answer = () => {
      load.inFlight--;
      send(req, res, route.status ?? 200, headers, body, route.raw);
    };
    const delay = route.delayMs ?? options.delayMs;
    if (delay) setTimeout(answer, delay);
    else answer();
  });
  origin = await listen(server);
  return {
    origin,
    externalOrigin: extOrigin,
    requests,
    externalRequests,
    load,
    labels() {
      const out: { name: string; url: string }[] = [];
      for (const [path, route] of routes) for (const name of route.labels ?? []) out.push({ name, url: `${origin}${path}` });
      return out;
    },
    close: () =>
      Promise.all([
        new Promise<void>((r) => server.close(() => r())),
        new Promise<void>((r) => external.close(() => r())),
        // keep-alive sockets would hold close() open
        server.closeAllConnections(),
        external.closeAllConnections(),
      ]).then(() => undefined),
  };
}
