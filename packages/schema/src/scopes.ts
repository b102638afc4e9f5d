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
