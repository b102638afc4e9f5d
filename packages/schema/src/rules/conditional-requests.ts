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

/** Every answer varies with these request headers: the caller (bearer token) and the language. */
export const VARY = 'Authorization, Accept-Language';
