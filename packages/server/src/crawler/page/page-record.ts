/** Building a page record: the empty shape, and the fields filled from an analysed page. */
import type { HtmlFacts } from './html-analyser.js';
import type { PageSummary } from './page-facts.js';
import type { TextDigest } from './page-digest.js';
import type { AccessibilityFinding, DiscoveredVia, PageRecord } from '../crawl-types.js';

/** A record with nothing known yet but its URL and how the crawl reached it. */
export function emptyRecord(url: string, depth: number, via: DiscoveredVia, internal: boolean): PageRecord {
  return {
    url,
    status_code: null,
    error_type: null,
    content_type: null,
    is_internal: internal,
    depth,
    title: null,
    meta_description: null,
    h1: null,
    word_count: null,
    canonical_url: null,
    response_time_ms: null,
    size_bytes: null,
    internal_links: 0,
    external_links: 0,
    images: 0,
    images_without_alt: 0,
    discovered_via: via,
    redirect_url: null,
    redirect_chain: [],
    protection: false,
    indexable: false,
    meta_robots: null,
    x_robots_tag: null,
    lang: null,
    viewport: null,
    hreflang: [],
    og: { title: null, description: null, image: null },
    json_ld: [],
    headings: [],
    content_hash: null,
    simhash: null,
    body_truncated: false,
    content_encoding: null,
  };
}

/** Internal links a page record carries for the inlinks read: the first ones of the page. */
export const LINKS_KEPT = 1_000;

/** Fills `record` with what the analysis of its HTML found. */
export function fillFromAnalysis(record: PageRecord, summary: PageSummary, html: HtmlFacts, digest: TextDigest): void {
  Object.assign(record, {
    title: summary.title,
    meta_description: summary.metaDescription,
    h1: summary.h1,
    word_count: summary.wordCount,
    canonical_url: summary.declaredCanonical,
    internal_links: summary.internalLinks.length,
    external_links: summary.externalLinks.length,
    images: html.images.length,
    images_without_alt: summary.imagesWithoutAlt,
    indexable: summary.indexable,
    meta_robots: summary.metaRobots,
    lang: html.lang,
    viewport: html.viewport,
    hreflang: summary.hreflang.map((h) => ({ lang: h.lang, href: h.url })),
    og: html.og,
    json_ld: parseJsonLd(html.jsonLd),
    headings: html.headings,
    content_hash: digest.contentHash,
    simhash: digest.simhash,
    redirect_url: summary.refreshRedirect ? summary.metaRefreshUrl : null,
  } satisfies Partial<PageRecord>);
  const links = summary.internalLinks
    .filter((l) => l.url !== record.url)
    .slice(0, LINKS_KEPT)
    .map(({ url, text, nofollow }) => ({ url, text, nofollow: nofollow || summary.nofollow }));
  if (links.length) record.links = links;
}

/** Parsed JSON-LD blocks, up to a total size, so a page record stays small. */
export function parseJsonLd(blocks: string[]): unknown[] {
  const out: unknown[] = [];
  let budget = 32 * 1024;
  for (const block of blocks) {
    if (block.length > budget) break;
    try {
      out.push(JSON.parse(block));
      budget -= block.length;
    } catch {
      // reported by jsonld_invalid
    }
  }
  return out;
}

/** "Images must have alternative text: 2 elements, img.logo, #hero > img" (at most 3 selectors, then "(+n)"). */
export function accessibilityDetails(f: AccessibilityFinding): string {
  const shown = f.targets.slice(0, 3).join(', ');
  const more = f.nodes > 3 ? ` (+${f.nodes - 3})` : '';
  return `${f.help}: ${f.nodes} element${f.nodes === 1 ? '' : 's'}${shown ? `, ${shown}${more}` : ''}`.slice(0, 1000);
}
