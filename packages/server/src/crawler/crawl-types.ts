import type { CrawledPage, IssueOccurrence, PageResource } from '@siteaudit/schema';

export type Severity = 'error' | 'warning' | 'info';

/**
 * What one crawl does. Built from a campaign with `resolveCrawlConfig` (defaults for the
 * nullable campaign fields); every field is required here so the crawler never guesses.
 */
export interface CrawlConfig {
  /** First URL fetched; its host (with or without `www.`) defines what is internal. */
  startUrl: string;
  /** Click depth limit; the start URL is depth 0. */
  maxDepth: number;
  /** Budget: at most this many internal URLs are recorded (fetched, redirected or blocked). */
  maxUrls: number;
  /** Pattern lists, syntax in @siteaudit/schema url-patterns.ts; null or empty for none. */
  includePatterns: string | null;
  excludePatterns: string | null;
  /** Issues whose URL matches are dropped (not stored, not counted, not scored). */
  issueExclusionPatterns: string | null;
  /** Per request, connection to last byte. */
  timeoutMs: number;
  /** Extra attempts on 5xx, 429 and timeouts/connection failures, with exponential backoff. */
  retries: number;
  /** Near-duplicate similarity in percent (0..100): pages at or above it are near-duplicates. */
  duplicationThreshold: number;
  checkExternalLinks: boolean;
  checkAiReachability: boolean;
  /** Sent to internal hosts only, never to external ones or across a redirect to another host. */
  httpAuth: { user: string; password: string } | null;
  /** Full User-Agent header; the robots.txt product token is derived from it (robotsToken). */
  userAgent: string;
  /** Requests in flight at once, all hosts together. */
  concurrency: number;
  /** Requests in flight at once on one host (1 whenever robots.txt sets a Crawl-delay). */
  perHostConcurrency: number;
  /** Lets the crawl reach loopback and private networks (development, tests). */
  allowPrivateAddresses: boolean;
  /**
   * Analyse each internal HTML page as rendered by headless Chromium (scripts run), not as
   * fetched; needs `CrawlOptions.renderer`. Default false.
   */
  javascriptRendering?: boolean;
  /** axe-core rules that need no layout, on each internal HTML page; needs a renderer. Default false. */
  checkAccessibility?: boolean;
  /** The full axe-core rule set on each page rendered in Chromium; needs a renderer. Default false. */
  checkAccessibilityRendered?: boolean;
}

/** How a URL entered the crawl. */
export type DiscoveredVia = 'start' | 'link' | 'redirect' | 'canonical' | 'hreflang' | 'sitemap' | 'external';

/** One redirect response on the way to a page. */
export interface RedirectHop {
  url: string;
  status_code: number;
  location: string | null;
}

/**
 * One recorded URL: the CrawledPage fields of the schema, plus what the analysis found. A
 * redirect records one page per hop (status 3xx and `redirect_url`); a URL refused by robots.txt
 * is recorded with `error_type: 'blocked_by_robots'` and no status.
 */
export interface PageRecord extends CrawledPage {
  discovered_via: DiscoveredVia;
  /** Location of this redirect, normalised; null unless status is 3xx. */
  redirect_url: string | null;
  /** Hops followed from this URL (this one first) when it redirects; empty otherwise. */
  redirect_chain: RedirectHop[];
  /** A firewall or bot challenge answered instead of the page (its issues are not reported). */
  protection: boolean;
  /** Indexable: 2xx HTML, no noindex, canonical absent or pointing to itself. */
  indexable: boolean;
  meta_robots: string | null;
  x_robots_tag: string | null;
  lang: string | null;
  viewport: string | null;
  hreflang: { lang: string; href: string }[];
  og: { title: string | null; description: string | null; image: string | null };
  /** The parsed JSON-LD blocks that parse (size-capped); invalid ones are reported as issues. */
  json_ld: unknown[];
  headings: { level: number; text: string }[];
  /** Hex SHA-1 prefix of the extracted main text; null without text. */
  content_hash: string | null;
  /** 64-bit simhash of the main text, 16 hex digits; null without text. */
  simhash: string | null;
  /** The HTML was longer than the read cap (5 MB) and was analysed up to the cap. */
  body_truncated: boolean;
  content_encoding: string | null;
  /** Ids of the resources the page loads (ResourceRecord.id), for the by-URL read; absent when none. */
  resource_ids?: number[];
  /** Its internal links (not to itself), each target once with the first link's text: the inlinks read. Absent when none. */
  links?: { url: string; text: string; nofollow: boolean }[];
}

/** One resource pages load, checked once per crawl (site/resource-checks.ts): not a page, never counted as one. */
export interface ResourceRecord extends PageResource {
  /** Per crawl, from 0 in the order resources were found. */
  id: number;
  is_internal: boolean;
}

/** One issue on one URL, as the schema's IssueOccurrence. */
export type IssueRecord = IssueOccurrence & { severity: Severity };

/** Where results go, in batches, as the crawl runs. Calls are awaited: a slow sink slows the crawl. */
export interface CrawlSink {
  pages(batch: PageRecord[]): Promise<void>;
  issues(batch: IssueRecord[]): Promise<void>;
  /**
   * Resources once checked, before any issue about them reaches `issues`. Optional: a sink
   * without it (written before resources were checked) still gets their issues.
   */
  resources?(batch: ResourceRecord[]): Promise<void>;
  /**
   * Optional: several batches, in the order given, written together (one transaction), as if
   * each were given to its method in turn. The crawl threads hand over the batches that wait on
   * the store this way (crawl-threads/pool.ts); the crawler itself never calls it.
   */
  writeMany?(writes: SinkBatch[]): Promise<void>;
  progress(p: { crawled: number; discovered: number }): void;
}

/** One batch of the sink's, with the method it goes to. */
export type SinkBatch = { method: 'pages'; batch: PageRecord[] } | { method: 'issues'; batch: IssueRecord[] } | { method: 'resources'; batch: ResourceRecord[] };

/** Why a crawl could not proceed. */
export type BlockedReason =
  /** The start URL answered a firewall or bot challenge page. */
  | 'firewall'
  /** robots.txt disallows the start URL for our user agent. */
  | 'robots_disallow'
  /** robots.txt answered 5xx or could not be fetched: RFC 9309 says disallow everything. */
  | 'robots_unreachable'
  /** The start URL's host resolves to a non-public address (network guard). */
  | 'address_refused'
  /** The start URL could not be reached at all (DNS, connection, timeout). */
  | 'unreachable';

export interface CrawlOutcome {
  /** Internal URLs recorded (pages emitted with is_internal true). */
  crawled: number;
  /** Distinct internal URLs known in scope (queued, recorded or left out by the budget). */
  discovered: number;
  /** The max_urls budget stopped the crawl while in-scope URLs were still waiting. */
  truncated: boolean;
  blocked: boolean;
  blockedReason: BlockedReason | null;
  /** Protection pages met (internal pages and checked external links). */
  protectionOccurrences: number;
  /** Issues emitted to the sink, by severity (after issue exclusion). */
  issueCounts: { error: number; warning: number; info: number };
  /** Technique health score 0..100 (docs/health-score.md); null without an internal 2xx page. */
  healthScore: number | null;
  /** The same score unrounded, kept so post-processing (PageSpeed) can adjust it without rounding twice. */
  healthScoreExact: number | null;
  /** True when the signal stopped the crawl early. */
  aborted: boolean;
  /**
   * Set when the site could not be reached at all (blockedReason `unreachable` or
   * `address_refused`): the fetch error's type and the library's message.
   */
  unreachable?: { type: string; message: string } | null;
}


export interface CrawlTuning {
  /** First retry delay; doubles each attempt, with jitter. */
  retryBaseDelayMs: number;
  /** Longest Retry-After (429/503) or Crawl-delay we wait for; longer ones are capped. */
  maxWaitMs: number;
  /** HTML read cap, in bytes after decompression. */
  maxHtmlBytes: number;
  /** Batch size of sink calls. */
  batchSize: number;
  /** The crawl stops as blocked (firewall) after this many protection pages in a row. */
  maxConsecutiveProtection: number;
  /** Distinct external links checked at most (with checkExternalLinks). */
  maxExternalChecks: number;
  /**
   * Distinct resources (stylesheets, scripts, images…, internal and third-party) requested at
   * most; past it, the crawl reports resource_budget_reached once (docs/decisions/resources.md).
   */
  maxResourceChecks: number;
}

/** A page as the crawler fetched it, handed to the renderer so the browser does not fetch it again. */
export interface FetchedPage {
  url: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Decoded HTML (up to the read cap). */
  html: string;
}

/** Which axe-core rules run: none, those that need no layout, or the full set. */
export type AccessibilityRules = 'none' | 'static' | 'full';

/** One axe-core rule violated on one page. */
export interface AccessibilityFinding {
  /** axe rule id, e.g. `image-alt`. */
  rule: string;
  impact: 'critical' | 'serious' | 'moderate' | 'minor';
  /** The rule's help text, e.g. "Images must have alternative text". */
  help: string;
  /** CSS selectors of the offending elements (capped). */
  targets: string[];
  /** Elements in violation (may exceed `targets.length`). */
  nodes: number;
}

export interface RenderedPage {
  /** The serialised DOM after scripts ran (`page.content()`). */
  html: string;
  /** Findings of the rules asked for; null when none were asked. */
  accessibility: AccessibilityFinding[] | null;
}

/** Thrown by a renderer; `code` is short and stable (timeout, crashed, navigation, …). */
export class RenderError extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
    this.name = 'RenderError';
  }
}

/** What the crawler needs from a browser. Implemented with playwright-core in src/rendering. */
export interface PageRenderer {
  /** Loads the fetched page in Chromium with scripts on; runs the axe rules asked for on the result. */
  render(page: FetchedPage, options: { accessibility: AccessibilityRules; signal?: AbortSignal }): Promise<RenderedPage>;
  /** Runs the layout-free axe rules on the fetched HTML as it is, scripts off. */
  auditHtml(page: FetchedPage, options?: { signal?: AbortSignal }): Promise<AccessibilityFinding[]>;
}
