/**
 * XML sitemaps (sitemaps.org): urlset and sitemapindex, plain or gzipped (by Content-Encoding or
 * by the gzip magic bytes of a .xml.gz file), parsed as a stream with htmlparser2 in XML mode so
 * a 50 MB sitemap is never held in memory. Sitemap files are capped in number; `onUrl` returns
 * false to stop reading once the crawl has enough URLs. Hreflang alternates (`xhtml:link`) are
 * handed over per entry.
 */
import { StringDecoder } from 'node:string_decoder';
import { createGunzip, type Gunzip } from 'node:zlib';
import { Parser } from 'htmlparser2';
import { THRESHOLDS } from '../checks.js';
import type { HttpClient } from '../fetch/http-client.js';

const MAX_SITEMAP_FILES = 50;
/** The protocol caps a sitemap at 50 MB uncompressed. */
const MAX_SITEMAP_BYTES = THRESHOLDS.sitemapMaxBytes;

export interface SitemapReport {
  /** Sitemap files that answered 2xx with at least one <loc>, or an empty but valid urlset. */
  found: string[];
  /** Sitemap URLs that answered non-2xx or failed, or answered 2xx with something else than a sitemap. */
  failed: { url: string; status: number | null }[];
  /** Files that answered 2xx but are not a urlset or sitemapindex document (a subset of `failed`). */
  invalid: { url: string; status: number }[];
  /** Files past the protocol's limits: more than 50,000 URLs, or 50 MB uncompressed (read up to it). */
  oversized: { url: string; urls: number; truncated: boolean }[];
  /** True when every file was read and every location handed over (no stop, no file cap). */
  complete: boolean;
}

/** A language version a sitemap names for a page (`<xhtml:link rel="alternate" hreflang="…" href="…"/>`). */
export interface SitemapAlternate {
  lang: string;
  href: string;
}

/** Alternates kept per `<url>` entry: far above any real set (Google's own examples list a few dozen). */
const MAX_ALTERNATES = 300;

/**
 * A streaming parser of one sitemap document: calls back for page and child-sitemap locations,
 * and, at the end of a `<url>` entry, for the hreflang alternates it lists (Google's sitemap
 * method of declaring language versions).
 */
export class SitemapParser {
  private readonly parser: Parser;
  private loc: string | null = null;
  private parent: 'url' | 'sitemap' | null = null;
  private pageLoc: string | null = null;
  private alternates: SitemapAlternate[] = [];
  isSitemapDocument = false;

  constructor(onPage: (url: string) => void, onSitemap: (url: string) => void, onAlternates?: (url: string, alternates: SitemapAlternate[]) => void) {
    this.parser = new Parser(
      {
        onopentag: (name, attribs) => {
          const tag = name.toLowerCase().replace(/^.*:/, '');
          if (tag === 'urlset' || tag === 'sitemapindex') this.isSitemapDocument = true;
          if (tag === 'url' || tag === 'sitemap') {
            this.parent = tag;
            this.pageLoc = null;
            this.alternates = [];
          }
          if (tag === 'loc' && this.parent) this.loc = '';
          if (tag === 'link' && this.parent === 'url' && this.alternates.length < MAX_ALTERNATES) {
            const rel = (attribs.rel ?? '').toLowerCase().split(/\s+/);
            const lang = (attribs.hreflang ?? '').trim();
            const href = (attribs.href ?? '').trim();
            if (rel.includes('alternate') && lang && href) this.alternates.push({ lang, href });
          }
        },
        ontext: (text) => {
          if (this.loc !== null) this.loc += text;
        },
        onclosetag: (name) => {
          const tag = name.toLowerCase().replace(/^.*:/, '');
          if (tag === 'loc' && this.loc !== null) {
            const loc = this.loc.trim();
            this.loc = null;
            if (loc) (this.parent === 'sitemap' ? onSitemap : onPage)(loc);
            if (loc && this.parent === 'url') this.pageLoc = loc;
          }
          if (tag === 'url' && this.pageLoc && this.alternates.length && onAlternates) onAlternates(this.pageLoc, this.alternates);
          if (tag === 'url' || tag === 'sitemap') this.parent = null;
        },
      },
      { xmlMode: true, decodeEntities: true },
    );
  }

  write(text: string): void {
    this.parser.write(text);
  }

  end(): void {
    this.parser.end();
  }
}

/**
 * Reads the given sitemaps and the indexes they point to. `onUrl` receives every page location
 * (absolute, as written) and returns false to stop.
 */
export async function readSitemaps(
  client: HttpClient,
  roots: string[],
  onUrl: (url: string, sitemap: string) => boolean,
  onAlternates?: (url: string, alternates: SitemapAlternate[]) => void,
): Promise<SitemapReport> {
  const queue = [...new Set(roots)];
  const visited = new Set<string>();
  const report: SitemapReport = { found: [], failed: [], invalid: [], oversized: [], complete: true };
  let more = true;
  while (queue.length > 0 && visited.size < MAX_SITEMAP_FILES && more) {
    const url = queue.shift()!;
    if (visited.has(url)) continue;
    visited.add(url);
    const decoder = new StringDecoder('utf8');
    let urls = 0;
    const parser = new SitemapParser(
      (loc) => {
        urls++;
        if (more) more = onUrl(loc, url);
      },
      (loc) => {
        if (!visited.has(loc)) queue.push(loc);
      },
      onAlternates,
    );
    let gunzip: Gunzip | null = null;
    let first = true;
    const feed = (chunk: Buffer) => parser.write(decoder.write(chunk));
    const gunzipDone: Promise<void>[] = [];
    const res = await client.getResource(url, {
      maxHops: 5,
      maxBytes: MAX_SITEMAP_BYTES,
      accept: 'application/xml,text/xml;q=0.9,*/*;q=0.5',
      onChunk: (chunk) => {
        if (first) {
          first = false;
          // A .xml.gz served without Content-Encoding still starts with the gzip magic bytes.
          if (chunk[0] === 0x1f && chunk[1] === 0x8b) {
            const g = createGunzip();
            gunzip = g;
            g.on('data', feed);
            gunzipDone.push(
              new Promise<void>((resolve) => {
                g.on('end', resolve);
                g.on('error', () => resolve());
              }),
            );
          }
        }
        if (gunzip) (gunzip as Gunzip).write(chunk);
        else feed(chunk);
      },
    });
    if (gunzip) {
      (gunzip as Gunzip).end();
      await Promise.all(gunzipDone);
    }
    parser.write(decoder.end());
    parser.end();
    const ok = res.status !== null && res.status >= 200 && res.status < 300;
    if (ok && parser.isSitemapDocument) report.found.push(url);
    else report.failed.push({ url, status: res.status });
    if (ok && !parser.isSitemapDocument) report.invalid.push({ url, status: res.status! });
    if (ok && (urls > THRESHOLDS.sitemapMaxUrls || res.truncated)) report.oversized.push({ url, urls, truncated: res.truncated });
  }
  if (!more || queue.some((u) => !visited.has(u))) report.complete = false;
  return report;
}
