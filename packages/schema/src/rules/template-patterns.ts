/**
 * Template-level findings (docs/checks.md, "Scope"): a check that fires on most of a site's HTML
 * pages for one cause is one decision of the site's template (the same missing tag, the same
 * header image, the same canonical), not hundreds of separate problems; on most pages of one
 * section (a first path folder, `/docs/`), one decision of that section's template. The issue
 * summary says so per check (`templates`), beside the occurrences, which stay readable page by page.
 *
 * Same cause, same details: the crawler's details name what fired (`no meta description`,
 * `no lang on <html>`, `h2 followed by h4`, `14 image(s): /images/prev.png, /images/next.png…`), so
 * pages whose details agree share the cause. They are compared by `templateCause`: counts are
 * not the cause (`14 image(s)` and `9 image(s)` of the same images agree), and for a check about
 * the page itself neither is the path of a URL it names (`canonical https://www.sqlite.org/a.html
 * is on another host` and `…/b.html` agree: both point to www.sqlite.org). A link's or a
 * resource's target stays whole: two broken targets are two causes. A check whose details still
 * differ page by page (`115 words`) is a pattern only when one cause covers more than half of
 * the pages.
 *
 * The server and the mock both build the summary with these.
 */

import type { CheckScope } from './check-scopes.js';

/** Below this many HTML pages a site has no template to speak of. */
export const TEMPLATE_MIN_PAGES = 4;
/** Below this many HTML pages a section (a first path folder) has no template of its own to speak of. */
export const SECTION_MIN_PAGES = 10;
/** Sections named per check, the most pages first. */
export const MAX_SECTION_PATTERNS = 10;

export interface TemplatePattern {
  /** The whole site, or one section of it (`section`). */
  scope: 'site' | 'section';
  /** The section's path (`/docs/`; `/` for the files at the root); null for the site. */
  section: string | null;
  /** HTML pages of the scope on which the check fires for this cause. */
  pages: number;
  /** `pages` over the scope's HTML pages (internal, answering 2xx), 0..1. */
  share: number;
  details: string;
  /** A few of those pages' URLs. */
  examples: string[];
}

/**
 * The template pattern of one check in a scope (the site, or the `section` given): its most
 * common cause, when that cause alone is on more than half of the scope's `htmlPages` (and the
 * scope has TEMPLATE_MIN_PAGES of them, SECTION_MIN_PAGES for a section); else null.
 */
export function templatePattern(htmlPages: number, top: { details: string; pages: number } | null, examples: readonly string[], section: string | null = null): TemplatePattern | null {
  if (!top || htmlPages < (section === null ? TEMPLATE_MIN_PAGES : SECTION_MIN_PAGES) || top.pages * 2 <= htmlPages) return null;
  const pages = Math.min(top.pages, htmlPages);
  return { scope: section === null ? 'site' : 'section', section, pages, share: Math.round((pages / htmlPages) * 1000) / 1000, details: top.details, examples: examples.slice(0, 3) };
}

/**
 * The section of a URL: its first path folder (`https://example.com/docs/a/b.html` → `/docs/`),
 * or `/` for a page at the root (`/about`, `/index.html`). Null when it is not a URL.
 */
export function sectionOf(url: string): string | null {
  const m = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*(\/[^?#]*)?/i.exec(url);
  if (!m) return null;
  const path = m[1] ?? '/';
  const second = path.indexOf('/', 1);
  return second < 0 ? '/' : path.slice(0, second + 1);
}

/** True when a check firing on `pages` of `htmlPages` can hold a template pattern (worth reading its details). */
export function mayBeTemplate(htmlPages: number, pages: number): boolean {
  return htmlPages >= TEMPLATE_MIN_PAGES && pages * 2 > htmlPages;
}

/** Counts in details (`14 image(s)`, `(+11)`), not digits inside a word (`h2`). */
const COUNT = /\b\d+\b/g;
/** An absolute URL: its origin is kept, its path, query and fragment are not. */
const URL_PATH = /\b([a-z][a-z0-9+.-]*:\/\/[^/\s,)]*)[^\s,)]*/gi;

/** What identifies the cause of an occurrence of a check of `scope`, from its details. */
export function templateCause(scope: CheckScope, details: string): string {
  const key = details.replace(COUNT, '#');
  return scope === 'page' || scope === 'site' ? key.replace(URL_PATH, '$1/…') : key;
}

/** A check's most common cause: its pages, the details written on most of them, and every details text of the cause. */
export interface TopCause {
  details: string;
  pages: number;
  variants: string[];
}

/**
 * The most common cause among a check's occurrences, from its distinct details and the pages
 * each is on: the pages of that cause (capped at `pages`, the check's distinct pages), the
 * details written on most of them, and all the details of the cause (`variants`: the same
 * words, other counts or paths), which the pattern's details and examples are drawn from.
 */
export function topCause(scope: CheckScope, rows: readonly { details: string; pages: number }[], pages: number): TopCause | null {
  const causes = new Map<string, { pages: number; details: string; most: number; variants: string[] }>();
  for (const r of rows) {
    const key = templateCause(scope, r.details);
    const c = causes.get(key);
    if (!c) causes.set(key, { pages: r.pages, details: r.details, most: r.pages, variants: [r.details] });
    else {
      c.pages += r.pages;
      c.variants.push(r.details);
      if (r.pages > c.most) Object.assign(c, { details: r.details, most: r.pages });
    }
  }
  let top: { pages: number; details: string; variants: string[] } | null = null;
  for (const c of causes.values()) if (!top || c.pages > top.pages) top = c;
  return top && { details: top.details, pages: Math.min(top.pages, pages), variants: top.variants };
}

/** Stands for a count that varies while the details are localised: no real count is this large. */
const SENTINEL = 987_654_000;

/**
 * A cause's details as its pattern shows them, in the reader's language (`localise`): the most
 * common details, each count that differs between the cause's pages shown as the range it spans
 * ("113–661 links" where the pages have 113 to 661), so that one page's count is never read as
 * the template's. Counts stand in for the translation (its rules read digits), then the ranges
 * are put back.
 */
export function causeDetails(cause: Pick<TopCause, 'details' | 'variants'>, localise: (details: string) => string): string {
  return rangedDetails(causeRanges(cause), localise);
}

/** A cause's details and, for each count in them, the range it spans over the cause's variants: what `rangedDetails` prints, kept without the variants (a settled crawl stores it). */
export interface RangedDetails {
  details: string;
  ranges: { min: number; max: number }[];
}

/** The first half of `causeDetails`: the ranges of the counts, read from the variants. */
export function causeRanges(cause: Pick<TopCause, 'details' | 'variants'>): RangedDetails {
  const counts = (d: string) => [...d.matchAll(COUNT)].map((m) => Number(m[0]));
  const shown = counts(cause.details);
  const ranges = shown.map((n) => ({ min: n, max: n }));
  for (const v of cause.variants) {
    const c = counts(v);
    if (c.length !== shown.length) continue;
    c.forEach((n, i) => {
      ranges[i].min = Math.min(ranges[i].min, n);
      ranges[i].max = Math.max(ranges[i].max, n);
    });
  }
  return { details: cause.details, ranges };
}

/** The second half of `causeDetails`: the details in the reader's language, each varying count as its range. */
export function rangedDetails({ details, ranges }: RangedDetails, localise: (details: string) => string): string {
  if (ranges.every((r) => r.min === r.max)) return localise(details);
  let position = 0;
  const marked = details.replace(COUNT, (n) => {
    const at = position++;
    return ranges[at] === undefined || ranges[at].min === ranges[at].max ? n : String(SENTINEL + at);
  });
  return localise(marked).replace(/\b987654\d{3}\b/g, (m) => {
    const r = ranges[Number(m) - SENTINEL];
    return r ? `${r.min}–${r.max}` : m;
  });
}
