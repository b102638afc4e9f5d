/**
 * The generated site of the crawl benchmark: a deterministic shop-like site of N URLs (`/` and
 * `/p/1` … `/p/N-1`), each page a few KB of HTML with a title, a description, an h1, images, about
 * 20 internal links and the ordinary defects of a real site (missing or long titles, duplicate
 * titles and content, images without alt, heading skips, noindex, invalid JSON-LD…). A few of the
 * N URLs answer 404 and a few answer 301 to the next page, so broken links and links to redirects
 * exist, and every one of the N URLs counts as a page for every crawler.
 *
 * The site is served by node:http on 127.0.0.1 with keep-alive, gzip (when asked) from a cache
 * filled before any measurement, so serving costs little and the same for every variant. A second
 * server on another port plays the "external" sites that pages link to (some links broken).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync, gzipSync } from 'node:zlib';
import { seededRandom as rng } from '../seeded-random.js';
import { startFileSite, type FileServer } from './file-site.js';

/**
 * Above this many pages only the gzipped copy of each page is kept (a client that does not accept
 * gzip gets it gunzipped on request), so that a million-page site fits in a few GB.
 */
const PLAIN_KEPT_UP_TO = 250_000;

/** Every id with `id % 97 === 13` answers 404 (a removed product). */
export const isGone = (id: number) => id > 0 && id % 97 === 13;
/** Every id with `id % 89 === 17` (not gone) answers 301 to the next page. */
export const isMoved = (id: number) => id > 0 && !isGone(id) && id % 89 === 17;

export const pathOf = (id: number) => (id === 0 ? '/' : `/p/${id}`);

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'te', 'vi', 'do', 'pa', 'ber', 'con', 'dis', 'mar', 'tor', 'lin', 'gra', 'pho', 'sel', 'tri', 'ven', 'qua', 'zo', 'fen'];
const VOCABULARY: string[] = (() => {
  const r = rng(42);
  const words = new Set<string>();
  while (words.size < 3000) {
    const n = 1 + Math.floor(r() * 3);
    let w = '';
    for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(r() * SYLLABLES.length)];
    words.add(w);
  }
  return [...words];
})();
const CATEGORIES = ['Garden', 'Kitchen', 'Outdoor', 'Lighting', 'Storage', 'Textiles', 'Tools', 'Office'];

function words(r: () => number, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(VOCABULARY[Math.floor(r() * VOCABULARY.length)]);
  return out.join(' ');
}

function sentence(r: () => number, n: number): string {
  const text = words(r, n);
  return `${text[0].toUpperCase()}${text.slice(1)}.`;
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The main text of a page: its own words, seeded by its id (duplicates reuse another id's seed). */
function mainText(seed: number, thin: boolean, skip: boolean): string {
  const r = rng(seed * 7919 + 1);
  if (thin) return `<p>${sentence(r, 25)}</p>`;
  const parts: string[] = [];
  const sections = 3 + Math.floor(r() * 3);
  for (let s = 0; s < sections; s++) {
    const level = skip && s === 1 ? 4 : 2;
    parts.push(`<h${level}>${escape(sentence(r, 4).slice(0, -1))}</h${level}>`);
    const paragraphs = 1 + Math.floor(r() * 2);
    for (let p = 0; p < paragraphs; p++) {
      const sentences: string[] = [];
      for (let k = 0; k < 4; k++) sentences.push(sentence(r, 8 + Math.floor(r() * 10)));
      parts.push(`<p>${sentences.join(' ')} <strong>${words(r, 2)}</strong> ${sentence(r, 6)}</p>`);
    }
  }
  return parts.join('\n');
}

export interface SiteShape {
  pages: number;
  origin: string;
  external: string;
}

/** Internal link targets of a page: navigation, tree children and parent, neighbours, random. */
export function linkTargets(id: number, pages: number): number[] {
  const r = rng(id * 31 + 7);
  const out = new Set<number>();
  for (let c = 1; c <= 5; c++) if (c < pages) out.add(c); // category pages in the navigation
  for (let c = 4 * id + 1; c <= 4 * id + 4; c++) if (c < pages) out.add(c);
  if (id > 0) out.add(Math.floor((id - 1) / 4));
  for (let k = 0; k < 5; k++) {
    const n = id + Math.floor(r() * 101) - 50;
    if (n >= 0 && n < pages) out.add(n);
  }
  while (out.size < 20 && pages > 21) out.add(Math.floor(r() * pages));
  out.delete(id);
  return [...out];
}

/** The HTML of page `id` (a 200 page: not gone, not moved). */
export function pageHtml(id: number, shape: SiteShape): string {
  const { origin, external, pages } = shape;
  const r = rng(id * 131 + 3);
  const category = CATEGORIES[id % CATEGORIES.length];
  const name = words(r, 2 + Math.floor(r() * 2));
  const productName = `${name[0].toUpperCase()}${name.slice(1)}`;

  let title: string | null = `${productName} – ${category} #${id} | Bench Shop`;
  if (id % 31 === 5) title = `${productName} – ${category} #${id} | Bench Shop, the home and garden shop with free delivery`;
  if (id % 41 === 3) title = `${category} catalogue | Bench Shop`; // shared: duplicate titles
  if (id % 67 === 11) title = null;
  let description: string | null = `${sentence(r, 12)} ${sentence(r, 6)}`.slice(0, 150);
  if (id % 23 === 4) description = null;
  else if (id % 47 === 9) description = 'Short.';
  const lang = id % 113 === 10 ? '' : ' lang="en"';
  const canonical = id % 97 === 20 ? `${origin}${pathOf((id + 1) % pages)}` : `${origin}${pathOf(id)}`;
  const noindex = id % 101 === 7 ? '<meta name="robots" content="noindex, follow">\n' : '';
  const og = id % 19 === 0 ? '' : `<meta property="og:title" content="${escape(productName)}">\n<meta property="og:description" content="${escape(category)} at Bench Shop">\n<meta property="og:image" content="${origin}/img/${id % 150}.jpg">\n`;
  const breadcrumb = JSON.stringify({
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: [
      { '@type': 'ListItem', position: 1, name: 'Home', item: `${origin}/` },
      { '@type': 'ListItem', position: 2, name: category, item: `${origin}${pathOf(1 + (id % 5))}` },
    ],
  });
  const jsonLd = id % 83 === 1 ? breadcrumb.slice(0, -2) : breadcrumb;

  const nav = CATEGORIES.slice(0, 5)
    .map((c, i) => `<li><a href="${pathOf(i + 1 < pages ? i + 1 : 0)}">${c}</a></li>`)
    .join('');
  const related = linkTargets(id, pages)
    .filter((t) => t > 5)
    .map((t) => `<li><a href="${pathOf(t)}">${escape(words(rng(t), 2))}</a></li>`)
    .join('\n');
  const parent = id > 0 ? `<a href="${pathOf(Math.floor((id - 1) / 4))}">Back to the list</a>` : '';
  const missingAlt = id % 7 === 0;
  const noSize = id % 9 === 0 ? '' : ' width="640" height="480"';
  const images = [
    `<img src="/img/${id % 150}.jpg"${missingAlt ? '' : ` alt="${escape(productName)}"`}${noSize}>`,
    `<img src="/img/${(id * 7 + 3) % 150}.jpg" alt="${escape(productName)}, detail" width="320" height="240">`,
  ].join('\n');
  const externals: string[] = [];
  if (id % 5 === 0) externals.push(`<a href="${external}/partner/${id % 40}">Our partner</a>`);
  if (id % 400 === 0) externals.push(`<a href="${external}/dead/${id % 7}" rel="nofollow">Old supplier</a>`);
  const h1 = id % 53 === 6 ? '' : id % 59 === 8 ? `<h1>${escape(productName)}</h1><h1>${category}</h1>` : `<h1>${escape(productName)}</h1>`;
  const textSeed = id % 61 === 30 ? id - 1 : id; // exact duplicate of the previous page's text

  return `<!doctype html>
<html${lang}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${title === null ? '' : `<title>${escape(title)}</title>\n`}${description === null ? '' : `<meta name="description" content="${escape(description)}">\n`}${noindex}<link rel="canonical" href="${canonical}">
<link rel="stylesheet" href="/static/site.css">
<link rel="icon" href="/static/favicon.ico">
${og}<script type="application/ld+json">${jsonLd}</script>
<script src="/static/app.js" defer></script>
</head>
<body>
<header><a href="/"><img src="/static/logo.png" alt="Bench Shop" width="120" height="40"></a>
<nav><ul>${nav}</ul></nav>
<form action="/search" method="get"><input name="q" type="search"><button>Search</button></form></header>
<main>
<article>
${h1}
${images}
<p class="price">${(10 + (id % 90)).toFixed(2)} €</p>
${mainText(textSeed, id % 71 === 12, id % 43 === 2)}
</article>
<aside><h2>Related products</h2><ul>
${related}
</ul>${parent}</aside>
</main>
<footer><p>${externals.join(' ')} <a href="/p/${Math.min(pages - 1, 2)}">Delivery</a> © Bench Shop</p></footer>
</body>
</html>
`;
}

/** Which generated site: the shop above, or the dense templated site of the crawl CPU issue. */
export type SiteKind = 'shop' | 'dense';

/** The dense site's 14 words: every page's text is drawn from them, so all pages are alike. */
const DENSE_WORDS = ['stock', 'blue', 'size', 'new', 'price', 'fit', 'cotton', 'shop', 'sale', 'item', 'colour', 'model', 'pack', 'free'];

/** Every page with `id % 97 === 0` links to one URL that answers 404 (a broken link). */
export const hasBrokenLink = (id: number) => id % 97 === 0;

/**
 * A page of the dense, templated site (faceted or variant pages of a shop): about 2 KB, a short
 * title and description, an h1, 250 words drawn at random from 14 (so every page's text is close
 * to every other's), 20 links to random other pages plus the next one, the one image every page
 * shares, and a broken link on every 97th page. Every one of the N URLs answers 200.
 */
export function densePageHtml(id: number, shape: SiteShape): string {
  const { pages } = shape;
  const r = rng(id * 2654435761 + 11);
  const pick = () => DENSE_WORDS[Math.floor(r() * DENSE_WORDS.length)];
  const text: string[] = [];
  for (let i = 0; i < 250; i++) text.push(pick());
  const links: string[] = [];
  for (let i = 0; i < 20; i++) {
    let t = Math.floor(r() * pages);
    if (t === id) t = (t + 1) % pages;
    links.push(`<a href="${pathOf(t)}">${pick()}</a>`);
  }
  links.push(`<a href="${pathOf((id + 1) % pages)}">next</a>`);
  if (hasBrokenLink(id)) links.push(`<a href="/gone/${id}">old</a>`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>Item ${id} ${pick()}</title>
<meta name="description" content="${pick()} ${pick()} item ${id}">
</head><body>
<h1>Item ${id}</h1>
<img src="/img/1.jpg" alt="item" width="64" height="64">
<p>${text.join(' ')}</p>
<nav>${links.join(' ')}</nav>
</body></html>
`;
}

/** The N URLs of the site, in id order: what the bare fetch loop requests. */
export function allPaths(pages: number): string[] {
  return Array.from({ length: pages }, (_, id) => pathOf(id));
}

function imageBytes(n: number): number {
  // A few heavy images (over the 500 KB check), most 20–300 KB.
  return n % 37 === 0 ? 900 * 1024 : 20 * 1024 + ((n * 7919) % (280 * 1024));
}

export interface ServedCounts {
  pages: number;
  notFound: number;
  redirects: number;
  images: number;
  other: number;
  external: number;
  bytes: number;
}

export interface BenchSite {
  url: string;
  external: string;
  pages: number;
  /** Requests served since the last reset. */
  counts: ServedCounts;
  reset(): ServedCounts;
  close(): Promise<void>;
}

const zero = (): ServedCounts => ({ pages: 0, notFound: 0, redirects: 0, images: 0, other: 0, external: 0, bytes: 0 });

async function listen(server: Server): Promise<number> {
  server.keepAliveTimeout = 60_000;
  server.headersTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/**
 * How pages are served: `stored`, rendered and compressed once up front (the fetch loop then
 * measures the client alone); `rendered`, rendered and compressed for every request, as a site
 * built by a template engine without a cache answers (what the crawl CPU issue's own site did:
 * its ceiling then includes the server's work, on the same cores); `nginx` or `python`, the dense
 * site as files served by that program (file-site.ts).
 */
export type ServeMode = 'stored' | 'rendered' | FileServer;

/**
 * Starts the site (and its "external" neighbour); `stored` renders and compresses every page up front.
 * @example const site = await startBenchSite(5000); … await site.close();
 */
export async function startBenchSite(pages: number, kind: SiteKind = 'shop', serve: ServeMode = 'stored'): Promise<BenchSite> {
  const gone = kind === 'shop' ? isGone : () => false;
  const moved = kind === 'shop' ? isMoved : () => false;
  const render = kind === 'shop' ? pageHtml : densePageHtml;
  let counts = zero();
  const plain: Buffer[] = new Array(pages);
  const gzipped: Buffer[] = new Array(pages);
  const text = new Map<string, { type: string; body: Buffer }>();
  const zeros = Buffer.alloc(1024 * 1024);

  const send = (req: IncomingMessage, res: ServerResponse, status: number, type: string, body: Buffer | (() => Buffer), gz: Buffer | null) => {
    const useGzip = gz !== null && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    const payload = useGzip ? gz : typeof body === 'function' ? body() : body;
    const headers: Record<string, string | number> = { 'content-type': type, 'content-length': payload.length, 'cache-control': 'max-age=600' };
    if (gz !== null) headers.vary = 'Accept-Encoding';
    if (useGzip) headers['content-encoding'] = 'gzip';
    res.writeHead(status, headers);
    if (req.method === 'HEAD') res.end();
    else {
      counts.bytes += payload.length;
      res.end(payload);
    }
  };

  const externalServer = createServer((req, res) => {
    counts.external++;
    const path = (req.url ?? '/').split('?')[0];
    const body = Buffer.from('<!doctype html><html lang="en"><head><title>Partner</title></head><body><p>Partner site</p></body></html>');
    if (path.startsWith('/dead/')) send(req, res, 404, 'text/html; charset=utf-8', body, null);
    else send(req, res, 200, 'text/html; charset=utf-8', body, null);
  });
  const externalPort = await listen(externalServer);
  const external = `http://127.0.0.1:${externalPort}`;
  if (serve === 'nginx' || serve === 'python') {
    if (kind !== 'dense') throw new Error(`--serve ${serve} serves the dense site only`);
    const files = await startFileSite(pages, serve, external);
    return {
      ...files,
      close: async () => {
        await files.close();
        externalServer.closeAllConnections();
        await new Promise<void>((resolve) => externalServer.close(() => resolve()));
      },
    };
  }

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const id = path === '/' ? 0 : path.startsWith('/p/') ? Number(path.slice(3)) : NaN;
    if (Number.isInteger(id) && id >= 0 && id < pages && (id === 0 || path === `/p/${id}`)) {
      if (gone(id)) {
        counts.notFound++;
        send(req, res, 404, 'text/html; charset=utf-8', NOT_FOUND, null);
      } else if (moved(id)) {
        counts.redirects++;
        res.writeHead(301, { location: pathOf((id + 1) % pages), 'content-length': 0 }).end();
      } else {
        counts.pages++;
        if (serve === 'rendered') {
          const html = Buffer.from(render(id, shape));
          const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
          send(req, res, 200, 'text/html; charset=utf-8', html, gzip ? gzipSync(html) : null);
        } else send(req, res, 200, 'text/html; charset=utf-8', plain[id] ?? (() => gunzipSync(gzipped[id])), gzipped[id]);
      }
      return;
    }
    if (path.startsWith('/img/')) {
      counts.images++;
      const n = Number(path.slice(5).replace(/\.jpg$/, ''));
      const size = Number.isInteger(n) ? imageBytes(n) : 0;
      if (!size) send(req, res, 404, 'text/html; charset=utf-8', NOT_FOUND, null);
      else send(req, res, 200, 'image/jpeg', size <= zeros.length ? zeros.subarray(0, size) : Buffer.alloc(size), null);
      return;
    }
    counts.other++;
    const resource = text.get(path);
    if (resource) send(req, res, 200, resource.type, resource.body, null);
    else send(req, res, 404, 'text/html; charset=utf-8', NOT_FOUND, null);
  });
  const port = await listen(server);
  const url = `http://127.0.0.1:${port}`;

  const shape: SiteShape = { pages, origin: url, external };
  for (let id = 0; id < pages && serve === 'stored'; id++) {
    if (gone(id) || moved(id)) continue;
    const html = Buffer.from(render(id, shape));
    // A copy of the right size: gzipSync's result is a view of a larger chunk (16 KB or more),
    // which a million pages would otherwise keep alive.
    gzipped[id] = Buffer.from(gzipSync(html));
    if (pages <= PLAIN_KEPT_UP_TO) plain[id] = html;
  }
  const listed: string[] = [];
  for (let id = 0; id < pages; id++) if (!gone(id) && !moved(id)) listed.push(`${url}${pathOf(id)}`);
  const PER_SITEMAP = 10_000;
  const urlset = (urls: string[]) =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.map((u) => `<url><loc>${u}</loc></url>`).join('\n')}\n</urlset>\n`;
  if (listed.length <= PER_SITEMAP) text.set('/sitemap.xml', { type: 'application/xml', body: Buffer.from(urlset(listed)) });
  else {
    const parts: string[] = [];
    for (let i = 0; i * PER_SITEMAP < listed.length; i++) {
      text.set(`/sitemap-${i + 1}.xml`, { type: 'application/xml', body: Buffer.from(urlset(listed.slice(i * PER_SITEMAP, (i + 1) * PER_SITEMAP))) });
      parts.push(`<sitemap><loc>${url}/sitemap-${i + 1}.xml</loc></sitemap>`);
    }
    text.set('/sitemap.xml', {
      type: 'application/xml',
      body: Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${parts.join('\n')}\n</sitemapindex>\n`),
    });
  }
  text.set('/robots.txt', { type: 'text/plain', body: Buffer.from(`User-agent: *\nDisallow: /cart\nDisallow: /search\n\nUser-agent: GPTBot\nDisallow: /\n\nSitemap: ${url}/sitemap.xml\n`) });
  text.set('/llms.txt', { type: 'text/markdown', body: Buffer.from('# Bench Shop\n\n> A generated shop used by the crawl benchmark.\n') });
  text.set('/static/site.css', { type: 'text/css', body: Buffer.from('body{font-family:sans-serif}') });
  text.set('/static/app.js', { type: 'text/javascript', body: Buffer.from('void 0;') });
  text.set('/static/logo.png', { type: 'image/png', body: zeros.subarray(0, 4096) });
  text.set('/static/favicon.ico', { type: 'image/x-icon', body: zeros.subarray(0, 1024) });

  return {
    url,
    external,
    pages,
    get counts() {
      return counts;
    },
    reset() {
      const before = counts;
      counts = zero();
      return before;
    },
    close: async () => {
      for (const s of [server, externalServer]) {
        s.closeAllConnections();
        await new Promise<void>((resolve) => s.close(() => resolve()));
      }
    },
  };
}

const NOT_FOUND = Buffer.from('<!doctype html><html lang="en"><head><title>Not found | Bench Shop</title></head><body><h1>Not found</h1><p>This product is gone.</p></body></html>');
