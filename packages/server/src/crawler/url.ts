/**
 * URL normalisation (docs/decisions/url-normalisation.md) lives in `@siteaudit/schema`: by-URL
 * reads of the server and the mock look pages up under the same key the crawler stores.
 */
export { normaliseUrl } from '@siteaudit/schema/rules';

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
