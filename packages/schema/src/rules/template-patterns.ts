/**
 * Template-level findings (docs/checks.md, "Scope"): a check that fires on most of a site's HTML
 * pages with the same details is one decision of the site's template (the same missing tag, the
 * same header image, the same canonical), not hundreds of separate problems. The issue summary
 * says so per check (`template`), beside the occurrences, which stay readable page by page.
 *
 * Same details means same cause: the crawler's details name what fired (`no meta description`,
 * `no lang on <html>`, `h2 followed by h4`, `1 image(s): /images/prev.png`), so pages sharing
 * them share the cause. A check whose details differ page by page (`115 words`) is a pattern only
 * when one details value alone covers more than half of the pages.
 *
 * The server and the mock both build the summary with these.
 */

/** Below this many HTML pages a site has no template to speak of. */
export const TEMPLATE_MIN_PAGES = 4;

export interface TemplatePattern {
  scope: 'site';
  /** HTML pages on which the check fires with these details. */
  pages: number;
  /** `pages` over the crawl's HTML pages (internal, answering 2xx), 0..1. */
  share: number;
  details: string;
  /** A few of those pages' URLs. */
  examples: string[];
}

/**
 * The template pattern of one check: its most common details value, when that value alone is on
 * more than half of the `htmlPages` (and the site has TEMPLATE_MIN_PAGES of them); else null.
 */
export function templatePattern(htmlPages: number, top: { details: string; pages: number } | null, examples: readonly string[]): TemplatePattern | null {
  if (!top || htmlPages < TEMPLATE_MIN_PAGES || top.pages * 2 <= htmlPages) return null;
  const pages = Math.min(top.pages, htmlPages);
  return { scope: 'site', pages, share: Math.round((pages / htmlPages) * 1000) / 1000, details: top.details, examples: examples.slice(0, 3) };
}

/** True when a check firing on `pages` of `htmlPages` can hold a template pattern (worth reading its details). */
export function mayBeTemplate(htmlPages: number, pages: number): boolean {
  return htmlPages >= TEMPLATE_MIN_PAGES && pages * 2 > htmlPages;
}
