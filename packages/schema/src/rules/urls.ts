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
