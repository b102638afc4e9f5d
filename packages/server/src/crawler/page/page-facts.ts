/**
 * What one page is, as its checks see it: the input (response and HTML facts), the facts the
 * checks share once resolved (page-audit.ts resolves them, page-checks.ts reads them), their
 * findings, and the summary the crawl keeps. Types only, so the resolving and the checking
 * import them from here rather than from each other.
 */
import type { CheckName } from '../checks.js';
import type { DiscoveredVia } from '../crawl-types.js';
import type { Headers } from '../fetch/http-client.js';
import type { HtmlFacts } from './html-analyser.js';
import type { HtmlResource } from './html-resources.js';

export interface Finding {
  name: CheckName;
  details: string;
}

export interface PageInput {
  /** Normalised URL the HTML came from. */
  url: string;
  status: number;
  headers: Headers;
  ttfbMs: number;
  /** Click depth from the start; null when no click path reaches the page (sitemap only). */
  depth: number | null;
  discoveredVia: DiscoveredVia;
  html: HtmlFacts;
  /** Decompressed HTML size in bytes. */
  sizeBytes: number;
  /** The body was longer than the crawl reads (maxHtmlBytes). */
  truncated?: boolean;
  isInternal: (url: string) => boolean;
  /** Our robots.txt product token, to read `X-Robots-Tag: token: noindex`. */
  robotsToken: string;
}

/** What the crawl keeps from a page's HTML, already resolved and normalised. */
export interface PageSummary {
  title: string | null;
  metaDescription: string | null;
  h1: string | null;
  wordCount: number;
  /** The canonical the crawl follows: the first valid one (HTML, else the Link header). */
  canonical: string | null;
  /** The canonical as declared, resolved against the page when it is a URL at all, valid or not. */
  declaredCanonical: string | null;
  noindex: boolean;
  nofollow: boolean;
  indexable: boolean;
  /** `text`: the first link's text to that URL (html-analyser.ts `linkTexts`), '' when none was read. */
  internalLinks: { url: string; nofollow: boolean; text: string }[];
  externalLinks: string[];
  /** What the page loads (stylesheets, scripts, images…), resolved, once per URL. */
  resources: HtmlResource[];
  imagesWithoutAlt: number;
  hreflang: { lang: string; url: string }[];
  /**
   * The page's language version (page-language.ts `pageLanguage`): declared by `<html lang>`,
   * Content-Language or its own hreflang entry (`fromUrl` false), else named by its URL (`fromUrl`
   * true); null when neither says.
   */
  language: { tag: string; fromUrl: boolean } | null;
  metaRefreshUrl: string | null;
  /** `<link rel="next|prev">` targets, resolved: followed, and reported when broken. */
  paginationLinks: { rel: 'next' | 'prev'; url: string }[];
  /**
   * The page is a meta-refresh redirect (a refresh to another URL within
   * THRESHOLDS.metaRefreshRedirectSeconds): followed as a redirect, not audited as content.
   */
  refreshRedirect: boolean;
  metaRobots: string | null;
  xRobotsTag: string | null;
}

/** A declared canonical: as the page shows it, the crawlable URL it names, or why it names none. */
export interface CanonicalReading {
  raw: string;
  /** Resolved against the page when it parses as a URL (any scheme); null otherwise. */
  shown: string | null;
  /** The normalised http(s) URL, or null when the canonical is invalid. */
  url: string | null;
  /** Why it is invalid; null when valid. */
  problem: string | null;
}

export interface ResolvedLink {
  url: string;
  internal: boolean;
}

/** What the checks share about one page, resolved once. */
export interface PageFacts {
  input: PageInput;
  /** Where relative URLs resolve: <base href>, else the page's URL. */
  base: string;
  /** Internal link targets → whether a link to it on the page is nofollow (any of them: docs/decisions/page-content.md). */
  internal: Map<string, boolean>;
  external: Set<string>;
  /** A link's href resolved against <base> and normalised, and whether it is internal (null: not crawlable); each href once. */
  resolveLink: (href: string) => ResolvedLink | null;
  xRobotsTag: string | null;
  noindex: boolean;
  nofollow: boolean;
  /** Valid canonicals of the head, resolved and deduplicated, and of the Link header. */
  htmlCanonicals: string[];
  headerCanonicals: string[];
  /** Every declared canonical (head, then header), valid or not. */
  canonicalReadings: CanonicalReading[];
  metaRefreshUrl: string | null;
  /** Seconds before the meta refresh (0 when none is written or there is no refresh). */
  metaRefreshDelay: number;
  /** The page's language versions, from its head (resolved against <base>) and its Link header (against the page), lower-cased codes. */
  hreflang: { lang: string; url: string }[];
  /** Every hreflang code the page declares, as written (head, then Link header), resolvable URL or not. */
  hreflangCodes: string[];
  /** The language the page declares (`<html lang>`, else Content-Language, else its own hreflang entry), canonical and lower-cased. */
  declaredLanguage: string | null;
  /** What the page loads, resolved against <base>, once per URL. */
  resources: HtmlResource[];
}
