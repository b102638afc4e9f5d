/**
 * An independent reading of a static site from its files, to compare a crawl of it with
 * (real-sites.test.ts). Nothing here comes from the crawler: each HTML file is parsed whole into
 * a DOM (htmlparser2's parseDocument, a dependency of the server), its facts are read from the
 * tree, URLs are normalised as docs/decisions/url-normalisation.md describes (written again
 * here from the document, on the WHATWG URL parser), and the reachable pages are found
 * breadth-first from the start page, so each page's depth is its shortest click path.
 *
 * What a URL is (a file, a directory's index, a redirect to the directory, nothing) comes from
 * the static server's own mapping (static-server.ts resolvePath), so the reading and the server
 * agree by construction.
 */
import { readFileSync } from 'node:fs';
import { parseDocument } from 'htmlparser2';
import { resolvePath } from './static-server.js';

// ---------------------------------------------------------------- DOM

/** The part of a domhandler node this reading uses. */
interface Node {
  type: string;
  name?: string;
  attribs?: Record<string, string>;
  children?: Node[];
  data?: string;
  parent?: Node | null;
}

function isElement(n: Node): boolean {
  return n.type === 'tag' || n.type === 'script' || n.type === 'style';
}

/** Elements in document order, each with whether it is inside an <svg> or <math> (foreign content). */
function elements(root: Node): { el: Node; foreign: boolean }[] {
  const out: { el: Node; foreign: boolean }[] = [];
  const walk = (node: Node, foreign: boolean) => {
    for (const child of node.children ?? []) {
      if (!isElement(child)) continue;
      out.push({ el: child, foreign });
      walk(child, foreign || child.name === 'svg' || child.name === 'math');
    }
  };
  walk(root, false);
  return out;
}

function textContent(n: Node): string {
  if (n.type === 'text') return n.data ?? '';
  if (n.type === 'comment') return '';
  return (n.children ?? []).map(textContent).join('');
}

/** HTML's "strip and collapse ASCII whitespace" (document.title). */
function collapse(text: string): string {
  return text.replace(/[\t\n\f\r ]+/g, ' ').replace(/^ | $/g, '');
}

function attr(el: Node, name: string): string | undefined {
  return el.attribs?.[name];
}

function rels(el: Node): string[] {
  return (attr(el, 'rel') ?? '').toLowerCase().split(/[\t\n\f\r ]+/).filter(Boolean);
}

// ---------------------------------------------------------------- URLs

function upperEscapes(text: string): string {
  return text.replace(/%[0-9a-f]{2}/gi, (m) => m.toUpperCase());
}

/**
 * The normalised form of `href` resolved against `base` (docs/decisions/url-normalisation.md):
 * http(s) only, fragment and credentials dropped, default port dropped, empty path `/`, escapes
 * upper-cased, query parameters sorted by name (stably), empty ones dropped. Null otherwise.
 */
export function normalise(href: string, base: string): string | null {
  let u: URL;
  try {
    u = new URL(href, base);
  } catch {
    return null;
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.hostname === '') return null;
  const params = u.search
    .slice(1)
    .split('&')
    .filter((p) => p !== '')
    .map(upperEscapes);
  const name = (p: string) => p.split('=')[0];
  params.sort((a, b) => (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0));
  return `${u.protocol}//${u.host}${upperEscapes(u.pathname || '/')}${params.length ? `?${params.join('&')}` : ''}`;
}

/** Same site: host without a leading `www.`, and port (docs/decisions/url-normalisation.md). */
function siteOf(url: string): string {
  const u = new URL(url);
  return `${u.hostname.replace(/^www\./, '')}:${u.port}`;
}

// ---------------------------------------------------------------- one page

export type ResourceKind = 'stylesheet' | 'icon' | 'manifest' | 'preload' | 'script' | 'image' | 'media' | 'frame' | 'object';

export interface PageReading {
  title: string | null;
  metaDescription: string | null;
  h1: string | null;
  /** The first canonical <link> of the head, resolved against the base when it is a URL (any scheme); null otherwise. */
  canonical: string | null;
  /** Distinct normalised targets of <a href>/<area href> (in-page `#…` hrefs left out). */
  internalLinks: Set<string>;
  /** Internal targets of `<link rel="next">` and `<link rel="prev">` (the crawler follows and checks them). */
  pagination: Set<string>;
  externalLinks: Set<string>;
  /** A meta refresh target, normalised. */
  refresh: string | null;
  /** Seconds before the meta refresh (0 when none is written). */
  refreshDelay: number;
  images: number;
  imagesWithoutAlt: number;
  /** Distinct normalised URLs the page loads, with their kind. */
  resources: Map<string, ResourceKind>;
}

const NOT_LOADED = /^(?:data|blob|javascript|about):/i;

/** Elements the head may hold; any other element ends it (as <body> does). */
const HEAD_ELEMENTS = new Set(['html', 'head', 'title', 'meta', 'link', 'base', 'script', 'style', 'noscript', 'template']);

/** The URLs of a srcset attribute (HTML's candidate list: URL, then an optional descriptor). */
function srcsetUrls(srcset: string): string[] {
  const out: string[] = [];
  const re = /[\t\n\f\r ,]*([^\t\n\f\r ]+)[^,]*/g;
  for (const m of srcset.matchAll(re)) {
    let url = m[1];
    if (url.endsWith(',')) url = url.replace(/,+$/, '');
    if (url) out.push(url);
  }
  return out;
}

export function readPage(html: string, pageUrl: string): PageReading {
  const doc = parseDocument(html, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true }) as unknown as Node;
  const all = elements(doc);
  let base = pageUrl;
  const baseEl = all.find(({ el, foreign }) => !foreign && el.name === 'base' && attr(el, 'href') !== undefined);
  if (baseEl) {
    try {
      base = new URL(attr(baseEl.el, 'href')!.trim(), pageUrl).href;
    } catch {
      // an invalid base leaves the document's address
    }
  }
  const site = siteOf(pageUrl);
  const reading: PageReading = {
    title: null,
    metaDescription: null,
    h1: null,
    canonical: null,
    internalLinks: new Set(),
    pagination: new Set(),
    externalLinks: new Set(),
    refresh: null,
    refreshDelay: 0,
    images: 0,
    imagesWithoutAlt: 0,
    resources: new Map(),
  };
  const resource = (raw: string | undefined, kind: ResourceKind) => {
    if (raw === undefined) return;
    const href = raw.trim();
    if (href === '' || href.startsWith('#') || NOT_LOADED.test(href)) return;
    const url = normalise(href, base);
    if (url && !reading.resources.has(url)) reading.resources.set(url, kind);
  };
  // The head is over at <body> or at the first element only the body holds (HTML parsing rules).
  let headOver = false;
  let canonicalSeen = false;
  for (const { el, foreign } of all) {
    const name = el.name!;
    if (!headOver && (name === 'body' || !HEAD_ELEMENTS.has(name))) headOver = true;
    if (foreign) continue;
    switch (name) {
      case 'title':
        if (reading.title === null) reading.title = collapse(textContent(el));
        break;
      case 'h1':
        if (reading.h1 === null) reading.h1 = collapse(textContent(el));
        break;
      case 'meta': {
        const metaName = (attr(el, 'name') ?? '').trim().toLowerCase();
        if (metaName === 'description' && reading.metaDescription === null) reading.metaDescription = collapse(attr(el, 'content') ?? '');
        if ((attr(el, 'http-equiv') ?? '').trim().toLowerCase() === 'refresh' && reading.refresh === null) {
          const m = /^\s*\d*(?:\.\d*)?\s*[;,]?\s*(?:url\s*=\s*)?(['"]?)(.*?)\1\s*$/i.exec(attr(el, 'content') ?? '');
          if (m && m[2]) reading.refresh = normalise(m[2], base);
          reading.refreshDelay = Number.parseFloat(attr(el, 'content') ?? '') || 0;
        }
        break;
      }
      case 'link': {
        const r = rels(el);
        const href = attr(el, 'href');
        // The first canonical of the head, as written: resolved when it is a URL at all.
        if (r.includes('canonical') && !headOver && !canonicalSeen) {
          canonicalSeen = true;
          const value = (href ?? '').trim();
          try {
            const resolved = value === '' ? null : new URL(value, base);
            reading.canonical = resolved && (normalise(resolved.href, base) ?? resolved.href);
          } catch {
            // not a URL: nothing to show
          }
        }
        if (r.includes('stylesheet')) resource(href, 'stylesheet');
        else if (r.some((x) => x === 'icon' || x.endsWith('-icon') || x === 'apple-touch-icon-precomposed')) resource(href, 'icon');
        else if (r.includes('manifest')) resource(href, 'manifest');
        else if (r.includes('preload') || r.includes('modulepreload')) resource(href, 'preload');
        if ((r.includes('next') || r.includes('prev')) && href !== undefined && href.trim() !== '') {
          const url = normalise(href.trim(), base);
          if (url && siteOf(url) === site) reading.pagination.add(url);
        }
        break;
      }
      case 'a':
      case 'area': {
        const href = attr(el, 'href');
        if (href === undefined || href.trim() === '' || href.trim().startsWith('#')) break;
        const url = normalise(href.trim(), base);
        if (!url) break;
        (siteOf(url) === site ? reading.internalLinks : reading.externalLinks).add(url);
        break;
      }
      case 'img':
        reading.images++;
        if (attr(el, 'alt') === undefined) reading.imagesWithoutAlt++;
        resource(attr(el, 'src'), 'image');
        for (const u of srcsetUrls(attr(el, 'srcset') ?? '')) resource(u, 'image');
        break;
      case 'script':
        resource(attr(el, 'src'), 'script');
        break;
      case 'source':
        if (el.parent?.name === 'picture') for (const u of srcsetUrls(attr(el, 'srcset') ?? '')) resource(u, 'image');
        else resource(attr(el, 'src'), 'media');
        break;
      case 'video':
        resource(attr(el, 'src'), 'media');
        resource(attr(el, 'poster'), 'image');
        break;
      case 'audio':
      case 'track':
        resource(attr(el, 'src'), 'media');
        break;
      case 'iframe':
      case 'frame':
        resource(attr(el, 'src'), 'frame');
        break;
      case 'embed':
        resource(attr(el, 'src'), 'object');
        break;
      case 'object':
        resource(attr(el, 'data'), 'object');
        break;
    }
  }
  return reading;
}

// ---------------------------------------------------------------- the site

export interface ExpectedPage {
  url: string;
  /** Shortest click path from the start; null for a page only the sitemap (or pages only it reaches) leads to. */
  depth: number | null;
  status: number;
  contentType: string | null;
  /** Where a 301 points (normalised). */
  redirect: string | null;
  /** The file answered, relative to the root; null unless 200. */
  file: string | null;
  /** The reading of an HTML page (200 and text/html); null otherwise. */
  html: PageReading | null;
}

export interface SiteReading {
  /** Every internal URL reachable from the start page by links, or from the sitemap's URLs, by normalised URL. */
  pages: Map<string, ExpectedPage>;
  /** `source -> target`: an internal link (or meta refresh) of an HTML page to a URL that answers 4xx, directly or after redirects. */
  brokenLinks: Set<string>;
  /** `page -> resource`: an internal resource of an HTML page that answers 4xx. */
  brokenResources: Set<string>;
  /** Distinct internal resource URLs, and external ones (not served here). */
  resources: { internal: Set<string>; external: Set<string> };
}

/**
 * Reads the site served from `root` at `origin`, from `startUrl` (normalised) breadth-first.
 * URLs `excluded` says are left out are never visited (the crawl's exclude patterns: they limit
 * the crawl itself, docs/decisions/url-normalisation.md "Patterns"); links to them still count.
 * The `sitemap` URLs no link from the start reaches are read after them, with no click depth, and
 * so are the pages only they lead to (the crawler's sitemap-only pages).
 */
export function readSite(root: string, origin: string, startUrl: string, excluded: (url: string) => boolean = () => false, sitemap: readonly string[] = []): SiteReading {
  const site = siteOf(origin);
  const pages = new Map<string, ExpectedPage>();
  const queue: string[] = [];
  const visit = (url: string, depth: number | null) => {
    if (pages.has(url) || (url !== startUrl && excluded(url))) return;
    const answer = resolvePath(root, new URL(url).pathname);
    const page: ExpectedPage = { url, depth, status: answer.status, contentType: null, redirect: null, file: null, html: null };
    pages.set(url, page);
    if (answer.status === 301) {
      page.redirect = normalise(answer.location + new URL(url).search, url);
      // A redirect's target keeps the click depth of the link (the hop is not a click).
      if (page.redirect) visit(page.redirect, depth);
      return;
    }
    if (answer.status !== 200) return;
    page.contentType = answer.contentType;
    page.file = answer.file.slice(root.length).replace(/^\/*/, '');
    if (answer.contentType.startsWith('text/html')) {
      page.html = readPage(readFileSync(answer.file, 'utf8'), url);
      queue.push(url);
    }
  };
  visit(startUrl, 0);
  const follow = (from: number) => {
    for (let i = from; i < queue.length; i++) {
      const page = pages.get(queue[i])!;
      const h = page.html!;
      const next = page.depth === null ? null : page.depth + 1;
      // A meta refresh within 5 s to another URL is a redirect (Google's guidance): its target
      // keeps the stub's click depth, as a 301's does; any other refresh is a link.
      // The stub's other links are not followed (a 301 has none; rustdoc's stubs link the same target).
      const stub = refreshRedirect(h, page.url, site);
      if (stub) {
        visit(stub, page.depth);
        continue;
      }
      for (const target of linkTargets(h, page.url, site)) visit(target, next);
      if (h.canonical && /^https?:/.test(h.canonical) && siteOf(h.canonical) === site) visit(h.canonical, next);
    }
  };
  follow(0);
  const clicked = queue.length;
  for (const url of sitemap) visit(url, null);
  follow(clicked);
  // A URL's final answer, following redirects.
  const finalStatus = (url: string, hops = 0): number => {
    const p = pages.get(url)!;
    const next = p.status === 301 ? p.redirect : p.html && refreshRedirect(p.html, url, site);
    return next && pages.has(next) && hops < 10 ? finalStatus(next, hops + 1) : p.status;
  };
  const brokenLinks = new Set<string>();
  const brokenResources = new Set<string>();
  const internal = new Set<string>();
  const external = new Set<string>();
  for (const page of pages.values()) {
    if (!page.html) continue;
    const stub = refreshRedirect(page.html, page.url, site) !== null;
    for (const target of stub ? [] : new Set([...linkTargets(page.html, page.url, site), ...page.html.pagination])) {
      if (pages.has(target) && finalStatus(target) >= 400) brokenLinks.add(`${page.url} -> ${target}`);
    }
    for (const url of page.html.resources.keys()) {
      if (siteOf(url) !== site) {
        external.add(url);
        continue;
      }
      internal.add(url);
      const answer = resolvePath(root, new URL(url).pathname);
      let status: number = answer.status;
      if (answer.status === 301) status = resolvePath(root, answer.location).status;
      if (status >= 400) brokenResources.add(`${page.url} -> ${url}`);
    }
  }
  return { pages, brokenLinks, brokenResources, resources: { internal, external } };
}

/** The internal target of a page's meta refresh when the page is a redirect stub (a refresh within 5 s to another URL); else null. */
export function refreshRedirect(h: PageReading, url: string, site = siteOf(url)): string | null {
  return h.refresh && h.refresh !== url && siteOf(h.refresh) === site && h.refreshDelay <= 5 ? h.refresh : null;
}

/** The internal URLs a page links to: its links and its meta refresh, never itself. */
function linkTargets(h: PageReading, url: string, site: string): Set<string> {
  const out = new Set(h.internalLinks);
  if (h.refresh && siteOf(h.refresh) === site) out.add(h.refresh);
  out.delete(url);
  return out;
}
