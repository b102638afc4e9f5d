/** Conditional GETs and the headers every answer varies with. */

/**
 * Whether an `If-None-Match` header matches the current ETag: weak comparison (RFC 9110
 * §13.1.2, `W/` ignored on both sides) over the comma-separated list; `*` matches any current
 * representation.
 */
export function ifNoneMatchMatches(header: string | null | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((candidate) => {
    const c = candidate.trim();
    return c === '*' || c.replace(/^W\//, '') === bare;
  });
}

/**
 * Operations whose body changes on every call (`/v1/me` gives the token's `last_used_at`, this very
 * call; `/v1/usage` the rate limit's state, this call counted): their ETag never matches, and
 * `If-None-Match` is not read, `*` included, so never a 304.
 */
export const NEVER_NOT_MODIFIED: ReadonlySet<string> = new Set(['getMe', 'getUsage']);

/** Every answer varies with these request headers: the caller (bearer token), the language, and the encoding (gzip: docs/decisions/compression.md). */
export const VARY = 'Authorization, Accept-Language, Accept-Encoding';
