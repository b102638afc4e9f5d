/**
 * The page-level checks, by topic, on a page's resolved facts (page-audit.ts `pageFacts`). Each
 * topic adds its findings in the catalogue's order, so a page's issues always come out the same.
 */
import { THRESHOLDS, type CheckName } from './checks.js';
import { headerValue } from './http.js';
import type { HtmlResource } from './html-resources.js';
import { robotsDirectives, type CanonicalReading, type Finding, type PageInput } from './page-audit.js';
import { isAbsoluteUrl, normaliseUrl } from './url.js';

/** What the checks share about one page, resolved once. */
export interface PageFacts {
  input: PageInput;
  /** Where relative URLs resolve: <base href>, else the page's URL. */
  base: string;
  /** Internal link targets → whether every link to it is nofollow. */
  internal: Map<string, boolean>;
  external: Set<string>;
  xRobotsTag: string | null;
  noindex: boolean;
  nofollow: boolean;
  /** Valid canonicals of the head, resolved and deduplicated, and of the Link header. */
  htmlCanonicals: string[];
  headerCanonicals: string[];
  /** Every declared canonical (head, then header), valid or not. */
  canonicalReadings: CanonicalReading[];
  metaRefreshUrl: string | null;
  hreflang: { lang: string; url: string }[];
  /** What the page loads, resolved against <base>, once per URL. */
  resources: HtmlResource[];
}

type Add = (name: CheckName, details: string) => void;

function chars(text: string): number {
  return [...text].length;
}

function sample(list: readonly string[], n = 3): string {
  const shown = list.slice(0, n).join(', ');
  return list.length > n ? `${shown} (+${list.length - n})` : shown;
}

function isValidLang(tag: string): boolean {
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}

/** Every page-level finding of a page. */
export function pageChecks(facts: PageFacts): Finding[] {
  const findings: Finding[] = [];
  const add: Add = (name, details) => findings.push({ name, details });
  for (const topic of [transport, indexability, canonicals, titles, content, linksAndImages, international, performanceAndSecurity, structuredData]) {
    topic(facts, add);
  }
  return findings;
}

/** HTTP and redirects. */
function transport({ input, metaRefreshUrl, resources }: PageFacts, add: Add): void {
  const { url, headers } = input;
  const protocol = new URL(url).protocol;
  if (protocol === 'http:') add('http_page', 'served over plain HTTP');
  if (protocol === 'https:') {
    const insecure = resources.filter((r) => r.url.startsWith('http:'));
    if (insecure.length) add('mixed_content', mixedContent(insecure));
    if (!headerValue(headers, 'strict-transport-security')) add('hsts_missing', 'no Strict-Transport-Security header');
  }
  if (metaRefreshUrl && metaRefreshUrl !== url) add('meta_refresh', `meta refresh to ${metaRefreshUrl}`);
}

/**
 * Which kinds of resource load over HTTP: browsers block scripts, stylesheets, frames and objects
 * outright (the page breaks) and upgrade or warn on images and media, so the details say which.
 */
function mixedContent(insecure: HtmlResource[]): string {
  const counts = new Map<string, number>();
  for (const r of insecure) counts.set(r.type, (counts.get(r.type) ?? 0) + 1);
  const kinds = Array.from(counts, ([type, n]) => `${n} ${type}`).join(', ');
  return `${insecure.length} HTTP resource(s) (${kinds}): ${sample(insecure.map((r) => `${r.type} ${r.url}`))}`;
}

function indexability({ input, noindex, xRobotsTag, internal, external, metaRefreshUrl }: PageFacts, add: Add): void {
  const { html } = input;
  if (noindex) {
    const fromMeta = robotsDirectives(html.metaRobots, null, input.robotsToken);
    add('noindex', fromMeta.has('noindex') || fromMeta.has('none') ? `meta robots: ${html.metaRobots.join(', ')}` : `X-Robots-Tag: ${xRobotsTag}`);
  }
  if (html.metaRobotsInBody) add('meta_robots_in_body', 'meta robots found inside <body>, where search engines may ignore it');
  // Click depth means something only for pages reached by clicks (links, and their redirects).
  const clicked = input.discoveredVia === 'link' || input.discoveredVia === 'redirect';
  if (input.depth > THRESHOLDS.maxDepth && clicked) add('deep_page', `click depth ${input.depth}`);
  if (internal.size + external.size === 0 && metaRefreshUrl === null) add('dead_end_page', 'no outgoing links');
}

function canonicals({ input, htmlCanonicals, headerCanonicals, canonicalReadings }: PageFacts, add: Add): void {
  const invalid = canonicalReadings.find((r) => r.problem !== null);
  if (invalid) add('canonical_invalid', `canonical ignored: ${invalid.problem}`);
  const inBody = input.html.bodyCanonicals;
  if (inBody.length) add('canonical_in_body', `<link rel="canonical" href="${inBody[0].slice(0, 200)}"> in <body>, where search engines ignore it`);
  if (htmlCanonicals.length > 1) add('canonical_conflict', `several canonicals: ${sample(htmlCanonicals)}`);
  else if (htmlCanonicals.length === 1 && headerCanonicals.length > 0 && !headerCanonicals.includes(htmlCanonicals[0])) {
    add('canonical_conflict', `HTML canonical ${htmlCanonicals[0]} but Link header ${headerCanonicals[0]}`);
  }
  const relative = input.html.canonicals.find((c) => c && !isAbsoluteUrl(c));
  if (relative !== undefined) add('canonical_relative', `canonical href "${relative}"`);
}

/** Titles and descriptions. */
function titles({ input: { html } }: PageFacts, add: Add): void {
  const title = html.titles[0] ?? null;
  const description = html.metaDescriptions[0] ?? null;
  if (!title) add('title_missing', html.titles.length ? 'empty <title>' : 'no <title>');
  else {
    if (chars(title) > THRESHOLDS.titleMax) add('title_too_long', `${chars(title)} characters`);
    if (chars(title) < THRESHOLDS.titleMin) add('title_too_short', `${chars(title)} characters`);
  }
  if (html.titles.length > 1) add('title_multiple', `${html.titles.length} <title> tags`);
  if (!description) add('description_missing', html.metaDescriptions.length ? 'empty meta description' : 'no meta description');
  else if (chars(description) < THRESHOLDS.descriptionMin) add('description_too_short', `${chars(description)} characters`);
  else if (chars(description) > THRESHOLDS.descriptionMax) add('description_too_long', `${chars(description)} characters`);
}

function content({ input }: PageFacts, add: Add): void {
  const { html } = input;
  if (html.h1.length === 0) add('h1_missing', 'no <h1>');
  else if (html.h1.length > 1) add('h1_multiple', `${html.h1.length} <h1> tags`);
  if (html.headingSkip) {
    const { from, to } = html.headingSkip;
    add('heading_skip', `h${from} followed by h${to}`);
  }
  if (html.wordCount < THRESHOLDS.thinWords) add('thin_content', `${html.wordCount} words`);
  if (html.lang === null || html.lang === '') add('lang_missing', 'no lang on <html>');
  else if (!isValidLang(html.lang)) add('lang_invalid', `lang="${html.lang}"`);
  if (html.viewport === null) add('viewport_missing', 'no <meta name="viewport">');
  if (input.sizeBytes > THRESHOLDS.htmlBytes) {
    add('html_too_large', `${Math.round(input.sizeBytes / 1024)} KB of HTML${input.truncated ? ', read up to the crawl\'s HTML limit' : ''}`);
  }
  if (html.duplicateIds.length) add('duplicate_id', `duplicate id: ${sample(html.duplicateIds)}`);
}

function linksAndImages({ input, internal, external, nofollow }: PageFacts, add: Add): void {
  const linkCount = internal.size + external.size;
  if (linkCount > THRESHOLDS.maxLinks) add('too_many_links', `${linkCount} links`);
  const nofollowed = [...internal].filter(([, nf]) => nf || nofollow).map(([u]) => u);
  if (nofollowed.length) add('internal_nofollow', nofollow ? 'meta robots nofollow on the page' : `${nofollowed.length} nofollow internal link(s): ${sample(nofollowed)}`);
  const images = input.html.images;
  const noAlt = images.filter((i) => i.alt === null);
  if (noAlt.length) add('image_missing_alt', `${noAlt.length} image(s) without alt: ${sample(noAlt.map((i) => i.src))}`);
  const longAlt = images.filter((i) => i.alt !== null && chars(i.alt) > THRESHOLDS.altMax);
  if (longAlt.length) add('image_alt_too_long', `${longAlt.length} image(s): ${sample(longAlt.map((i) => i.src))}`);
  const noSize = images.filter((i) => !i.hasWidth || !i.hasHeight);
  if (noSize.length) add('image_missing_dimensions', `${noSize.length} image(s): ${sample(noSize.map((i) => i.src))}`);
}

function international({ input, hreflang }: PageFacts, add: Add): void {
  if (!hreflang.length) return;
  if (!hreflang.some((h) => h.lang === 'x-default')) add('hreflang_no_x_default', 'no hreflang="x-default"');
  if (!hreflang.some((h) => h.url === input.url)) add('hreflang_no_self', 'the page does not list itself');
}

function performanceAndSecurity({ input, base }: PageFacts, add: Add): void {
  if (input.ttfbMs > THRESHOLDS.slowMs) add('slow_response', `${input.ttfbMs} ms`);
  const encoding = (headerValue(input.headers, 'content-encoding') ?? '').toLowerCase();
  // Below 1 KB compression saves nothing worth a finding (Lighthouse uses a similar floor).
  if ((!encoding || encoding === 'identity') && input.sizeBytes >= 1024) add('not_compressed', 'no Content-Encoding');
  const insecureForms = input.html.forms
    .filter((f) => f.method === 'post')
    .map((f) => normaliseUrl(f.action || input.url, base))
    .filter((a): a is string => a !== null && a.startsWith('http:'));
  if (insecureForms.length) add('form_to_http', `form posts to ${sample(insecureForms)}`);
}

/** Structured data and social. */
function structuredData({ input: { html } }: PageFacts, add: Add): void {
  const badJson = html.jsonLd.filter((block) => {
    try {
      JSON.parse(block);
      return false;
    } catch {
      return true;
    }
  });
  if (badJson.length) add('jsonld_invalid', `${badJson.length} JSON-LD block(s) do not parse`);
  const ogMissing = (['title', 'description', 'image'] as const).filter((k) => !html.og[k]).map((k) => `og:${k}`);
  if (ogMissing.length) add('og_missing', `missing ${ogMissing.join(', ')}`);
}
