/**
 * The page-level checks, by topic, on a page's resolved facts (page-audit.ts `pageFacts`). Each
 * topic adds its findings in the catalogue's order, so a page's issues always come out the same.
 */
import { CHECK_DETAILS as D } from '@siteaudit/schema/rules';
import { THRESHOLDS, type CheckName } from '../checks.js';
import { headerValue } from '../fetch/http-client.js';
import type { HtmlResource } from './html-resources.js';
import type { Finding, PageFacts } from './page-facts.js';
import { OTHER_ROBOTS_DIRECTIVES, ROBOTS_DIRECTIVES, robotsDirectives } from './robots-directives.js';
import { structuredDataGaps } from './structured-data.js';
import { urlHygiene } from './url-hygiene.js';
import { isGenericAnchor } from './anchor-text.js';
import { languageMismatch } from './page-language.js';
export { GENERIC_ANCHORS } from './anchor-text.js';
import { isAbsoluteUrl, normaliseUrl } from '../url.js';

type Add = (name: CheckName, details: string) => void;

function chars(text: string): number {
  return [...text].length;
}

/** East Asian wide and fullwidth characters (Unicode's East_Asian_Width W and F): Han, kana, Hangul, fullwidth forms. */
const WIDE = /[\u1100-\u115f\u2e80-\u303e\u3041-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{20000}-\u{3fffd}]/gu;

/**
 * The length of a title or description as a results page shows it: a wide character (Chinese,
 * Japanese, Korean) takes the room of two Latin ones, so the character thresholds (set on Latin
 * text) are read in half-widths: `シェルのチュートリアル`, 11 characters, is 22 half-widths long.
 */
function displayWidth(text: string): number {
  return chars(text) + (text.match(WIDE)?.length ?? 0);
}

/** The details of a title or description length: its characters, and its width when wide characters make it differ. */
function lengthDetails(text: string): string {
  const n = chars(text);
  const width = displayWidth(text);
  return width === n ? `${n} characters` : D.lengthWide(n, width);
}

function sample(list: readonly string[], n = 3): string {
  const shown = list.slice(0, n).join(', ');
  return list.length > n ? `${shown} (+${list.length - n})` : shown;
}

/**
 * Up to `n` distinct values, each with its count when repeated (`logo.svg ×3`), then how many
 * other distinct values: a template that shows its logo three times names the file once.
 */
function sampleDistinct(list: readonly string[], n = 3): string {
  const counts = new Map<string, number>();
  for (const v of list) counts.set(v, (counts.get(v) ?? 0) + 1);
  const distinct = [...counts];
  const shown = distinct
    .slice(0, n)
    .map(([v, c]) => (c > 1 ? `${v} ×${c}` : v))
    .join(', ');
  return distinct.length > n ? `${shown} (+${distinct.length - n})` : shown;
}

/** Answers of `Intl.getCanonicalLocales` by tag: a site repeats one or two on every page, and asking ICU each time was a measurable part of a page's checks. */
const langValidity = new Map<string, boolean>();

function isValidLang(tag: string): boolean {
  let valid = langValidity.get(tag);
  if (valid === undefined) {
    try {
      valid = Intl.getCanonicalLocales(tag).length === 1;
    } catch {
      valid = false;
    }
    if (langValidity.size >= 256) langValidity.clear();
    langValidity.set(tag, valid);
  }
  return valid;
}

/** Every page-level finding of a page. */
export function pageChecks(facts: PageFacts): Finding[] {
  const findings: Finding[] = [];
  const add: Add = (name, details) => findings.push({ name, details });
  for (const topic of [transport, urls, indexability, robotsDirectivesCheck, canonicals, titles, content, linksAndImages, anchors, international, performanceAndSecurity, securityHeaders, structuredData, social]) {
    topic(facts, add);
  }
  return findings;
}

/**
 * The findings of a meta-refresh redirect (page-audit.ts `isRefreshRedirect`): the redirect
 * itself, temporary when delayed (as Google reads it); nothing of a page's content, as for a 301
 * (its target is audited as the page).
 */
export function refreshRedirectChecks({ metaRefreshUrl, metaRefreshDelay }: PageFacts): Finding[] {
  const findings: Finding[] = [];
  findings.push({ name: 'meta_refresh', details: `meta refresh to ${metaRefreshUrl}` });
  if (metaRefreshDelay > 0) findings.push({ name: 'temporary_redirect', details: D.refreshDelayed(metaRefreshDelay, metaRefreshUrl!) });
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

/** URL hygiene of the page's own URL (url-hygiene.ts). */
function urls({ input }: PageFacts, add: Add): void {
  for (const f of urlHygiene(input.url)) add(f.name, f.details);
}

/** Robots directives: contradictions, unknown ones, header-only restrictions, snippets forbidden. */
function robotsDirectivesCheck({ input, noindex, xRobotsTag }: PageFacts, add: Add): void {
  const { html, headers, robotsToken } = input;
  const meta = robotsDirectives(html.metaRobots, null, robotsToken);
  const header = robotsDirectives([], headers['x-robots-tag'], robotsToken);
  const all = new Set([...meta, ...header]);
  const conflicts: string[] = [];
  if (all.has('index') && (all.has('noindex') || all.has('none'))) conflicts.push('index', all.has('noindex') ? 'noindex' : 'none');
  if (all.has('follow') && (all.has('nofollow') || all.has('none'))) conflicts.push('follow', all.has('nofollow') ? 'nofollow' : 'none');
  if (all.has('all') && (all.has('noindex') || all.has('nofollow') || all.has('none'))) conflicts.push('all', ...['noindex', 'nofollow', 'none'].filter((d) => all.has(d)));
  if (conflicts.length) add('robots_conflict', D.robotsConflict([...new Set(conflicts)]));
  const unknown = [...all].filter((d) => /^[a-z][a-z_-]*$/.test(d) && !ROBOTS_DIRECTIVES.has(d) && !OTHER_ROBOTS_DIRECTIVES.has(d));
  if (unknown.length) add('robots_unknown_directive', D.robotsUnknown(unknown));
  if (noindex) return;
  const restricting = [...header].filter((d) => HEADER_RESTRICTIONS.has(d));
  if (restricting.length && xRobotsTag) add('x_robots_tag_directives', D.xRobotsTag(xRobotsTag));
  const noSnippet = (text: string) => /(^|[\s,:])nosnippet\b|max-snippet\s*:\s*0(?!\d)/i.test(text);
  const metaText = html.metaRobots.join(', ');
  if (meta.has('nosnippet') || (meta.has('max-snippet') && noSnippet(metaText))) add('robots_nosnippet', D.metaRobots(metaText));
  else if (xRobotsTag && (header.has('nosnippet') || (header.has('max-snippet') && noSnippet(xRobotsTag)))) add('robots_nosnippet', D.xRobotsTag(xRobotsTag));
}

/** Header directives that restrict search engines, other than noindex (its own check) and snippets (robots_nosnippet). */
const HEADER_RESTRICTIONS = new Set(['nofollow', 'noarchive', 'noimageindex', 'notranslate', 'unavailable_after', 'max-image-preview', 'max-video-preview', 'noai', 'noimageai']);

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
  if (input.depth !== null && input.depth > THRESHOLDS.maxDepth && clicked) add('deep_page', `click depth ${input.depth}`);
  if (internal.size + external.size === 0 && metaRefreshUrl === null) add('dead_end_page', 'no outgoing links');
}

function canonicals({ input, htmlCanonicals, headerCanonicals, canonicalReadings, noindex }: PageFacts, add: Add): void {
  const canonical = htmlCanonicals[0] ?? headerCanonicals[0] ?? null;
  if (canonicalReadings.length === 0 && input.html.bodyCanonicals.length === 0 && !noindex) add('canonical_missing', D.canonicalMissing());
  if (canonical !== null && canonical !== input.url) {
    if (noindex) add('noindex_with_canonical', D.noindexWithCanonical(canonical));
    if (!input.isInternal(canonical) && new URL(canonical).hostname !== new URL(input.url).hostname) add('canonical_cross_domain', D.canonicalCrossDomain(canonical));
  }
  if (canonical !== null && canonical.startsWith('http:') && input.url.startsWith('https:')) add('canonical_to_http', D.canonicalToHttp(canonical));
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

/**
 * Whether the page asks to be in search results: no noindex, and no canonical to another URL (the
 * registry's `Indexable`, page-audit.ts). A printable version, a tracking-parameter copy or a
 * "moved, click here" page canonicalised to its target is not shown in results: what only
 * matters there (its description, its h1, how many words it has) is not judged on it.
 */
function asksToBeIndexed({ input, noindex, htmlCanonicals, headerCanonicals }: PageFacts): boolean {
  const canonical = htmlCanonicals[0] ?? headerCanonicals[0] ?? null;
  return !noindex && (canonical === null || canonical === input.url);
}

/** Titles and descriptions. */
function titles(facts: PageFacts, add: Add): void {
  const { html } = facts.input;
  const title = html.titles[0] ?? null;
  const description = html.metaDescriptions[0] ?? null;
  if (!title) add('title_missing', html.titles.length ? 'empty <title>' : 'no <title>');
  else {
    if (displayWidth(title) > THRESHOLDS.titleMax) add('title_too_long', lengthDetails(title));
    if (displayWidth(title) < THRESHOLDS.titleMin) add('title_too_short', lengthDetails(title));
  }
  if (html.titles.length > 1) add('title_multiple', `${html.titles.length} <title> tags`);
  if (html.metaDescriptions.length > 1) add('description_multiple', D.descriptionMultiple(html.metaDescriptions.length));
  if (!asksToBeIndexed(facts)) return;
  if (!description) add('description_missing', html.metaDescriptions.length ? 'empty meta description' : 'no meta description');
  else if (displayWidth(description) < THRESHOLDS.descriptionMin) add('description_too_short', lengthDetails(description));
  else if (displayWidth(description) > THRESHOLDS.descriptionMax) add('description_too_long', lengthDetails(description));
}

/** A title or h1 that says the page does not exist, in English or French. */
const SOFT_404 = /^(?:error )?404\b|\b(?:page|file|document) not found\b|^not found\b|\bpage (?:introuvable|non trouvée)\b|\bcette page n[’']existe (?:pas|plus)\b|\berreur 404\b/i;

function content(facts: PageFacts, add: Add): void {
  const { input } = facts;
  const { html } = input;
  const indexed = asksToBeIndexed(facts);
  if (html.h1.length === 0 && indexed) add('h1_missing', 'no <h1>');
  else if (html.h1.length > 1) add('h1_multiple', `${html.h1.length} <h1> tags`);
  if (html.emptyH1 > 0) add('h1_empty', D.h1Empty());
  const longH1 = html.h1.find((h) => chars(h) > THRESHOLDS.h1MaxChars);
  if (longH1 !== undefined) add('h1_too_long', D.h1Length(chars(longH1)));
  const title = html.titles[0] ?? '';
  if (input.status === 200 && (SOFT_404.test(title) || SOFT_404.test(html.h1[0] ?? ''))) add('soft_404', D.soft404(title || html.h1[0]));
  const placeholder = /\blorem ipsum\b/i.exec(html.textSample);
  if (placeholder) add('placeholder_text', D.placeholder(placeholder[0]));
  const contentType = headerValue(input.headers, 'content-type') ?? '';
  if (!/charset\s*=/i.test(contentType) && !html.metaCharset) add('charset_missing', D.charsetMissing());
  if (html.headingSkip) {
    const { from, to } = html.headingSkip;
    add('heading_skip', `h${from} followed by h${to}`);
  }
  if (indexed && html.wordCount < THRESHOLDS.thinWords) add('thin_content', `${html.wordCount} words`);
  if (html.lang === null || html.lang === '') add('lang_missing', 'no lang on <html>');
  else if (!isValidLang(html.lang)) add('lang_invalid', `lang="${html.lang}"`);
  if (html.viewport === null) add('viewport_missing', 'no <meta name="viewport">');
  if (input.sizeBytes > THRESHOLDS.htmlBytes) {
    add('html_too_large', `${Math.round(input.sizeBytes / 1024)} KB of HTML${input.truncated ? ', read up to the crawl\'s HTML limit' : ''}`);
  }
  if (html.duplicateIds.length) add('duplicate_id', `duplicate id: ${sample(html.duplicateIds)}`);
}

/**
 * The ISO 639-1 language codes, and the six it withdrew that browsers and Google still read (iw,
 * in, ji, jw, mo, sh). Every two-letter language Unicode's CLDR names, no more (checked with
 * `Intl.DisplayNames`): `jp` for Japanese, `gr` for Greek, `cn` for Chinese, `dk` for Danish are
 * country codes, no languages, and Google ignores an annotation written with one.
 */
const ISO_639_1 = new Set(
  (
    'aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo ' +
    'fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb ' +
    'lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc ' +
    'sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu ' +
    'iw in ji jw mo sh'
  ).split(' '),
);

/**
 * A language of ISO 639-1 (or a 3-letter one, ISO 639-2/3, whose thousands of codes are not
 * checked), optional ISO 15924 script and ISO 3166-1 region; `x-default`.
 */
function isHreflangCode(code: string): boolean {
  const c = code.trim().toLowerCase();
  if (c === 'x-default') return true;
  const m = /^([a-z]{2,3})(?:-[a-z]{4})?(?:-([a-z]{2}|\d{3}))?$/.exec(c);
  if (m === null || (m[1].length === 2 && !ISO_639_1.has(m[1]))) return false;
  // "uk" is Ukrainian as a language, never the United Kingdom as a region (that is GB).
  return m[2] !== 'uk';
}

/** How long an image's name may be in details: a source written inline or past this is cut. */
const IMAGE_NAME_MAX = 100;

/**
 * How details name an image: its path when it is on the page's own origin, so the logo a template
 * writes `../logo.svg` in one folder and `../../logo.svg` in the next is one file (and one cause
 * of a template decision); its URL on another host; an inline image by its type, never its bytes.
 */
function imageNamer(pageUrl: string, base: string): (src: string) => string {
  const origin = /^https?:\/\/[^/?#]+/i.exec(pageUrl)?.[0].toLowerCase() ?? null;
  const names = new Map<string, string>();
  return (src) => {
    let name = names.get(src);
    if (name === undefined) {
      if (src === '') name = '(no src)';
      else if (/^data:/i.test(src)) name = `inline ${/^data:([^;,]*)/i.exec(src)![1] || 'data'}`;
      else {
        const url = normaliseUrl(src, base);
        name = url === null ? src : origin !== null && url.startsWith(origin) && '/?'.includes(url[origin.length] ?? '/') ? url.slice(origin.length) || '/' : url;
      }
      if (name.length > IMAGE_NAME_MAX) name = `${name.slice(0, IMAGE_NAME_MAX - 1)}…`;
      names.set(src, name);
    }
    return name;
  };
}

function linksAndImages({ input, base, internal, external }: PageFacts, add: Add): void {
  if (input.url.startsWith('https:')) {
    const insecure = [...internal.keys()].filter((u) => u.startsWith('http:'));
    if (insecure.length) add('internal_link_to_http', D.internalLinksToHttp(insecure));
  }
  const linkCount = internal.size + external.size;
  if (linkCount > THRESHOLDS.maxLinks) add('too_many_links', `${linkCount} links`);
  // Nofollow on internal links is judged with its targets once they are crawled (site/nofollow-links.ts).
  const images = input.html.images;
  if (images.length === 0) return;
  const name = imageNamer(input.url, base);
  const noAlt = images.filter((i) => i.alt === null);
  if (noAlt.length) add('image_missing_alt', `${noAlt.length} image(s) without alt: ${sampleDistinct(noAlt.map((i) => name(i.src)))}`);
  const longAlt = images.filter((i) => i.alt !== null && chars(i.alt) > THRESHOLDS.altMax);
  if (longAlt.length) add('image_alt_too_long', `${longAlt.length} image(s): ${sampleDistinct(longAlt.map((i) => name(i.src)))}`);
  const noSize = images.filter((i) => !i.hasWidth || !i.hasHeight);
  if (noSize.length) add('image_missing_dimensions', `${noSize.length} image(s): ${sampleDistinct(noSize.map((i) => name(i.src)))}`);
}

/** Empty or generic anchor texts of internal links (the list: GENERIC_ANCHORS). */
function anchors({ input, resolveLink }: PageFacts, add: Add): void {
  const empty: string[] = [];
  const generic: { text: string; url: string }[] = [];
  for (const a of input.html.shortAnchors) {
    const link = resolveLink(a.href);
    if (link === null || !link.internal) continue;
    const url = link.url;
    if (a.text === '') empty.push(url);
    else if (isGenericAnchor(a.text, input.html.lang)) generic.push({ text: a.text, url });
  }
  // Past ANCHOR_CAP such links the analyser only counts them: the details say how many were not resolved.
  const unread = input.html.anchorsUnread;
  if (empty.length) add('anchor_text_empty', D.anchorsEmpty([...new Set(empty)], unread));
  if (generic.length) add('anchor_text_generic', D.anchorsGeneric(generic, unread));
}


function international({ input, hreflang, hreflangCodes, declaredLanguage }: PageFacts, add: Add): void {
  const mismatch = languageMismatch(declaredLanguage, input.html.scripts);
  if (mismatch !== null) add('lang_mismatch', mismatch);
  const invalid = hreflangCodes.find((code) => !isHreflangCode(code));
  if (invalid !== undefined) add('hreflang_invalid_code', D.hreflangInvalid(invalid));
  const byLang = new Map<string, Set<string>>();
  for (const h of hreflang) byLang.set(h.lang, (byLang.get(h.lang) ?? new Set()).add(h.url));
  const doubled = [...byLang].find(([, set]) => set.size > 1);
  if (doubled) add('hreflang_duplicate_lang', D.hreflangDuplicate(doubled[0], [...doubled[1]]));
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

/**
 * Security headers of an HTTPS page. On plain HTTP they are moot (anyone on the path can strip
 * them): http_page already asks for HTTPS first.
 */
function securityHeaders({ input }: PageFacts, add: Add): void {
  if (!input.url.startsWith('https:')) return;
  const h = (name: string) => headerValue(input.headers, name);
  if ((h('x-content-type-options') ?? '').trim().toLowerCase() !== 'nosniff') add('x_content_type_options_missing', D.headerMissing('X-Content-Type-Options'));
  const csp = h('content-security-policy');
  if (!csp) add('csp_missing', D.headerMissing('Content-Security-Policy'));
  if (!h('x-frame-options') && !/(^|;)\s*frame-ancestors\s/i.test(csp ?? '')) add('frame_protection_missing', D.frameProtectionMissing());
  if (!h('referrer-policy')) add('referrer_policy_missing', D.headerMissing('Referrer-Policy'));
}

/** Open Graph and Twitter card completeness. */
function social({ input: { html } }: PageFacts, add: Add): void {
  const image = html.og.image;
  if (image && !/^https?:\/\//i.test(image)) add('og_image_not_absolute', D.ogImageRelative(image));
  if (html.og.title && !html.twitterCard) add('twitter_card_missing', D.twitterCardMissing());
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
  for (const gap of structuredDataGaps(html.jsonLd)) add(gap.name, gap.details);
  const ogMissing = (['title', 'description', 'image'] as const).filter((k) => !html.og[k]).map((k) => `og:${k}`);
  if (ogMissing.length) add('og_missing', `missing ${ogMissing.join(', ')}`);
}
