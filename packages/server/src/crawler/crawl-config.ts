import type { CrawlConfig, CrawlTuning } from './crawl-types.js';

/** Defaults of the nullable campaign fields (schema: timeout 20 s, retries 2, threshold 90). */
export const CRAWL_DEFAULTS = {
  timeoutMs: 20_000,
  retries: 2,
  duplicationThreshold: 90,
  userAgent: 'Mozilla/5.0 (compatible; SiteAuditBot/1.0; +https://siteaudit.dev/bot)',
  concurrency: 8,
  perHostConcurrency: 4,
} as const;

/** Redirects followed from one URL before giving up (the crawl issue's hop cap). */
export const MAX_REDIRECTS = 10;

export const DEFAULT_TUNING: CrawlTuning = {
  retryBaseDelayMs: 500,
  maxWaitMs: 30_000,
  /** HTML read per page, decompressed (docs/decisions/page-content.md): pages beyond it are read up to it. */
  maxHtmlBytes: 10 * 1024 * 1024,
  batchSize: 200,
  maxConsecutiveProtection: 20,
  maxExternalChecks: 10_000,
  maxResourceChecks: 20_000,
};

/** Campaign-shaped input: the schema's write fields, nullable where the campaign allows it. */
export interface CampaignCrawlInput {
  start_url: string;
  max_depth: number;
  max_urls: number;
  include_patterns?: string | null;
  exclude_patterns?: string | null;
  issue_exclusion_patterns?: string | null;
  /** Seconds, as the campaign stores it. */
  timeout?: number | null;
  retries?: number | null;
  duplication_threshold?: number | null;
  check_external_links?: boolean;
  check_ai_reachability?: boolean;
  javascript_rendering?: boolean;
  check_accessibility?: boolean;
  check_accessibility_rendered?: boolean;
  http_user?: string | null;
  http_password?: string | null;
}

/**
 * Builds a complete CrawlConfig from campaign fields, applying the documented defaults.
 * @example resolveCrawlConfig(campaign, { allowPrivateAddresses: server.network.allowPrivateAddresses })
 */
export function resolveCrawlConfig(campaign: CampaignCrawlInput, overrides: Partial<CrawlConfig> = {}): CrawlConfig {
  return {
    startUrl: campaign.start_url,
    maxDepth: campaign.max_depth,
    maxUrls: campaign.max_urls,
    includePatterns: campaign.include_patterns ?? null,
    excludePatterns: campaign.exclude_patterns ?? null,
    issueExclusionPatterns: campaign.issue_exclusion_patterns ?? null,
    timeoutMs: campaign.timeout != null ? campaign.timeout * 1000 : CRAWL_DEFAULTS.timeoutMs,
    retries: campaign.retries ?? CRAWL_DEFAULTS.retries,
    duplicationThreshold: campaign.duplication_threshold ?? CRAWL_DEFAULTS.duplicationThreshold,
    checkExternalLinks: campaign.check_external_links ?? false,
    checkAiReachability: campaign.check_ai_reachability ?? false,
    javascriptRendering: campaign.javascript_rendering ?? false,
    checkAccessibility: campaign.check_accessibility ?? false,
    checkAccessibilityRendered: campaign.check_accessibility_rendered ?? false,
    httpAuth: campaign.http_user ? { user: campaign.http_user, password: campaign.http_password ?? '' } : null,
    userAgent: CRAWL_DEFAULTS.userAgent,
    concurrency: CRAWL_DEFAULTS.concurrency,
    perHostConcurrency: CRAWL_DEFAULTS.perHostConcurrency,
    allowPrivateAddresses: false,
    ...overrides,
  };
}

/**
 * The robots.txt product token of a User-Agent header (RFC 9309 §2.2.1): the name in
 * `(compatible; Name/1.0)` when present, else the first product's name. Lower-cased, since
 * group matching is case-insensitive.
 */
export function robotsToken(userAgent: string): string {
  const compatible = /compatible;\s*([A-Za-z_-]+)/.exec(userAgent);
  if (compatible) return compatible[1].toLowerCase();
  const first = /^\s*([A-Za-z_-]+)/.exec(userAgent);
  return (first?.[1] ?? '*').toLowerCase();
}
