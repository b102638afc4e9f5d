/**
 * Every threshold of the audit catalogue, in one place: the crawler judges pages with them, the
 * catalogue's labels and advice quote them, and docs/checks.md is generated from them, so a
 * change here changes all three.
 */
export const THRESHOLDS = {
  titleMax: 60,
  titleMin: 20,
  descriptionMin: 70,
  descriptionMax: 160,
  thinWords: 200,
  maxDepth: 4,
  maxLinks: 100,
  altMax: 100,
  htmlBytes: 2 * 1024 * 1024,
  imageBytes: 500 * 1024,
  slowMs: 800,
  /**
   * A meta refresh to another URL within this many seconds is a redirect (Google reads an
   * instant one as permanent, a delayed one as temporary); a slower one is a page that moves on.
   */
  metaRefreshRedirectSeconds: 5,
  /** Lighthouse mobile performance score (0..100) under which lighthouse_mobile_slow is raised. */
  lighthouseMobileMin: 50,
  /** Below this many words a simhash says little; such pages are left out of near-duplicates. */
  nearDuplicateMinWords: 50,
  /** URL length in characters (Screaming Frog's default: 115). */
  urlMaxChars: 115,
  /** Query parameters in one URL. */
  urlMaxParameters: 3,
  /** h1 length in characters. */
  h1MaxChars: 70,
  /** URLs in one sitemap file (sitemaps.org). */
  sitemapMaxUrls: 50_000,
  /** Bytes of one sitemap file, uncompressed (sitemaps.org). */
  sitemapMaxBytes: 50 * 1024 * 1024,
} as const;
