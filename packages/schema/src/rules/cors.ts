/**
 * Calls from a web page of another origin (docs/decisions/cors.md), the same in the server and the
 * mock. The API authenticates with a bearer token, never a cookie, so any origin may call it, as
 * GitHub's REST API allows: a page can only send a token it already holds, and no page can make a
 * browser send another site's token. Without these headers, `@siteaudit/client` in a browser app
 * would fail every call with an opaque network error.
 */
import { HEADERS } from '../openapi-responses.js';

/** Response headers a page may read without being listed (the Fetch standard's safelist). */
const SAFELISTED = new Set(['cache-control', 'content-language', 'content-length', 'content-type', 'expires', 'last-modified', 'pragma']);

/**
 * Every header the API documents on its answers (`HEADERS`, the OpenAPI document's), less those a
 * page reads anyway: the SDK's request id, rate-limit state, ETag, Retry-After, Location and the
 * download's file name all come from these.
 */
export const CORS_EXPOSE_HEADERS = Object.keys(HEADERS)
  .filter((name) => !SAFELISTED.has(name.toLowerCase()))
  .join(', ');

/**
 * The request headers the API reads, and User-Agent (the SDK's `userAgent` option, where a browser
 * lets a page set it). A header outside this list fails the preflight, so the page learns of it
 * at once rather than having it ignored.
 */
export const CORS_ALLOW_HEADERS = 'Authorization, Content-Type, Content-Encoding, Accept-Language, Idempotency-Key, If-None-Match, User-Agent';

/** Every method the contract routes; a path's own methods are the answer's `Allow` (405). */
export const CORS_ALLOW_METHODS = 'GET, HEAD, POST, PATCH, DELETE';

/** How long a browser may reuse a preflight's answer: 2 hours, Chromium's own cap. */
export const CORS_MAX_AGE_SECONDS = 7200;

/** On every answer of the API, whether or not the request carried an `Origin` (so no cache needs `Vary: Origin`). */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': CORS_EXPOSE_HEADERS,
};

/** The answer to a preflight: 204, before authentication, costing nothing against the rate limit. */
export const PREFLIGHT_HEADERS: Readonly<Record<string, string>> = {
  ...CORS_HEADERS,
  'Access-Control-Allow-Methods': CORS_ALLOW_METHODS,
  'Access-Control-Allow-Headers': CORS_ALLOW_HEADERS,
  'Access-Control-Max-Age': String(CORS_MAX_AGE_SECONDS),
};

/** A CORS preflight: OPTIONS naming the method the page means to send. */
export function isPreflight(method: string | undefined, requestMethod: string | null | undefined): boolean {
  return method === 'OPTIONS' && typeof requestMethod === 'string' && requestMethod !== '';
}

/** The paths that answer other origins: the API and its OpenAPI documents (an editor on another origin loads them). */
export function isCrossOriginPath(path: string): boolean {
  return path === '/v1' || path.startsWith('/v1/') || path === '/openapi.json' || path === '/openapi-3.0.json';
}
