/**
 * The complete list of token scopes. The spec names the pattern (domain plus verb) and leaves the
 * list open; this is ours (docs/decisions/scopes.md). A write scope never includes read.
 */
export const SCOPES = [
  'projects:read',
  'projects:write',
  'crawls:read',
  'crawls:write',
  'exports:write',
  'positions:read',
  'positions:write',
  'search_console:read',
  'webhooks:read',
  'webhooks:write',
] as const;
export type Scope = (typeof SCOPES)[number];

export const ROLES = ['owner', 'admin', 'member'] as const;
export type Role = (typeof ROLES)[number];

/** A token lives `TOKEN_DEFAULT_DAYS` unless its creator says otherwise, at most `TOKEN_MAX_DAYS`. */
export const TOKEN_DEFAULT_DAYS = 90;
export const TOKEN_MAX_DAYS = 365;

/** RFC 6750 §3: a 401 `unauthenticated` tells the client which scheme to use. */
export const WWW_AUTHENTICATE = 'Bearer realm="siteaudit"';

/**
 * The challenge of a 401 for the request's `Authorization` header (RFC 6750 §3.1): a bearer token
 * that is unknown, revoked, expired or malformed adds `error="invalid_token"`, so a client tells
 * "get a new token" from "send one"; a request with no bearer token gets no error code.
 */
export function bearerChallenge(authorization: string | null | undefined): string {
  return /^Bearer\s+\S/i.test(authorization ?? '') ? `${WWW_AUTHENTICATE}, error="invalid_token"` : WWW_AUTHENTICATE;
}
