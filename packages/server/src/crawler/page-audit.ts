/**
 * Checks that one page answers on its own, from its response and its HTML facts. Pure: no I/O,
 * so each check is tested on a page built to trigger it and one built not to.
 */
import { THRESHOLDS, type CheckName } from './checks.js';
import type { HtmlFacts } from './html.js';
import { headerValue, type Headers } from './http.js';
import { metaRefreshTarget } from './html.js';
import { isAbsoluteUrl, normaliseUrl } from './url.js';
import type { DiscoveredVia } from './types.js';

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
  depth: number;
  discoveredVia: DiscoveredVia;
  html: HtmlFacts;
  /** Decompressed HTML size in bytes. */
  sizeBytes: number;
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
  canonical: string | null;
  noindex: boolean;
  nofollow: boolean;
  indexable: boolean;
  internalLinks: { url: string; nofollow: boolean }[];
  externalLinks: string[];
  imageUrls: string[];
  imagesWithoutAlt: number;
  hreflang: { lang: string; url: string }[];
  metaRefreshUrl: string | null;
  metaRobots: string | null;
  xRobotsTag: string | null;
}

const ROBOTS_DIRECTIVES = new Set([
  'all', 'noindex', 'nofollow', 'none', 'noarchive', 'nosnippet', 'notranslate', 'noimageindex', 'unavailable_after',
  'max-snippet', 'max-image-preview', 'max-video-preview', 'indexifembedded', 'index', 'follow', 'noai', 'noimageai',
]);

/**
 * Robots directives that apply to us: every meta robots value, and the X-Robots-Tag lines that
 * are unprefixed or prefixed with our token (`ourbot: noindex, nofollow`: the prefix holds until
 * the end of its header line).
 */
export function robotsDirectives(metaRobots: readonly string[], xRobotsTag: string | string[] | null | undefined, token: string): Set<string> {
  const out = new Set<string>();
  const add = (directive: string) => {
    const v = directive.trim().toLowerCase().split(':')[0].trim();
    if (v) out.add(v);
  };
  for (const m of metaRobots) m.split(',').forEach(add);
  const lines = xRobotsTag == null ? [] : Array.isArray(xRobotsTag) ? xRobotsTag : [xRobotsTag];
  for (const line of lines) {
    let forUs = true;
    for (const part of line.split(',')) {
      const prefixed = /^\s*([a-z0-9_-]+)\s*:\s*(.*)$/i.exec(part);
      if (prefixed && !ROBOTS_DIRECTIVES.has(prefixed[1].toLowerCase())) {
        forUs = prefixed[1].toLowerCase() === token;
        if (forUs) add(prefixed[2]);
      } else if (forUs) add(part);
    }
  }
  return out;
}

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

function resolveAll(raw: readonly string[], base: string): string[] {
  const out: string[] = [];
  for (const r of raw) {
    const n = normaliseUrl(r, base);
    if (n) out.push(n);
  }
  return out;
}

/** Audits one internal 2xx HTML page; returns its findings and the summary the crawl keeps. */
export function analysePage(input: PageInput): { findings: Finding[]; summary: PageSummary } {
  const { url, html, headers } = input;
  const findings: Finding[] = [];
  const add = (name: CheckName, details: string) => findings.push({ name, details });
  const page = new URL(url);
  const https = page.protocol === 'https:';
  const base = (html.baseHref && normaliseUrl(html.baseHref, url)) || url;

  // Links: resolved against <base>, deduplicated; in-page anchors are not links to follow.
  const internal = new Map<string, boolean>();
  const external = new Set<string>();
  for (const link of html.links) {
    if (!link.href || link.href.startsWith('#')) continue;
    const target = normaliseUrl(link.href, base);
    if (!target) continue;
    if (input.isInternal(target)) internal.set(target, (internal.get(target) ?? false) || link.nofollow);
    else external.add(target);
  }

  const xRobotsTag = headerValue(headers, 'x-robots-tag');
  const directives = robotsDirectives(html.metaRobots, headers['x-robots-tag'], input.robotsToken);
  const noindex = directives.has('noindex') || directives.has('none');
  const nofollow = directives.has('nofollow') || directives.has('none');

  // Canonicals: HTML link elements and the Link header.
  const htmlCanonicals = [...new Set(resolveAll(html.canonicals.filter(Boolean), base))];
  const headerCanonicals = resolveAll(
    [...(headerValue(headers, 'link') ?? '').matchAll(/<([^>]*)>\s*;[^,]*rel="?canonical"?/gi)].map((m) => m[1]),
    url,
  );
  const canonical = htmlCanonicals[0] ?? headerCanonicals[0] ?? null;
  const indexable = !noindex && (canonical === null || canonical === url);

  const title = html.titles[0] ?? null;
  const description = html.metaDescriptions[0] ?? null;

  // HTTP and redirects
  if (page.protocol === 'http:') add('http_page', 'served over plain HTTP');
  if (https) {
    const insecure = resolveAll(html.subresources, base).filter((u) => u.startsWith('http:'));
    if (insecure.length) add('mixed_content', `${insecure.length} HTTP resource(s): ${sample(insecure)}`);
    if (!headerValue(headers, 'strict-transport-security')) add('hsts_missing', 'no Strict-Transport-Security header');
  }
  let metaRefreshUrl: string | null = null;
  if (html.metaRefresh !== null) {
    const target = metaRefreshTarget(html.metaRefresh);
    metaRefreshUrl = target ? normaliseUrl(target, base) : null;
    if (metaRefreshUrl && metaRefreshUrl !== url) add('meta_refresh', `meta refresh to ${metaRefreshUrl}`);
  }

  // Indexability
  if (noindex) {
    const fromMeta = robotsDirectives(html.metaRobots, null, input.robotsToken);
    add('noindex', fromMeta.has('noindex') || fromMeta.has('none') ? `meta robots: ${html.metaRobots.join(', ')}` : `X-Robots-Tag: ${xRobotsTag}`);
  }
  if (html.metaRobotsInBody) add('meta_robots_in_body', 'meta robots found inside <body>, where search engines may ignore it');
  // Click depth means something only for pages reached by clicks (links, and their redirects).
  const clicked = input.discoveredVia === 'link' || input.discoveredVia === 'redirect';
  if (input.depth > THRESHOLDS.maxDepth && clicked) add('deep_page', `click depth ${input.depth}`);
  if (internal.size + external.size === 0 && metaRefreshUrl === null) add('dead_end_page', 'no outgoing links');

  // Canonicals
  if (htmlCanonicals.length > 1) add('canonical_conflict', `several canonicals: ${sample(htmlCanonicals)}`);
  else if (htmlCanonicals.length === 1 && headerCanonicals.length > 0 && !headerCanonicals.includes(htmlCanonicals[0])) {
    add('canonical_conflict', `HTML canonical ${htmlCanonicals[0]} but Link header ${headerCanonicals[0]}`);
  }
  const relative = html.canonicals.find((c) => c && !isAbsoluteUrl(c));
  if (relative !== undefined) add('canonical_relative', `canonical href "${relative}"`);

  // Titles and descriptions
  if (!title) add('title_missing', html.titles.length ? 'empty <title>' : 'no <title>');
  else {
    if (chars(title) > THRESHOLDS.titleMax) add('title_too_long', `${chars(title)} characters`);
    if (chars(title) < THRESHOLDS.titleMin) add('title_too_short', `${chars(title)} characters`);
  }
  if (html.titles.length > 1) add('title_multiple', `${html.titles.length} <title> tags`);
  if (!description) add('description_missing', html.metaDescriptions.length ? 'empty meta description' : 'no meta description');
  else if (chars(description) < THRESHOLDS.descriptionMin) add('description_too_short', `${chars(description)} characters`);
  else if (chars(description) > THRESHOLDS.descriptionMax) add('description_too_long', `${chars(description)} characters`);

  // Content
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
  if (input.sizeBytes > THRESHOLDS.htmlBytes) add('html_too_large', `${Math.round(input.sizeBytes / 1024)} KB of HTML`);
  if (html.duplicateIds.length) add('duplicate_id', `duplicate id: ${sample(html.duplicateIds)}`);

  // Links and images
  const linkCount = internal.size + external.size;
  if (linkCount > THRESHOLDS.maxLinks) add('too_many_links', `${linkCount} links`);
  const nofollowed = [...internal].filter(([, nf]) => nf || nofollow).map(([u]) => u);
  if (nofollowed.length) add('internal_nofollow', nofollow ? 'meta robots nofollow on the page' : `${nofollowed.length} nofollow internal link(s): ${sample(nofollowed)}`);
  const images = html.images;
  const noAlt = images.filter((i) => i.alt === null);
  if (noAlt.length) add('image_missing_alt', `${noAlt.length} image(s) without alt: ${sample(noAlt.map((i) => i.src))}`);
  const longAlt = images.filter((i) => i.alt !== null && chars(i.alt) > THRESHOLDS.altMax);
  if (longAlt.length) add('image_alt_too_long', `${longAlt.length} image(s): ${sample(longAlt.map((i) => i.src))}`);
  const noSize = images.filter((i) => !i.hasWidth || !i.hasHeight);
  if (noSize.length) add('image_missing_dimensions', `${noSize.length} image(s): ${sample(noSize.map((i) => i.src))}`);

  // International
  const hreflang: { lang: string; url: string }[] = [];
  for (const h of html.hreflang) {
    const target = normaliseUrl(h.href, base);
    if (target) hreflang.push({ lang: h.lang.toLowerCase(), url: target });
  }
  if (hreflang.length) {
    if (!hreflang.some((h) => h.lang === 'x-default')) add('hreflang_no_x_default', 'no hreflang="x-default"');
    if (!hreflang.some((h) => h.url === url)) add('hreflang_no_self', 'the page does not list itself');
  }

  // Performance and security
  if (input.ttfbMs > THRESHOLDS.slowMs) add('slow_response', `${input.ttfbMs} ms`);
  const encoding = (headerValue(headers, 'content-encoding') ?? '').toLowerCase();
  // Below 1 KB compression saves nothing worth a finding (Lighthouse uses a similar floor).
  if ((!encoding || encoding === 'identity') && input.sizeBytes >= 1024) add('not_compressed', 'no Content-Encoding');
  const insecureForms = html.forms
    .filter((f) => f.method === 'post')
    .map((f) => normaliseUrl(f.action || url, base))
    .filter((a): a is string => a !== null && a.startsWith('http:'));
  if (insecureForms.length) add('form_to_http', `form posts to ${sample(insecureForms)}`);

  // Structured data and social
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

  const imageUrls = resolveAll(images.map((i) => i.src).filter(Boolean), base);
  return {
    findings,
    summary: {
      title,
      metaDescription: description,
      h1: html.h1[0] ?? null,
      wordCount: html.wordCount,
      canonical,
      noindex,
      nofollow,
      indexable,
      internalLinks: [...internal].map(([u, nf]) => ({ url: u, nofollow: nf })),
      externalLinks: [...external],
      imageUrls: [...new Set(imageUrls)],
      imagesWithoutAlt: noAlt.length,
      hreflang,
      metaRefreshUrl,
      metaRobots: html.metaRobots.length ? html.metaRobots.join(', ') : null,
      xRobotsTag,
    },
  };
}
