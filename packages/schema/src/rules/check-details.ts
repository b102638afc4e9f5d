/**
 * The English details of the checks added with the deeper catalogue, built in one place: the
 * crawler stores them, the mock's generated reports use them, and issue-details.ts renders each
 * template in French. Older checks build theirs in the crawler (same templates, translated there).
 */
const list = (items: readonly string[], n = 3) => (items.length > n ? `${items.slice(0, n).join(', ')} (+${items.length - n})` : items.join(', '));
/** A sample of `count` items: `a, b, c (+4)`. */
const counted = (count: number, sample: readonly string[]) => (count > sample.length ? `${sample.join(', ')} (+${count - sample.length})` : sample.join(', '));

/** The empty or generic links a page has past the 5,000 the crawler resolves (none on real pages). */
const anchorsUnread = (n: number) => (n > 0 ? ` (and ${n} more empty or generic link(s) past the 5000 read per page, not resolved)` : '');

/** The scripts of crawler/page/page-language.ts SCRIPTS, as lang_mismatch's details name them. */
const SCRIPT_NAMES: Record<string, string> = {
  latin: 'Latin script',
  han: 'Chinese characters',
  kana: 'Japanese kana',
  hangul: 'Korean Hangul',
  cyrillic: 'Cyrillic script',
  greek: 'Greek script',
  arabic: 'Arabic script',
  hebrew: 'Hebrew script',
  thai: 'Thai script',
  devanagari: 'Devanagari script',
};

export const CHECK_DETAILS = {
  urlUppercase: (path: string) => `uppercase letters in ${path}`,
  urlUnderscores: (path: string) => `underscores in ${path}`,
  urlSpaces: (path: string) => `spaces in ${path}`,
  urlNonAscii: (path: string) => `non-ASCII characters in ${path}`,
  urlLength: (chars: number) => `${chars} characters`,
  urlParameters: (names: readonly string[]) => `${names.length} parameters: ${list(names, 6)}`,
  urlSessionId: (name: string) => `session parameter ${name}`,
  /** A redirect hop (redirect_to_http, redirect_external; temporary_redirect too). */
  redirectHop: (status: number, location: string) => `${status} to ${location}`,
  httpNotRedirected: (url: string, status: number) => `${url} answers ${status} without redirecting to HTTPS`,
  internalLinksToHttp: (urls: readonly string[]) => `${urls.length} internal link(s) to HTTP: ${list(urls)}`,
  soft404: (title: string) => `answers 200 with the title "${title.slice(0, 120)}"`,
  robotsConflict: (directives: readonly string[]) => `conflicting directives: ${directives.join(', ')}`,
  robotsUnknown: (directives: readonly string[]) => `unknown directive(s): ${list(directives, 5)}`,
  xRobotsTag: (value: string) => `X-Robots-Tag: ${value}`,
  metaRobots: (value: string) => `meta robots: ${value}`,
  noindexWithCanonical: (canonical: string) => `noindex, canonical ${canonical}`,
  singleInlink: () => 'a single internal page links here',
  /**
   * internal_nofollow: the page's nofollow internal links, none to a page found indexable; with a
   * page-level nofollow (meta robots or X-Robots-Tag), that directive.
   */
  internalNofollow: (count: number, sample: readonly string[], pageLevel: boolean) =>
    pageLevel ? 'meta robots nofollow on the page' : `${count} nofollow internal link(s): ${counted(count, sample)}`,
  /** internal_nofollow_to_indexable: how many nofollow links lead to indexable pages, and some of those pages. */
  nofollowToIndexable: (count: number, sample: readonly string[], pageLevel: boolean) =>
    pageLevel ? `page-level nofollow on ${count} link(s) to indexable pages: ${counted(count, sample)}` : `${count} nofollow link(s) to indexable pages: ${counted(count, sample)}`,
  canonicalMissing: () => 'no canonical',
  canonicalCrossDomain: (canonical: string) => `canonical ${canonical} is on another host`,
  canonicalToHttp: (canonical: string) => `canonical ${canonical} is HTTP`,
  /** Why a sitemap lists a URL it should not (sitemap_bad_url, sitemap_redirect, sitemap_noindex…). */
  sitemapEntry: (why: string) => `listed in the sitemap: ${why}`,
  /** A meta-refresh redirect with a delay: Google reads it as a temporary redirect. */
  refreshDelayed: (seconds: number, target: string) => `meta refresh after ${seconds} s to ${target}, read as a temporary redirect`,
  notInSitemap: () => 'indexable, not listed in the sitemap',
  /** orphan_page on a page a sitemap lists: whether other orphans link to it, and how many orphans that sitemap lists. */
  orphanListed: (sitemap: string, count: number, linkedFromOrphans: boolean) =>
    `listed in ${sitemap}, ${linkedFromOrphans ? 'linked only from pages no link from the start reaches' : 'no internal link points to it'} (${count} such page(s) in that sitemap)`,
  /** orphan_page on a page no sitemap lists, reached only through orphan pages. */
  orphanLinked: (count: number) => `not in a sitemap, linked only from pages no link from the start reaches (${count} such page(s))`,
  sitemapTooManyUrls: (url: string, count: number) => `${url}: ${count} URLs`,
  sitemapTooManyBytes: (url: string) => `${url}: over 50 MB uncompressed`,
  sitemapInvalid: (url: string, status: number) => `${url} answers ${status} but is not a sitemap document`,
  sitemapForeign: (count: number, example: string) => `${count} URL(s) of another host, e.g. ${example}`,
  descriptionMultiple: (count: number) => `${count} meta descriptions`,
  h1Empty: () => 'empty <h1>',
  h1Length: (chars: number) => `${chars} characters`,
  placeholder: (words: string) => `placeholder text: "${words}"`,
  charsetMissing: () => 'no charset in Content-Type nor <meta charset>',
  anchorsEmpty: (urls: readonly string[], unread = 0) => `${urls.length} link(s) without text: ${list(urls)}${anchorsUnread(unread)}`,
  anchorsGeneric: (links: readonly { text: string; url: string }[], unread = 0) => `${links.length} link(s) with generic text: ${list(links.map((l) => `"${l.text}" → ${l.url}`))}${anchorsUnread(unread)}`,
  hreflangInvalid: (code: string) => `invalid hreflang "${code.slice(0, 40)}"`,
  hreflangDuplicate: (lang: string, urls: readonly string[]) => `hreflang ${lang} → ${urls.length} URLs: ${list(urls)}`,
  /** lang_mismatch: most of the prose is in a script the declared language is not written in. */
  langMismatchScript: (declared: string, percent: number, script: string) => `lang="${declared}" but ${percent}% of the text's letters are ${SCRIPT_NAMES[script] ?? script}`,
  /** lang_mismatch: declared Japanese, Chinese characters without any kana. */
  langMismatchNoKana: (declared: string, han: number) => `lang="${declared}" but the text's ${han} Chinese characters come with no kana`,
  /** lang_mismatch: declared Chinese, with Japanese kana among the characters. */
  langMismatchKana: (declared: string, percent: number) => `lang="${declared}" but ${percent}% of the text's Chinese characters are kana`,
  /** hreflang_missing: the language versions found (language, pages, an example URL), largest first. */
  hreflangMissing: (versions: readonly { lang: string; pages: number; example: string }[]) =>
    `${versions.length} language versions, no hreflang: ${list(versions.map((v) => `${v.lang} (${v.pages} page(s), e.g. ${v.example})`), 6)}`,
  /**
   * A site annotated in part: the language versions no annotation covers (none of their pages has
   * one, none is a target), of all the versions, and the languages whose pages are annotated.
   */
  hreflangPartial: (missing: readonly { lang: string; pages: number; example: string }[], of: number, annotated: readonly string[]) =>
    `${missing.length} of ${of} language versions without hreflang (annotated: ${list(annotated, 6)}): ${list(missing.map((v) => `${v.lang} (${v.pages} page(s), e.g. ${v.example})`), 6)}`,
  /** A title or description with wide (CJK) characters: its characters and its width in half-widths, the thresholds' unit. */
  lengthWide: (chars: number, width: number) => `${chars} characters, ${width} half-widths (a Chinese, Japanese or Korean character counts as two)`,
  headerMissing: (header: string) => `no ${header} header`,
  frameProtectionMissing: () => 'no X-Frame-Options nor CSP frame-ancestors',
  ogImageRelative: (value: string) => `og:image "${value.slice(0, 200)}" is not an absolute URL`,
  twitterCardMissing: () => 'no <meta name="twitter:card">',
  /** A structured data entity and what it lacks (`Product without offers | review | aggregateRating`). */
  schemaIncomplete: (type: string, missing: readonly string[]) => `${type} without ${missing.join(', ')}`,
} as const;
