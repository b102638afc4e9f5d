/**
 * What belongs to the crawl: the internal sites (the start URL's `host[:port]`, with or without
 * `www.`, plus where the start URL redirects) and, among their URLs, those the campaign's include
 * and exclude patterns keep. The start URL is always in scope.
 */
import { compilePatterns, PatternError, type UrlMatcher } from '@siteaudit/schema/rules';
import { siteHost } from '../url.js';

/** `host[:port]` without `www.`: the unit of "internal". Throws on what is not a URL. */
export function siteKey(url: string): string {
  const fast = plainSiteKey(url);
  if (fast !== null) return fast;
  const u = new URL(url);
  return siteHost(u.hostname) + (u.port ? `:${u.port}` : '');
}

/** `http(s)://` + a lower-case ASCII host + an optional port, then the path, query, fragment or the end. */
const PLAIN_URL = /^(https?):\/\/([a-z0-9.-]+)(?::([1-9][0-9]{0,4}))?(?=[/?#]|$)/;
/** A last label that makes the WHATWG parser read the host as an IPv4 address. */
const NUMERIC_LABEL = /(?:^|\.)(?:[0-9]+|0x[0-9a-f]*)\.?$/;
/** A dotted-decimal IPv4 address the parser keeps as it is (no leading zeros, each part ≤ 255). */
const CANONICAL_IPV4 = /^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])$/;

/**
 * The site key read off the string, for the URLs the crawl handles by the million (links of
 * normalised pages, called several times per link): parsing each with `new URL` was a measurable
 * part of the crawl thread. Null for anything the URL parser could read differently (upper case,
 * percent signs, user info, IPv4 forms other than the canonical one, a default or out-of-range
 * port), which takes the parser.
 */
function plainSiteKey(url: string): string | null {
  const m = PLAIN_URL.exec(url);
  if (m === null) return null;
  const [, scheme, host, port] = m;
  if (NUMERIC_LABEL.test(host) && !CANONICAL_IPV4.test(host)) return null;
  if (port !== undefined && (Number(port) > 65535 || port === (scheme === 'http' ? '80' : '443'))) return null;
  return siteHost(host) + (port === undefined ? '' : `:${port}`);
}

/** A site key's host as the plain read takes it (no IPv6 brackets): its origins can be matched as text. */
const PLAIN_HOST = /^[a-z0-9.-]+$/;

/**
 * Sites (`siteKey`s) and whether a URL is on one. A URL that starts with one of their origins as
 * text (`http://host`, `https://www.host:8080`, …, then `/`, `?`, `#` or its end) is on it without
 * reading the URL: a site key is the canonical host and port, which is what `siteKey` reads back
 * from such a URL (property-tested). Anything else (upper case, a default port, user info) takes
 * `siteKey`. Links are checked this way several times each, by the thousand a second.
 */
export class SiteSet {
  private readonly keys: Set<string>;
  private readonly origins: string[] = [];

  constructor(keys: Iterable<string>) {
    this.keys = new Set(keys);
    for (const key of this.keys) {
      const colon = key.lastIndexOf(':');
      const host = colon === -1 ? key : key.slice(0, colon);
      const port = colon === -1 ? '' : key.slice(colon + 1);
      if (!PLAIN_HOST.test(host)) continue;
      for (const scheme of ['http', 'https']) {
        // A default port is never part of a URL's key: `http://host:80` is `host`, not `host:80`.
        if (port === (scheme === 'http' ? '80' : '443')) continue;
        // `www.` is taken off once: a key `www.x` is the host `www.www.x`, since `www.x` is the key
        // `x`. An IPv4 address has no `www.` form (the parser refuses `www.127.0.0.1`).
        const names = host.startsWith('www.') ? [`www.${host}`] : NUMERIC_LABEL.test(host) ? [host] : [host, `www.${host}`];
        for (const name of names) this.origins.push(`${scheme}://${name}${port ? `:${port}` : ''}`);
      }
    }
  }

  has(url: string): boolean {
    for (const origin of this.origins) {
      if (!url.startsWith(origin)) continue;
      const next = url.charCodeAt(origin.length);
      // The end, `/`, `?` or `#`.
      if (Number.isNaN(next) || next === 47 || next === 63 || next === 35) return true;
    }
    try {
      return this.keys.has(siteKey(url));
    } catch {
      return false;
    }
  }
}

/**
 * A campaign's pattern list. One stored before the rules tightened (a JavaScript-only construct,
 * over the bounds) fails the crawl before any request, naming the field: ignoring it would crawl
 * what the team meant to exclude (docs/decisions/url-normalisation.md, "Patterns").
 */
export function fieldPatterns(field: string, source: string | null): UrlMatcher {
  try {
    return compilePatterns(source);
  } catch (error) {
    if (!(error instanceof PatternError)) throw error;
    const { problem } = error;
    throw new PatternError({ ...problem, en: `${field}: ${problem.en}`, fr: `${field} : ${problem.fr}` });
  }
}

export class CrawlScope {
  private readonly sites = new Set<string>();
  /** The internal sites as a list (for a page-analysis thread), rebuilt when one is added. */
  siteKeys: string[] = [];
  private internal: SiteSet;

  constructor(
    /** Normalised start URL. */
    readonly startUrl: string,
    private readonly include: UrlMatcher,
    private readonly exclude: UrlMatcher,
  ) {
    this.sites.add(siteKey(startUrl));
    this.siteKeys = [...this.sites];
    this.internal = new SiteSet(this.sites);
  }

  isInternal(url: string): boolean {
    return this.internal.has(url);
  }

  inScope(url: string): boolean {
    if (!this.isInternal(url)) return false;
    if (url === this.startUrl) return true;
    if (this.exclude.matches(url)) return false;
    return this.include.size === 0 || this.include.matches(url);
  }

  /** Makes `url`'s site internal: the start URL moved the whole site there. */
  addSite(url: string): void {
    this.sites.add(siteKey(url));
    this.siteKeys = [...this.sites];
    this.internal = new SiteSet(this.sites);
  }
}
