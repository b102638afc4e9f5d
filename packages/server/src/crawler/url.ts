/**
 * URL normalisation: the one key under which the crawler deduplicates, stores and compares URLs
 * (docs/decisions/url-normalisation.md).
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
  parsed.username = '';
  parsed.password = '';
  parsed.hash = '';
  const path = upperEscapes(parsed.pathname || '/');
  const query = sortQuery(parsed.search);
  return `${parsed.protocol}//${parsed.host}${path}${query}`;
}

function upperEscapes(text: string): string {
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

/** Host name without a leading `www.`: `www.example.com` and `example.com` are one site. */
export function siteHost(hostname: string): string {
  const host = hostname.toLowerCase();
  return host.startsWith('www.') ? host.slice(4) : host;
}

/** `scheme://host[:port]` of a normalised URL. */
export function originOf(url: string): string {
  return new URL(url).origin;
}

/** True when `url` has a scheme and therefore does not depend on the document's address. */
export function isAbsoluteUrl(url: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(url.trim());
}
