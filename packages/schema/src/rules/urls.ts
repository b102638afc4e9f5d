/**
 * URL normalisation: the one key under which the crawler deduplicates, stores and compares URLs,
 * and under which `GET /v1/crawls/{id}/pages/by-url` finds a page
 * (docs/decisions/url-normalisation.md). Only the WHATWG URL parser is used, so it runs in
 * browsers (the mock) as in Node (the server's crawler).
 *
 * - only http and https are kept; anything else (mailto:, javascript:, data:…) gives null;
 * - scheme and host are lower-cased and IDNs become punycode (WHATWG parsing does both);
 * - default ports (:80 for http, :443 for https) are dropped;
 * - user name and password are dropped: credentials come from the campaign, never from links;
 * - the fragment is dropped: it never reaches the server;
 * - an empty path becomes `/`; a trailing slash is kept as is (`/a` and `/a/` are different
 *   resources to most servers); dot segments are resolved;
 * - percent-escapes are upper-cased (`%2f` → `%2F`, RFC 3986 §6.2.2.1) but never decoded, since
 *   `%2F` and `/` may differ to the server;
 * - query parameters are sorted by name, stably (repeated names keep their order, which may
 *   matter); their raw text is kept, so `+`, `%20` and `%2F` reach the server untouched; empty
 *   `&&` segments and a bare `?` are dropped.
 *
 * @example
 * normaliseUrl('HTTP://Example.com:80/a?b=1&a=2#x'); // 'http://example.com/a?a=2&b=1'
 * normaliseUrl('/about'); // null: relative, and no base given
 */
export function normaliseUrl(url: string, base?: string): string | null {
  return plainNormalised(url, base) ?? parsedNormalised(url, base);
}

/** `normaliseUrl` through the WHATWG parser, whatever the URL (what the plain path must agree with). */
export function parsedNormalised(url: string, base?: string): string | null {
  let parsed: URL;
  try {
    parsed = base === undefined ? new URL(url.trim()) : new URL(url.trim(), base);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  if (!parsed.hostname) return null;
  // Credentials and fragment are dropped by building the string from the other parts (each URL
  // setter re-serialises the whole URL: a hot spot of the crawl benchmark).
  const path = upperEscapes(parsed.pathname || '/');
  const query = sortQuery(parsed.search);
  return `${parsed.protocol}//${parsed.host}${path}${query}`;
}

/**
 * `http(s)://` + a host the parser keeps as it is (lower-case ASCII labels, or a dotted-decimal
 * IPv4 address in its canonical form) + a port it keeps (not the default one, in range).
 * Punycode labels (`xn--`) are validated by the parser, and other numeric hosts rewritten: not plain.
 */
const PLAIN_ORIGIN = /^(https?):\/\/((?:[a-z0-9-]+\.)*[a-z0-9-]+\.?)(?::([1-9][0-9]{0,4}))?(?=\/|$)/;
const NUMERIC_LABEL = /(?:^|\.)(?:[0-9]+|0x[0-9a-f]*)\.?$/;
const CANONICAL_IPV4 = /^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])$/;
/** A path the parser leaves as it is: no escapes, dot segments, backslashes, query, fragment or characters it encodes. */
const PLAIN_PATH = /^(?:\/(?!\.)[A-Za-z0-9\-._~!$&'()*+,;=:@]*)+$/;

/** The length of `url`'s origin when it is plain (PLAIN_ORIGIN), else -1. */
function plainOriginLength(url: string): number {
  const m = PLAIN_ORIGIN.exec(url);
  if (m === null) return -1;
  const [origin, scheme, host, port] = m;
  if (host.includes('xn--') || (NUMERIC_LABEL.test(host) && !CANONICAL_IPV4.test(host))) return -1;
  if (port !== undefined && (Number(port) > 65535 || port === (scheme === 'http' ? '80' : '443'))) return -1;
  return origin.length;
}

/** The last base read and its origin's length: a page's links are all read against its one base. */
let lastBase = '';
let lastBaseOrigin = -1;

function baseOriginLength(base: string): number {
  if (base !== lastBase) {
    lastBaseOrigin = plainOriginLength(base);
    lastBase = base;
  }
  return lastBaseOrigin;
}

/**
 * The normal form of a URL that needs no parsing, or null: an absolute plain URL, or an absolute
 * path (`/p/12`, what most links are) against a plain base, neither with a query, a fragment or
 * anything the parser would rewrite. Parsing every link of every page with `new URL` was the
 * largest part of a page's link handling; the result is the parser's (property-tested).
 */
function plainNormalised(url: string, base: string | undefined): string | null {
  if (url.charCodeAt(0) === 47 /* / */) {
    if (base === undefined || url.charCodeAt(1) === 47 || !PLAIN_PATH.test(url)) return null;
    const origin = baseOriginLength(base);
    return origin === -1 ? null : base.slice(0, origin) + url;
  }
  const origin = plainOriginLength(url);
  if (origin === -1) return null;
  if (origin === url.length) return `${url}/`;
  return PLAIN_PATH.test(url.slice(origin)) ? url : null;
}

function upperEscapes(text: string): string {
  if (!text.includes('%')) return text;
  return text.replace(/%[0-9a-f]{2}/gi, (m) => m.toUpperCase());
}

function sortQuery(search: string): string {
  if (search.length <= 1) return '';
  const pairs = search
    .slice(1)
    .split('&')
    .filter((p) => p.length > 0)
    .map(upperEscapes);
  if (pairs.length === 0) return '';
  const key = (p: string) => {
    const i = p.indexOf('=');
    return i === -1 ? p : p.slice(0, i);
  };
  // Array.prototype.sort is stable, so repeated names keep their relative order.
  pairs.sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });
  return `?${pairs.join('&')}`;
}
