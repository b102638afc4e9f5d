/**
 * The HTTP `Link` header (RFC 8288): `<url>; rel="alternate"; hreflang="fr", <url2>; rel=canonical`.
 * Google reads a page's canonical and its hreflang alternates there as in the HTML head (a PDF has
 * no head). Parsed, not matched by a pattern: a comma or a semicolon inside `<…>` or a quoted
 * value belongs to it, parameter names are case-insensitive, a value may be a token or quoted.
 */
export interface LinkValue {
  /** The target as written between `<` and `>` (unresolved). */
  target: string;
  /** Parameters by lower-cased name, the first of each name kept (RFC 8288 §3.3); `rel` lower-cased. */
  params: Record<string, string>;
}

/** Every link value of one or several `Link` header values (joined by commas, as Node joins them); malformed parts are skipped. */
export function parseLinkHeader(header: string | null | undefined): LinkValue[] {
  const links: LinkValue[] = [];
  if (!header) return links;
  let i = 0;
  const n = header.length;
  const skip = (chars: string) => {
    while (i < n && chars.includes(header[i])) i++;
  };
  while (i < n) {
    skip(' \t,');
    if (header[i] !== '<') {
      // Not a link value: skip to the next comma outside quotes.
      skipToComma();
      continue;
    }
    const close = header.indexOf('>', i + 1);
    if (close < 0) break;
    const target = header.slice(i + 1, close).trim();
    i = close + 1;
    // No prototype: a parameter named like a member of Object (`__proto__`, `constructor`) is a parameter.
    const params: Record<string, string> = Object.create(null);
    for (;;) {
      skip(' \t');
      if (header[i] !== ';') break;
      i++;
      skip(' \t');
      const nameStart = i;
      while (i < n && !'=;, \t'.includes(header[i])) i++;
      const name = header.slice(nameStart, i).toLowerCase();
      skip(' \t');
      let value = '';
      if (header[i] === '=') {
        i++;
        skip(' \t');
        if (header[i] === '"') {
          i++;
          while (i < n && header[i] !== '"') {
            if (header[i] === '\\' && i + 1 < n) i++;
            value += header[i++];
          }
          i++;
        } else {
          const valueStart = i;
          while (i < n && !';, \t'.includes(header[i])) i++;
          value = header.slice(valueStart, i);
        }
      }
      if (name && !Object.hasOwn(params, name)) params[name] = name === 'rel' ? value.toLowerCase() : value;
    }
    links.push({ target, params });
    skipToComma();
  }
  return links;

  function skipToComma(): void {
    let quoted = false;
    while (i < n && (quoted || header![i] !== ',')) {
      if (header![i] === '"') quoted = !quoted;
      else if (header![i] === '<' && !quoted) {
        const close = header!.indexOf('>', i);
        if (close < 0) {
          i = n;
          return;
        }
        i = close;
      }
      i++;
    }
  }
}

/** True when a link value's `rel` (a space-separated list) holds `rel`. */
export function hasRel(link: LinkValue, rel: string): boolean {
  return (link.params.rel ?? '').split(/\s+/).includes(rel);
}
