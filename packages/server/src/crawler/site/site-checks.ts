/**
 * Cross-page checks, run once the fetch stage is over, on the compact digests only (run/url-registry.ts):
 * duplicate titles, descriptions and content among indexable 2xx pages, near-duplicates by
 * simhash, orphan sitemap pages, canonical targets, hreflang reciprocity and sitemap hygiene.
 * Broken links and links to redirects are resolved during the crawl instead (link-graph.ts), as soon
 * as both ends are known, so no link list has to be kept.
 */
import { CHECK_DETAILS as D } from '@siteaudit/schema/rules';
import type { CheckName } from '../checks.js';
import { Flag, isFetchedOk, isId, isIndexable2xx, NO_ID, OFF_SITE_ID, State, type UrlRegistry } from '../run/url-registry.js';
import { nearDuplicatesIndexed, nearDuplicatesPairwise } from './near-duplicates.js';

export type Report = (name: CheckName, pageId: number, details: string) => Promise<void>;

export interface SiteAuditInput {
  registry: UrlRegistry;
  /** Hreflang annotations of the pages that have some: page id → [lang, target id]. */
  hreflang: Map<number, { lang: string; target: number }[]>;
  /** True when some page or sitemap entry has a hreflang annotation (to any host). Absent: `hreflang` is not empty. */
  hreflangDeclared?: boolean;
  duplicationThreshold: number;
  /** False when the budget or a stop left the link graph incomplete: orphans cannot be told. */
  linkGraphComplete: boolean;
  /**
   * True when the site's sitemaps were read to the end (none stopped at the budget or the file
   * cap): only then can an indexable page be said missing from them. Absent: false.
   */
  sitemapsComplete?: boolean;
  report: Report;
  /** The sitemap files that listed URLs (`UrlRegistry.sitemapFile` indexes them); absent: none named. */
  sitemapFiles?: readonly string[];
  /** Candidates compared pair by pair up to this count (default 5,000); the indexed search above. */
  pairwiseLimit?: number;
}

/** Above this many candidates, near-duplicates use the indexed search instead of all pairs. */
const PAIRWISE_LIMIT = 5_000;

/**
 * Reports the pages whose key (a title's, a description's, a text's hash) another page shares.
 * The keys are sorted in a typed array to find the repeated ones first, and only those pages are
 * grouped: on a site of a million pages this holds 8 bytes a page, not a map entry and a list.
 */
/** Appended to a duplicate group's details when its values differ only by case. */
const CASE_NOTE = ' (compared ignoring case: the values differ only by case)';

async function reportGroups(
  reg: UrlRegistry,
  ids: Uint32Array,
  key: (id: number) => number,
  name: CheckName,
  what: string,
  report: Report,
  exact?: (id: number) => number,
): Promise<void> {
  const keys = new Float64Array(ids.length);
  for (let i = 0; i < ids.length; i++) keys[i] = key(ids[i]);
  const sorted = keys.slice().sort();
  const repeated = new Set<number>();
  for (let i = 1; i < sorted.length; i++) if (sorted[i] === sorted[i - 1]) repeated.add(sorted[i]);
  if (repeated.size === 0) return;
  const groups = new Map<number, number[]>();
  for (let i = 0; i < ids.length; i++) {
    const k = keys[i];
    if (!repeated.has(k)) continue;
    const g = groups.get(k);
    if (g) g.push(ids[i]);
    else groups.set(k, [ids[i]]);
  }
  for (const group of groups.values()) {
    // The comparison ignores case: say so when the group's values are not all written alike.
    const byCase = exact !== undefined && group.some((o) => exact(o) !== exact(group[0]));
    for (const id of group) {
      const other = group.find((o) => o !== id)!;
      await report(name, id, `same ${what} as ${group.length - 1} other page(s), e.g. ${reg.url(other)}${byCase ? CASE_NOTE : ''}`);
    }
  }
}

/** The ids of `reg` that `keep` accepts, ascending, in a typed array. */
function idsWhere(reg: UrlRegistry, keep: (id: number) => boolean): Uint32Array {
  const out = new Uint32Array(reg.size);
  let n = 0;
  for (let id = 0; id < reg.size; id++) if (keep(id)) out[n++] = id;
  return out.slice(0, n);
}

export async function runSiteChecks(input: SiteAuditInput): Promise<void> {
  const { registry: reg, report } = input;
  const indexableWith = (flag: Flag) => idsWhere(reg, (id) => reg.has(id, flag) && isIndexable2xx(reg, id));

  await reportGroups(reg, indexableWith(Flag.HasTitle), (id) => reg.titleHash[id], 'title_duplicate', 'title', report, (id) => reg.titleExact[id]);
  await reportGroups(reg, indexableWith(Flag.HasDescription), (id) => reg.descriptionHash[id], 'description_duplicate', 'meta description', report, (id) => reg.descriptionExact[id]);
  await reportGroups(reg, indexableWith(Flag.HasText), (id) => reg.contentKey[id], 'duplicate_content', 'main text', report);
  await nearDuplicates(input, indexableWith(Flag.NearDuplicateCandidate));

  let hasSitemap = false;
  for (let id = 0; id < reg.size && !hasSitemap; id++) hasSitemap = reg.has(id, Flag.InSitemap);
  const orphans = orphanCounts(reg);
  for (let id = 0; id < reg.size; id++) {
    if (reg.state[id] !== State.Done || !reg.has(id, Flag.Internal)) continue;
    if (isIndexable2xx(reg, id)) {
      if (input.sitemapsComplete && hasSitemap && !reg.has(id, Flag.InSitemap)) await report('not_in_sitemap', id, D.notInSitemap());
      if (input.linkGraphComplete && !reg.has(id, Flag.Start) && reg.inlinks[id] === 1) await report('single_inlink', id, D.singleInlink());
    }
    if (input.linkGraphComplete && isOrphan(reg, id)) await report('orphan_page', id, orphanDetails(reg, id, orphans, input.sitemapFiles ?? []));
    if (isFetchedOk(reg, id) && reg.has(id, Flag.Html)) await canonicalTarget(reg, id, report);
    if (reg.has(id, Flag.InSitemap)) await sitemapEntry(reg, id, report);
  }

  await languageVersionsWithoutHreflang(reg, report, input.hreflangDeclared ?? input.hreflang.size > 0 ? input.hreflang : null);

  for (const [id, entries] of input.hreflang) {
    for (const { lang, target } of entries) {
      if (target === id || reg.state[target] !== State.Done || reg.has(target, Flag.Protection) || reg.has(target, Flag.Blocked)) continue;
      // A meta-refresh stub is a redirect, as a 301 is: no version of the page, whatever it lists.
      if (reg.has(target, Flag.RefreshRedirect)) {
        await report('hreflang_bad_target', id, `hreflang ${lang} → ${reg.url(target)} redirects (meta refresh)`);
        continue;
      }
      const canonical = reg.canonical[target];
      if (!isFetchedOk(reg, target) || (canonical !== NO_ID && canonical !== target)) {
        const why = isFetchedOk(reg, target) ? 'is not canonical' : `answers ${describeStatus(reg, target)}`;
        await report('hreflang_bad_target', id, `hreflang ${lang} → ${reg.url(target)} ${why}`);
        continue;
      }
      const back = input.hreflang.get(target);
      if (!back || !back.some((b) => b.target === id)) {
        await report('hreflang_no_return', id, `hreflang ${lang} → ${reg.url(target)} does not link back`);
      }
    }
  }
}

/** Pages a language needs to count as a language version of the site (one stray page in another language is not one). */
export const MIN_LANGUAGE_VERSION_PAGES = 2;

/**
 * hreflang_missing, once for the site (on the start URL): the HTML pages answering 2xx (meta-refresh
 * stubs aside) fall into language versions (page/page-language.ts: declared, else named by the URL)
 * of at least two primary languages with MIN_LANGUAGE_VERSION_PAGES pages each, and
 * - no page or sitemap declares any hreflang (`annotations` null): every version is named;
 * - or some do, but a language has no page that carries an annotation or is the target of one,
 *   while another language has: those are named, with the annotated ones (a translation added
 *   after the others were annotated, a section the template's hreflang block does not reach).
 *   Which single pages of an annotated version lack their alternates is not told: a page may
 *   have no translation.
 * `en` and `en-us` pages alone are one language, not two versions. Languages only URLs name count
 * when URLs name two of them or more (`/fr/…` and `/de/…`): a lone folder that happens to be a
 * language code (`/id/…`) beside undeclared pages is no translation.
 */
async function languageVersionsWithoutHreflang(reg: UrlRegistry, report: Report, annotations: SiteAuditInput['hreflang'] | null): Promise<void> {
  // A byte a URL (a million pages: 1 MB), not a set entry per annotated page.
  const covered = new Uint8Array(annotations ? reg.size : 0);
  for (const [id, entries] of annotations ?? []) {
    covered[id] = 1;
    for (const { target } of entries) if (isId(target)) covered[target] = 1;
  }
  // fromUrl: every page of the version has its language from its URL; urlPages: how many do.
  const versions = new Map<string, { pages: number; example: number; fromUrl: boolean; urlPages: number; annotated: boolean }>();
  let start = -1;
  for (let id = 0; id < reg.size; id++) {
    if (reg.has(id, Flag.Start)) start = id;
    if (!isFetchedOk(reg, id) || !reg.has(id, Flag.Internal) || !reg.has(id, Flag.Html) || reg.has(id, Flag.RefreshRedirect)) continue;
    const lang = reg.languageOf(id);
    if (lang === null) continue;
    const v = versions.get(lang.tag);
    if (v) {
      v.pages++;
      v.fromUrl &&= lang.fromUrl;
      if (lang.fromUrl) v.urlPages++;
      v.annotated ||= covered[id] === 1;
    } else versions.set(lang.tag, { pages: 1, example: id, fromUrl: lang.fromUrl, urlPages: lang.fromUrl ? 1 : 0, annotated: covered[id] === 1 });
  }
  const primary = (tag: string) => tag.split('-')[0];
  // The languages URLs name (on two pages or more each), whether or not some of those pages also
  // declare theirs: `.en.html`, `.ja.html` and `.zh-cn.html` are three, though ch01.ja.html says lang="ja".
  const namedByUrls = new Set([...versions].filter(([, v]) => v.urlPages >= MIN_LANGUAGE_VERSION_PAGES).map(([tag]) => primary(tag)));
  if (namedByUrls.size < 2) for (const [tag, v] of versions) if (v.fromUrl) versions.delete(tag);
  const primaries = new Map<string, { pages: number; annotated: boolean }>();
  for (const [tag, v] of versions) {
    const p = primaries.get(primary(tag)) ?? { pages: 0, annotated: false };
    primaries.set(primary(tag), { pages: p.pages + v.pages, annotated: p.annotated || v.annotated });
  }
  const languages = [...primaries].filter(([, p]) => p.pages >= MIN_LANGUAGE_VERSION_PAGES);
  if (languages.length < 2 || start < 0) return;
  const listed = (keep: (tag: string) => boolean) =>
    [...versions].filter(([tag]) => keep(tag)).sort((a, b) => b[1].pages - a[1].pages || (a[0] < b[0] ? -1 : 1)).map(([lang, v]) => ({ lang, pages: v.pages, example: reg.url(v.example) }));
  if (annotations === null) return report('hreflang_missing', start, D.hreflangMissing(listed(() => true)));
  const bare = new Set(languages.filter(([, p]) => !p.annotated).map(([lang]) => lang));
  const annotated = [...primaries].filter(([, p]) => p.annotated).map(([lang]) => lang).sort();
  if (bare.size === 0 || annotated.length === 0) return;
  const of = [...primaries.values()].filter((p) => p.annotated || p.pages >= MIN_LANGUAGE_VERSION_PAGES).length;
  await report('hreflang_missing', start, D.hreflangPartial(listed((tag) => bare.has(primary(tag))), of, annotated));
}

/**
 * An orphan: a page answering 2xx (not a redirect) that no chain of links from the start
 * reaches. Listed in a sitemap with no internal link at all, or reached only from the sitemaps
 * (pages of a translation linking to each other, never to the start): either way no click depth.
 */
function isOrphan(reg: UrlRegistry, id: number): boolean {
  if (reg.has(id, Flag.Start) || !isFetchedOk(reg, id) || reg.has(id, Flag.RefreshRedirect)) return false;
  return (reg.has(id, Flag.InSitemap) && reg.inlinks[id] === 0) || (reg.has(id, Flag.NoClickDepth) && reg.has(id, Flag.Html));
}

/** Orphans per sitemap file (index 0: pages no sitemap lists). */
function orphanCounts(reg: UrlRegistry): Map<number, number> {
  const counts = new Map<number, number>();
  for (let id = 0; id < reg.size; id++) {
    if (reg.state[id] === State.Done && reg.has(id, Flag.Internal) && isOrphan(reg, id)) counts.set(reg.sitemapFile[id], (counts.get(reg.sitemapFile[id]) ?? 0) + 1);
  }
  return counts;
}

function orphanDetails(reg: UrlRegistry, id: number, counts: Map<number, number>, files: readonly string[]): string {
  const file = reg.sitemapFile[id];
  const n = counts.get(file) ?? 1;
  if (file === 0 || files[file - 1] === undefined) {
    return reg.has(id, Flag.InSitemap) ? 'listed in the sitemap, no internal link points to it' : D.orphanLinked(n);
  }
  return reg.inlinks[id] === 0 ? D.orphanListed(files[file - 1], n, false) : D.orphanListed(files[file - 1], n, true);
}

function describeStatus(reg: UrlRegistry, id: number): string {
  if (reg.has(id, Flag.Failed)) return reg.has(id, Flag.Loop) ? 'a redirect loop' : 'no response';
  return `status ${reg.status[id]}`;
}

async function canonicalTarget(reg: UrlRegistry, id: number, report: Report): Promise<void> {
  const target = reg.canonical[id];
  if (!isId(target) || target === id || reg.state[target] !== State.Done) return;
  if (reg.has(target, Flag.Protection) || reg.has(target, Flag.Blocked)) return;
  const url = reg.url(target);
  const status = reg.status[target];
  if (reg.has(target, Flag.Failed) || status >= 400) {
    await report('canonical_to_error', id, `canonical ${url} answers ${describeStatus(reg, target)}`);
  } else if (status >= 300 && status < 400) {
    await report('canonical_to_redirect', id, `canonical ${url} redirects (status ${status})`);
  } else if (reg.has(target, Flag.RefreshRedirect)) {
    await report('canonical_to_redirect', id, `canonical ${url} redirects (meta refresh)`);
  } else if (reg.has(target, Flag.Noindex)) {
    await report('canonical_to_noindex', id, `canonical ${url} is noindex`);
  } else {
    const next = reg.canonical[target];
    if (isId(next) && next !== target) {
      await report('canonical_chain', id, next === id ? `canonical loop: ${url} points back here` : `canonical chain: ${url} → ${reg.url(next)}`);
    }
  }
}

/** A sitemap URL that should not be listed, by why: blocked, broken, redirecting, noindex, not canonical. */
async function sitemapEntry(reg: UrlRegistry, id: number, report: Report): Promise<void> {
  if (reg.has(id, Flag.Protection)) return;
  const status = reg.status[id];
  let found: [CheckName, string] | null = null;
  if (reg.has(id, Flag.Blocked)) found = ['sitemap_blocked', 'blocked by robots.txt'];
  else if (reg.has(id, Flag.Failed) || status >= 400 || status < 200) found = ['sitemap_bad_url', describeStatus(reg, id)];
  else if (status >= 300) found = ['sitemap_redirect', `redirects (status ${status})`];
  else if (reg.has(id, Flag.RefreshRedirect)) found = ['sitemap_redirect', 'redirects (meta refresh)'];
  else if (status !== 200) found = ['sitemap_bad_url', `status ${status}`];
  else if (reg.has(id, Flag.Noindex)) found = ['sitemap_noindex', 'noindex'];
  // A canonical to another site is the page's canonical_cross_domain: one cause, one finding.
  else if (reg.canonical[id] !== NO_ID && reg.canonical[id] !== OFF_SITE_ID && reg.canonical[id] !== id) found = ['sitemap_non_canonical', 'not canonical'];
  if (found) await report(found[0], id, D.sitemapEntry(found[1]));
}

/**
 * Near-duplicates: simhash Hamming distance ≤ 64 × (1 − threshold/100), excluding exact
 * duplicates (already reported). All pairs up to PAIRWISE_LIMIT candidates; above it, the indexed
 * search of near-duplicates.ts, which finds the same pairs in about linear time, and within a large
 * cluster of close pages counts at least how many each page is close to.
 */
async function nearDuplicates(input: SiteAuditInput, ids: Uint32Array): Promise<void> {
  const { registry: reg } = input;
  const maxDistance = Math.floor(64 * (1 - Math.min(100, Math.max(0, input.duplicationThreshold)) / 100) + 1e-9);
  const search = ids.length <= (input.pairwiseLimit ?? PAIRWISE_LIMIT) ? nearDuplicatesPairwise : nearDuplicatesIndexed;
  const matches = search(reg, ids, maxDistance);
  for (const id of ids) {
    const m = matches.get(id);
    if (m) await input.report('near_duplicate_content', id, `similar (≥ ${input.duplicationThreshold}%) to ${m.atLeast ? 'at least ' : ''}${m.count} page(s), e.g. ${reg.url(m.example)}`);
  }
}
