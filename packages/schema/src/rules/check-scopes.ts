/**
 * What each check judges and counts (docs/checks.md, "Scope"): its scope (one page, a link or
 * resource of a page, a group of pages, the site), what makes one finding, and the limits the
 * crawler reads it within, each reported when reached. Where a check fires on most pages of a
 * site for one cause, the issue summary reads it as one template decision
 * (template-patterns.ts); `frequent` says why a check may rightly fire on most pages of a
 * well-made site, as the real-site corpus found (packages/server/test/crawler/real-sites.test.ts).
 */
import { THRESHOLDS as T } from './check-thresholds.js';
import { CHECKS, type CheckName } from './issue-catalogue.js';

export type CheckScope = 'page' | 'link' | 'resource' | 'group' | 'site';

export interface CheckScopeRow {
  scope: CheckScope;
  /** What one finding (one occurrence) is. */
  unit: string;
  /** A per-page or per-crawl limit, and how it is reported when reached; absent when none. */
  cap?: string;
  /** Why the check may fire on most pages of a site, and what the crawler makes of that. */
  frequent?: string;
}

const PAGE: CheckScopeRow = { scope: 'page', unit: 'one per page' };
const SITE: CheckScopeRow = { scope: 'site', unit: 'one for the site, on the file or URL concerned' };
const LINK: CheckScopeRow = { scope: 'link', unit: 'one per page and link target (a page linking twice to one target: once)' };
const RESOURCE: CheckScopeRow = {
  scope: 'resource',
  unit: 'one per page and resource it loads',
  cap: `resources checked up to the crawl's budget (20,000 by default); past it, resource_budget_reached says so`,
};
const HOP: CheckScopeRow = { scope: 'page', unit: 'one per redirecting URL (the first URL of the chain for chains and loops)' };
const GROUP: CheckScopeRow = { scope: 'group', unit: 'one per page of each group of pages sharing the value; the details name the group size and another page' };
const HTML_CAP = `the page is read up to the crawl's HTML limit (10 MB decompressed); html_too_large says when a page was cut`;

const TEMPLATE = 'a site-wide template choice: the issue summary reads it as one decision (template)';

/** Checks whose scope, unit or cap differ from a plain page check's (the others: PAGE, or SITE for `scope: 'site'`). */
const ROWS: Partial<Record<CheckName, CheckScopeRow>> = {
  broken_internal_link: LINK,
  broken_external_link: { ...LINK, cap: 'external URLs checked up to the crawl\'s budget (10,000 by default), each once' },
  link_to_redirect: { ...LINK, unit: 'one per page and link target answering a redirect (3xx or a meta-refresh stub)' },
  redirect_loop: HOP,
  redirect_chain: HOP,
  temporary_redirect: { ...HOP, unit: 'one per 302/307 hop, and per meta refresh delayed by 1 to 5 s' },
  meta_refresh: { scope: 'page', unit: 'one per page refreshing to another URL' },
  redirect_to_http: HOP,
  redirect_external: HOP,
  broken_stylesheet: RESOURCE,
  broken_script: RESOURCE,
  broken_resource: RESOURCE,
  broken_image: RESOURCE,
  resource_redirect: RESOURCE,
  resource_blocked_by_robots: RESOURCE,
  image_too_large: { scope: 'resource', unit: 'one per image, on the image\'s URL; the details name a page using it', cap: RESOURCE.cap },
  http_page: { ...PAGE, frequent: `${TEMPLATE}; a site served over HTTP is an error on every page until it moves to HTTPS` },
  not_compressed: { ...PAGE, frequent: `${TEMPLATE} (the server's configuration)` },
  orphan_page: {
    scope: 'page',
    unit: 'one per page no click path reaches; the details count such pages per sitemap',
    frequent: 'on a translated site whose language versions only the sitemap lists, most pages are rightly orphans: link the versions to each other (hreflang_missing names them)',
  },
  deep_page: { ...PAGE, unit: 'one per page reached by clicks deeper than the threshold (sitemap-only pages have no click depth)' },
  canonical_missing: { ...PAGE, frequent: `${TEMPLATE}: info, the same pages are often published under several URLs` },
  canonical_invalid: { ...PAGE, frequent: `${TEMPLATE} (a build writing file:// canonicals, as Debian's Python documentation does)` },
  canonical_cross_domain: {
    ...PAGE,
    unit: 'one per page; a sitemap entry with such a canonical is not also sitemap_non_canonical (one cause, one finding)',
  },
  sitemap_non_canonical: { scope: 'page', unit: 'one per sitemap URL whose canonical is another page of the site (a canonical on another host: canonical_cross_domain only)' },
  sitemap_bad_url: { scope: 'page', unit: 'one per sitemap URL', cap: '50 sitemap files, URLs up to the crawl\'s budget' },
  sitemap_redirect: { scope: 'page', unit: 'one per sitemap URL', cap: '50 sitemap files, URLs up to the crawl\'s budget' },
  sitemap_noindex: { scope: 'page', unit: 'one per sitemap URL', cap: '50 sitemap files, URLs up to the crawl\'s budget' },
  sitemap_blocked: { scope: 'page', unit: 'one per sitemap URL', cap: '50 sitemap files, URLs up to the crawl\'s budget' },
  not_in_sitemap: { ...PAGE, unit: 'one per indexable page, only when every sitemap was read to the end' },
  title_duplicate: { ...GROUP, unit: `${GROUP.unit}; compared ignoring case and spacing, and the details say when the values differ only by case` },
  description_duplicate: { ...GROUP, unit: `${GROUP.unit}; compared ignoring case and spacing, and the details say when the values differ only by case` },
  duplicate_content: { ...GROUP, unit: 'one per page of each group of pages with the same main text (meta-refresh stubs aside)' },
  near_duplicate_content: {
    scope: 'group',
    unit: 'one per page similar to at least one other; the details count them',
    frequent: 'API documentation repeats a trait\'s documentation on every type implementing it (rustdoc\'s iterator types are mostly Iterator\'s methods): near-duplicates as a search engine reads them, kept per page',
    cap: 'all pairs up to 5,000 candidate pages; above, an indexed search that finds the same pairs and says "at least" in a large cluster',
  },
  title_too_long: { ...PAGE, unit: 'one per page; lengths in half-widths (a Chinese, Japanese or Korean character counts as two)' },
  title_too_short: { ...PAGE, unit: 'one per page; lengths in half-widths (a Chinese, Japanese or Korean character counts as two)' },
  description_too_long: { ...PAGE, unit: 'one per page that asks to be indexed (no noindex, no canonical to another URL); lengths in half-widths (a Chinese, Japanese or Korean character counts as two)' },
  description_too_short: {
    ...PAGE,
    unit: 'one per page that asks to be indexed (no noindex, no canonical to another URL); lengths in half-widths (a Chinese, Japanese or Korean character counts as two)',
    frequent: `${TEMPLATE}: info, API documentation generators write the item's one-line summary as the description (rustdoc)`,
  },
  description_missing: { ...PAGE, unit: 'one per page that asks to be indexed (no noindex, no canonical to another URL)', frequent: `${TEMPLATE}: none of the corpus's documentation sites writes one` },
  title_multiple: { ...PAGE, cap: '20 <title> elements read per page' },
  description_multiple: { ...PAGE, cap: '20 meta descriptions read per page' },
  h1_missing: { ...PAGE, unit: 'one per page that asks to be indexed (no noindex, no canonical to another URL)', frequent: `${TEMPLATE}: DocBook titles sections with <h2>` },
  h1_multiple: { ...PAGE, unit: 'one per page; a site-title <h1> in the template (navigation, or a header or footer outside <main>) is not counted when the page has its own', cap: '50 h1 read per page' },
  heading_skip: { ...PAGE, unit: 'one per page: the first skip of the main content\'s outline (navigation and sidebars left out)', cap: '200 headings of the main content' },
  thin_content: { ...PAGE, unit: 'one per page that asks to be indexed (no noindex, no canonical to another URL): words of the main content\'s prose (code samples aside), counted with Intl.Segmenter in Chinese, Japanese, Thai, Lao, Khmer and Myanmar text', cap: HTML_CAP },
  placeholder_text: { ...PAGE, unit: 'one per page: lorem ipsum in its prose (code samples aside)', cap: 'the first 2,000 characters of the page\'s text' },
  lang_missing: { ...PAGE, frequent: `${TEMPLATE} (the <html> element of the template)` },
  viewport_missing: { ...PAGE, frequent: `${TEMPLATE} (the <head> of the template)` },
  duplicate_id: { ...PAGE, cap: '20 ids named per page, 50,000 distinct ids tracked', frequent: `${TEMPLATE} (a theme writing one id twice)` },
  html_too_large: { ...PAGE, cap: HTML_CAP },
  image_missing_dimensions: { ...PAGE, unit: 'one per page; the details count the images and name three', frequent: `${TEMPLATE} (the logo or navigation arrows of every page)` },
  image_missing_alt: { ...PAGE, unit: 'one per page; the details count the images and name three', cap: '5,000 images read per page' },
  image_alt_too_long: { ...PAGE, unit: 'one per page; the details count the images and name three', cap: '5,000 images read per page' },
  too_many_links: { ...PAGE, frequent: 'info: index and reference pages link widely by design (the Debian Reference\'s chapters link every package they name)' },
  internal_nofollow: { ...PAGE, unit: 'one per page: its nofollow internal links, none to an indexable page' },
  internal_nofollow_to_indexable: { ...PAGE, unit: 'one per page: its nofollow links to pages found indexable once crawled' },
  anchor_text_empty: { ...PAGE, unit: 'one per page; the details count the links and name three', cap: '5,000 empty or generic links resolved per page; the details count the rest' },
  anchor_text_generic: {
    ...PAGE,
    unit: 'one per page; the details count the links and name three',
    cap: '5,000 empty or generic links resolved per page; the details count the rest',
    frequent: `${TEMPLATE}: info, a template's "Read more" after each summary (rustdoc's trait methods)`,
  },
  url_underscores: {
    ...PAGE,
    frequent: 'info: a naming scheme of the site (SQLite names its pages lang_createtable.html; rustdoc names folders after snake_case modules, btree_map/): one decision, kept per page so each URL can be fixed',
  },
  url_uppercase: {
    ...PAGE,
    unit: 'one per page; a BCP 47 locale segment (/en-US/) is not an uppercase URL',
    frequent: 'info: a naming scheme of the site (rustdoc names pages after case-sensitive items: struct.Zip.html and fn.zip.html are two pages): one decision, kept per page so each URL can be judged',
  },
  hreflang_no_return: { scope: 'link', unit: 'one per hreflang annotation (HTML <link> or sitemap xhtml:link) whose target does not annotate back', cap: '300 hreflang annotations read per page' },
  hreflang_bad_target: { scope: 'link', unit: 'one per hreflang annotation to a page not answering 200 or not canonical', cap: '300 hreflang annotations read per page' },
  hreflang_no_x_default: { ...PAGE, cap: '300 hreflang annotations read per page' },
  hreflang_no_self: { ...PAGE, cap: '300 hreflang annotations read per page' },
  hreflang_invalid_code: { ...PAGE, cap: '300 hreflang annotations read per page' },
  hreflang_duplicate_lang: { ...PAGE, cap: '300 hreflang annotations read per page' },
  hreflang_missing: {
    scope: 'site',
    unit: `one for the site, on the start URL, when its HTML pages fall into language versions of two primary languages or more (${'declared by <html lang>, Content-Language or the page\'s own hreflang entry, else named by the URL: /fr/, /pt-BR/, index.ja.html, de.example.com, counted when URLs name two languages or more'}), each of two pages or more, and no page or sitemap has any hreflang (the details name each version, its page count and a page), or some have but a language has no page carrying an annotation or targeted by one while another has (the details name those versions and the annotated languages)`,
  },
  lang_mismatch: {
    scope: 'page',
    unit: `one per page whose prose (${'main content, code samples aside'}) is surely not in its declared language, judged by script only: 200 letters or more, 70 % or more in scripts the language is not written in with under 10 % in its own, or kana and Han telling Japanese from Chinese; languages sharing a script (English and French) are never judged`,
  },
  jsonld_invalid: { ...PAGE, cap: '50 JSON-LD blocks and 256 KB of JSON-LD read per page' },
  og_missing: { ...PAGE, frequent: `${TEMPLATE} (the <head> of the template)` },
  slow_response: { ...PAGE, unit: `one per page answering its first byte after ${T.slowMs} ms` },
};

/**
 * The scope row of every check of the catalogue; a finding outside it (an accessibility rule,
 * `a11y_*`, named after axe) is one per page, as its basis is (`checkBasis`). As first written it
 * read the catalogue's entry unguarded: a crawl with accessibility findings failed its issue
 * summary and every export of it.
 */
export function checkScope(name: CheckName | (string & {})): CheckScopeRow {
  const def = (CHECKS as Record<string, { basis?: 'site' | 'url' }>)[name];
  return ROWS[name as CheckName] ?? (def?.basis === 'site' ? SITE : PAGE);
}
