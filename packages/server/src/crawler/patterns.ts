/**
 * URL patterns of a campaign (`include_patterns`, `exclude_patterns`, `issue_exclusion_patterns`).
 *
 * Syntax (docs/decisions/url-normalisation.md, "Patterns"):
 * - one entry per line; a line that does not start with `re:` may hold several entries
 *   separated by commas; blank lines and lines starting with `#` are ignored;
 * - `re:<expression>`: a JavaScript regular expression, tested (unanchored) against the whole
 *   normalised URL, e.g. `re:/product/\d{4,}$`;
 * - otherwise a glob written like a robots.txt rule: it matches from the start of the path
 *   (path and query, e.g. `/blog/`), or from the start of the URL when it contains `://`
 *   (e.g. `https://shop.example.com/`); `*` matches any run of characters, a final `$` anchors
 *   the end, and everything else is literal (`?` and `.` included). Without `$` a glob is a
 *   prefix: `/blog/` matches `/blog/` and everything under it. A glob that starts with neither
 *   `/` nor a scheme matches anywhere in the path, e.g. `*.pdf$` or `utm_source=`.
 *
 * We do not use `/regex/` delimiters, because `/blog/` must stay the obvious path glob.
 */
export class PatternError extends Error {
  constructor(readonly entry: string, reason: string) {
    super(`Invalid pattern "${entry}": ${reason}`);
    this.name = 'PatternError';
  }
}

export interface UrlMatcher {
  /** True when at least one entry matches the normalised URL. */
  matches(url: string): boolean;
  /** Number of entries; 0 for an empty list. */
  readonly size: number;
}

type Test = (url: string, pathAndQuery: string) => boolean;

/** Splits a pattern list into its entries, following the syntax above. */
export function splitPatterns(source: string | null | undefined): string[] {
  if (!source) return [];
  const entries: string[] = [];
  for (const raw of source.split(/\r\n|\r|\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    if (line.startsWith('re:')) entries.push(line);
    else entries.push(...line.split(',').map((e) => e.trim()).filter(Boolean));
  }
  return entries;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function compileEntry(entry: string): Test {
  if (entry.startsWith('re:')) {
    const body = entry.slice(3);
    if (!body) throw new PatternError(entry, 'empty regular expression');
    let re: RegExp;
    try {
      re = new RegExp(body);
    } catch (error) {
      throw new PatternError(entry, (error as Error).message);
    }
    return (url) => re.test(url);
  }
  const anchoredEnd = entry.endsWith('$');
  const glob = anchoredEnd ? entry.slice(0, -1) : entry;
  const source = glob.split('*').map(escapeRegExp).join('.*');
  const full = glob.includes('://');
  const fromStart = full || glob.startsWith('/');
  const re = new RegExp(`${fromStart ? '^' : ''}${source}${anchoredEnd ? '$' : ''}`, full ? 'i' : '');
  return full ? (url) => re.test(url) : (_url, pathAndQuery) => re.test(pathAndQuery);
}

/** Compiles a pattern list; throws PatternError on an invalid regular expression. */
export function compilePatterns(source: string | null | undefined): UrlMatcher {
  const tests = splitPatterns(source).map(compileEntry);
  return {
    size: tests.length,
    matches(url: string): boolean {
      if (tests.length === 0) return false;
      let pathAndQuery = url;
      try {
        const parsed = new URL(url);
        pathAndQuery = parsed.pathname + parsed.search;
      } catch {
        // not a URL (cannot happen for normalised URLs): match the raw text
      }
      return tests.some((t) => t(url, pathAndQuery));
    },
  };
}

/** Returns the error message of an invalid pattern list, or null: for validating campaign input. */
export function validatePatterns(source: string | null | undefined): string | null {
  try {
    compilePatterns(source);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}
