/**
 * The base of every link the API and its webhooks return (`download_url`, `Location`): the
 * operator's public URL, never the request's `Host` header, which the caller writes
 * (docs/decisions/public-url.md). One value for the whole server, so a link in an answer and the
 * same link in a webhook payload are equal.
 */

/** An absolute http(s) base without query, fragment or credentials; trailing slashes dropped. */
export function parsePublicUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new Error(`publicUrl must be an absolute http(s) URL, got ${JSON.stringify(value)}`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || url.search || url.hash) {
    throw new Error(`publicUrl must be an http(s) URL without credentials, query or fragment, got ${JSON.stringify(value)}`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** A wildcard bind address names no host a client could use. */
function isWildcard(host: string): boolean {
  return host === '' || host === '0.0.0.0' || host === '::' || host === '[::]';
}

/** The base a `listen()` on `host` gives links when no public URL is configured: `http://host:port`, none for a wildcard. */
export function listenBase(url: string, host: string): string | null {
  return isWildcard(host) ? null : url;
}

/**
 * The links of one server. Its base is the configured public URL, else the address the server
 * listens on, which exists only once `listen()` has bound it: `listening` reads it (the server's
 * own record of its address), so the links themselves never change.
 */
export class PublicLinks {
  constructor(
    private readonly configured: string | null,
    private readonly listening: () => string | null = () => null,
  ) {}

  private get base(): string {
    return this.configured ?? this.listening() ?? '';
  }

  /** `path` (starting with `/v1/`) as an absolute URL, or as a path from the root when no base is known. */
  absolute(path: string): string {
    return `${this.base}${path}`;
  }

  /** `path` under the base's own path (a public URL may carry a prefix): for relative `Location` headers. */
  relative(path: string): string {
    return this.base ? `${new URL(this.base).pathname.replace(/\/$/, '')}${path}` : path;
  }
}
