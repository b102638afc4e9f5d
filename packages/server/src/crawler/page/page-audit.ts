/**
 * Checks that one page answers on its own, from its response and its HTML facts. Pure: no I/O,
 * so each check is tested on a page built to trigger it and one built not to. This file resolves
 * what the checks share (links, robots directives, canonicals, hreflang, all against <base>) and
 * what the crawl keeps; the checks themselves are in page-checks.ts, by topic.
 */
import { MAX_HREFLANG, metaRefreshDelay, metaRefreshTarget, type HtmlFacts } from './html-analyser.js';
import { THRESHOLDS } from '../checks.js';
import type { HtmlResource } from './html-resources.js';
import { headerValue } from '../fetch/http-client.js';
import { pageChecks, refreshRedirectChecks } from './page-checks.js';
import type { CanonicalReading, Finding, PageFacts, PageInput, PageSummary, ResolvedLink } from './page-facts.js';
import { robotsDirectives } from './robots-directives.js';
import { declaredLanguage, pageLanguage } from './page-language.js';
import { normaliseUrl } from '../url.js';
import { hasRel, parseLinkHeader } from './link-header.js';

/**
 * Reads a canonical href as Google does: it must name a crawlable http(s) URL, else it is ignored
 * (and reported: canonical_invalid). An empty href resolves to the page itself under URL rules,
 * but says nothing, so it is invalid too.
 */
export function readCanonical(raw: string, base: string): CanonicalReading {
  const href = raw.trim();
  if (!href) return { raw, shown: null, url: null, problem: 'empty href' };
  let parsed: URL;
  try {
    parsed = new URL(href, base);
  } catch {
    return { raw, shown: null, url: null, problem: `"${href.slice(0, 200)}" is not a URL` };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return { raw, shown: parsed.href, url: null, problem: `${parsed.protocol.slice(0, -1)} URL ${parsed.href.slice(0, 200)}` };
  }
  const url = normaliseUrl(href, base);
  return url ? { raw, shown: url, url, problem: null } : { raw, shown: parsed.href, url: null, problem: `${parsed.href.slice(0, 200)} cannot be crawled` };
}

export function resolveAll(raw: readonly string[], base: string): string[] {
  const out: string[] = [];
  for (const r of raw) {
    const n = normaliseUrl(r, base);
    if (n) out.push(n);
  }
  return out;
}

/**
 * Resolves hrefs against <base>, each once: the links and the anchor texts of a page name the
 * same hrefs, and resolving a URL was a measurable part of analysing a page.
 */
function linkResolver(base: string, isInternal: (url: string) => boolean): (href: string) => ResolvedLink | null {
  const known = new Map<string, ResolvedLink | null>();
  return (href) => {
    let link = known.get(href);
    if (link === undefined) {
      const url = normaliseUrl(href, base);
      link = url === null ? null : { url, internal: isInternal(url) };
      known.set(href, link);
    }
    return link;
  };
}

/** Internal links (URL → nofollow) and external links, resolved against <base>, deduplicated. */
function collectLinks(html: HtmlFacts, resolveLink: (href: string) => ResolvedLink | null): { internal: Map<string, boolean>; external: Set<string> } {
  const internal = new Map<string, boolean>();
  const external = new Set<string>();
  // In-page anchors are not links to follow.
  for (const link of html.links) {
    if (!link.href || link.href.startsWith('#')) continue;
    const target = resolveLink(link.href);
    if (!target) continue;
    if (target.internal) internal.set(target.url, (internal.get(target.url) ?? false) || link.nofollow);
    else external.add(target.url);
  }
  return { internal, external };
}

/**
 * The page's resources resolved against <base> and normalised, once per URL: a URL both
 * preloaded and used keeps the type of its use (a preloaded stylesheet is a stylesheet).
 */
function resolveResources(html: HtmlFacts, base: string): HtmlResource[] {
  const types = new Map<string, HtmlResource['type']>();
  for (const r of html.resources) {
    const url = normaliseUrl(r.url, base);
    if (url === null) continue;
    const known = types.get(url);
    if (known === undefined || known === 'preload') types.set(url, r.type);
  }
  return Array.from(types, ([url, type]) => ({ url, type }));
}

/** Resolves what the checks share: links, robots directives, canonicals, meta refresh, hreflang. */
export function pageFacts(input: PageInput): PageFacts {
  const { url, html, headers } = input;
  const base = (html.baseHref && normaliseUrl(html.baseHref, url)) || url;
  const directives = robotsDirectives(html.metaRobots, headers['x-robots-tag'], input.robotsToken);
  // Canonicals: HTML link elements of the head and the Link header.
  const htmlReadings = html.canonicals.map((c) => readCanonical(c, base));
  const linkHeader = parseLinkHeader(headerValue(headers, 'link'));
  const headerReadings = linkHeader.filter((l) => hasRel(l, 'canonical')).map((l) => readCanonical(l.target, url));
  const valid = (readings: CanonicalReading[]) => readings.flatMap((r) => (r.url === null ? [] : [r.url]));
  const target = html.metaRefresh === null ? null : metaRefreshTarget(html.metaRefresh);
  // Language versions: the head's against <base>, the Link header's (a PDF's only way) against the
  // page; MAX_HREFLANG in all at most (the head caps its own as it is read: html-analyser.ts).
  const declared = [
    ...html.hreflang.map((h) => ({ lang: h.lang, href: h.href, base })),
    ...linkHeader.filter((l) => hasRel(l, 'alternate') && l.params.hreflang !== undefined).map((l) => ({ lang: l.params.hreflang.trim(), href: l.target, base: url })),
  ].slice(0, MAX_HREFLANG);
  const hreflang: { lang: string; url: string }[] = [];
  for (const h of declared) {
    const resolved = normaliseUrl(h.href, h.base);
    if (resolved) hreflang.push({ lang: h.lang.toLowerCase(), url: resolved });
  }
  const resolveLink = linkResolver(base, input.isInternal);
  return {
    input,
    base,
    ...collectLinks(html, resolveLink),
    resolveLink,
    xRobotsTag: headerValue(headers, 'x-robots-tag'),
    noindex: directives.has('noindex') || directives.has('none'),
    nofollow: directives.has('nofollow') || directives.has('none'),
    htmlCanonicals: [...new Set(valid(htmlReadings))],
    headerCanonicals: valid(headerReadings),
    canonicalReadings: [...htmlReadings, ...headerReadings],
    metaRefreshUrl: target ? normaliseUrl(target, base) : null,
    metaRefreshDelay: html.metaRefresh === null ? 0 : metaRefreshDelay(html.metaRefresh),
    hreflang,
    hreflangCodes: declared.map((h) => h.lang),
    declaredLanguage: declaredLanguage(html.lang, headerValue(headers, 'content-language'), hreflang.find((h) => h.url === url && h.lang !== 'x-default')?.lang ?? null),
    resources: resolveResources(html, base),
  };
}

/** True when the page is a meta-refresh redirect: a refresh to another URL, soon enough to be one. */
export function isRefreshRedirect(facts: PageFacts): boolean {
  const { metaRefreshUrl, metaRefreshDelay, input } = facts;
  return metaRefreshUrl !== null && metaRefreshUrl !== input.url && metaRefreshDelay <= THRESHOLDS.metaRefreshRedirectSeconds;
}

/**
 * Audits one internal 2xx HTML page; returns its findings and the summary the crawl keeps. A
 * meta-refresh redirect is kept as a redirect: its refresh target is its only link, it is never
 * indexable, and only the redirect checks judge it (a 301 has no title or content to audit).
 */
export function analysePage(input: PageInput): { findings: Finding[]; summary: PageSummary } {
  const { url, html } = input;
  const facts = pageFacts(input);
  if (isRefreshRedirect(facts)) return { findings: refreshRedirectChecks(facts), summary: redirectSummary(facts) };
  const canonical = facts.htmlCanonicals[0] ?? facts.headerCanonicals[0] ?? null;
  const declared = facts.canonicalReadings[0];
  return {
    findings: pageChecks(facts),
    summary: {
      title: html.titles[0] ?? null,
      metaDescription: html.metaDescriptions[0] ?? null,
      h1: html.h1[0] ?? null,
      wordCount: html.wordCount,
      canonical,
      declaredCanonical: declared ? (declared.url ?? declared.shown) : null,
      noindex: facts.noindex,
      nofollow: facts.nofollow,
      indexable: !facts.noindex && (canonical === null || canonical === url),
      internalLinks: internalLinks(facts),
      externalLinks: [...facts.external],
      resources: facts.resources,
      imagesWithoutAlt: html.images.filter((i) => i.alt === null).length,
      hreflang: facts.hreflang,
      language: pageLanguage(url, facts.declaredLanguage),
      metaRefreshUrl: facts.metaRefreshUrl,
      paginationLinks: paginationLinks(facts),
      refreshRedirect: false,
      metaRobots: html.metaRobots.length ? html.metaRobots.join(', ') : null,
      xRobotsTag: facts.xRobotsTag,
    },
  };
}

/** The page's `<link rel="next|prev">` targets, resolved against <base>, each once. */
function paginationLinks(facts: PageFacts): PageSummary['paginationLinks'] {
  const out: PageSummary['paginationLinks'] = [];
  for (const { rel, href } of facts.input.html.paginationLinks) {
    const url = normaliseUrl(href, facts.base);
    if (url && !out.some((l) => l.rel === rel && l.url === url)) out.push({ rel, url });
  }
  return out;
}

/** The internal links with the text of the first link to each (resolved as the links are). */
function internalLinks(facts: PageFacts): PageSummary['internalLinks'] {
  const texts = new Map<string, string>();
  for (const { href, text } of facts.input.html.linkTexts) {
    const target = facts.resolveLink(href);
    if (target?.internal && !texts.has(target.url)) texts.set(target.url, text);
  }
  return [...facts.internal].map(([url, nofollow]) => ({ url, nofollow, text: texts.get(url) ?? '' }));
}

/** The summary of a meta-refresh redirect: the facts of its HTML as they are, its refresh target as its only link. */
function redirectSummary(facts: PageFacts): PageSummary {
  const { html } = facts.input;
  return {
    title: html.titles[0] ?? null,
    metaDescription: html.metaDescriptions[0] ?? null,
    h1: html.h1[0] ?? null,
    wordCount: html.wordCount,
    canonical: null,
    declaredCanonical: null,
    noindex: facts.noindex,
    nofollow: false,
    indexable: false,
    internalLinks: [],
    externalLinks: [],
    resources: facts.resources,
    imagesWithoutAlt: html.images.filter((i) => i.alt === null).length,
    hreflang: [],
    language: null,
    metaRefreshUrl: facts.metaRefreshUrl,
    paginationLinks: [],
    refreshRedirect: true,
    metaRobots: html.metaRobots.length ? html.metaRobots.join(', ') : null,
    xRobotsTag: facts.xRobotsTag,
  };
}
