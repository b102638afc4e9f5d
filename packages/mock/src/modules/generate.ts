/**
 * The pages and issues a mock crawl "finds": a fixed small site shape, with numbers drawn from a
 * generator seeded by the crawl id, so one crawl always yields the same report whatever else the
 * test did. Severities and categories come from the shared check catalogue; each occurrence's
 * `details` is the text the crawler writes for that check (packages/server/src/crawler; the deeper
 * catalogue's from the shared templates, CHECK_DETAILS), so answers localise it with the same
 * templates (`localiseIssueDetails`).
 */
import { type IssueOccurrence, type PageResource } from '@siteaudit/schema';
import { CHECK_DETAILS as D, CHECKS, SEVERITY_RANK, type CheckName } from '@siteaudit/schema/rules';
import type { CampaignRecord, PageRecord } from '../db.js';
import { createRandom } from '../random.js';

interface PageShape {
  path: string;
  external?: boolean;
  /** Click depth; null for a page only the sitemap leads to (an orphan). */
  depth: number | null;
  status: number | null;
  errorType?: string;
  title?: string | null;
  description?: string | null;
  h1?: string | null;
  words?: [number, number];
  imagesWithoutAlt?: number;
  protection?: boolean;
  /** The page's findings, as [check, details] in the crawler's wording. */
  issues?: (page: PageFacts) => [CheckName, string][];
}

/** What a page's details are written from. */
interface PageFacts {
  origin: string;
  title: string | null;
  wordCount: number | null;
}

const SITE: PageShape[] = [
  {
    path: '/',
    depth: 0,
    status: 200,
    title: 'Home',
    h1: 'Welcome',
    words: [600, 900],
    imagesWithoutAlt: 1,
    issues: ({ origin }) => [
      ['image_missing_alt', `1 image(s) without alt: ${origin}/images/hero.jpg`],
      // Site-level: the French version (two sitemap-only pages) and the English one, no hreflang anywhere.
      ['hreflang_missing', D.hreflangMissing([{ lang: 'en', pages: 8, example: `${origin}/` }, { lang: 'fr', pages: 2, example: `${origin}/fr/` }])],
    ],
  },
  { path: '/about', depth: 1, status: 200, title: 'About us', h1: 'About us', words: [350, 500], issues: () => [['single_inlink', D.singleInlink()]] },
  {
    path: '/contact',
    depth: 1,
    status: 200,
    title: 'Contact',
    description: null,
    h1: 'Contact us',
    words: [220, 300],
    issues: () => [['description_missing', 'no meta description']],
  },
  {
    path: '/blog',
    depth: 1,
    status: 200,
    title: 'Blog',
    h1: 'Blog',
    words: [300, 450],
    issues: ({ origin }) => [
      ['link_to_redirect', `link to ${origin}/old-page: redirects (status 301)`],
      ['anchor_text_generic', D.anchorsGeneric([{ text: 'Read more', url: `${origin}/blog/first-post` }, { text: 'Read more', url: `${origin}/blog/second-post` }])],
    ],
  },
  {
    path: '/blog/first-post',
    depth: 2,
    status: 200,
    title: 'Our first post: a very long title that goes well beyond sixty characters',
    h1: 'Our first post',
    words: [900, 1400],
    imagesWithoutAlt: 2,
    issues: ({ origin, title }) => [
      ['image_missing_alt', `2 image(s) without alt: ${origin}/images/first-post.jpg, ${origin}/images/first-post-2.jpg`],
      ['title_too_long', `${[...(title ?? '')].length} characters`],
    ],
  },
  {
    path: '/blog/second-post',
    depth: 2,
    status: 200,
    title: 'Second post',
    h1: 'Second post',
    words: [90, 150],
    issues: ({ origin, wordCount }) => [
      ['broken_internal_link', `link to ${origin}/missing: status 404`],
      ['thin_content', `${wordCount} words`],
    ],
  },
  {
    path: '/products',
    depth: 1,
    status: 200,
    title: 'Products',
    description: null,
    h1: 'Products',
    words: [250, 400],
    issues: () => [['description_missing', 'no meta description']],
  },
  {
    path: '/products/widget',
    depth: 2,
    status: 200,
    title: 'Widget',
    h1: null,
    words: [300, 380],
    issues: () => [
      ['h1_missing', 'no <h1>'],
      ['schema_product_incomplete', D.schemaIncomplete('Product', ['offers | review | aggregateRating'])],
      ['not_in_sitemap', D.notInSitemap()],
    ],
  },
  { path: '/old-page', depth: 1, status: 301, issues: () => [['sitemap_redirect', D.sitemapEntry('redirects (status 301)')]] },
  {
    path: '/missing',
    depth: 2,
    status: 404,
    issues: () => [['http_4xx', 'status 404']],
  },
  {
    path: '/slow',
    depth: 2,
    status: null,
    errorType: 'timeout',
    // The message of the crawler's deadline (AbortSignal.timeout), after the error type.
    issues: () => [['fetch_failed', 'timeout: The operation was aborted due to timeout']],
  },
  { path: 'https://external.example.org/', external: true, depth: 1, status: 200, title: 'External', h1: 'External', words: [200, 400] },
  // A bot-challenge interstitial: counted in protection_occurrences, never as the page's issues.
  { path: '/cdn-cgi/challenge', depth: 2, status: 403, protection: true },
  // A page only the sitemap lists: no click depth, an orphan.
  {
    path: '/fr/',
    depth: null,
    status: 200,
    title: 'Accueil en français',
    h1: 'Bienvenue',
    words: [400, 600],
    issues: ({ origin }) => [['orphan_page', D.orphanListed(`${origin}/sitemap.xml`, 2, false)]],
  },
  {
    path: '/fr/contact',
    depth: null,
    status: 200,
    title: 'Nous contacter',
    h1: 'Nous contacter',
    words: [220, 300],
    issues: ({ origin }) => [['orphan_page', D.orphanListed(`${origin}/sitemap.xml`, 2, false)]],
  },
];

/** The sound stylesheet and script every HTML page of the mock site loads. */
function siteResources(origin: string): PageResource[] {
  const sound = { final_status_code: 200, redirect_url: null, error_type: null };
  return [
    { url: `${origin}/assets/site.css`, type: 'stylesheet', status_code: 200, ...sound, content_type: 'text/css', size_bytes: 18_400 },
    { url: `${origin}/assets/app.js`, type: 'script', status_code: 200, ...sound, content_type: 'text/javascript', size_bytes: 52_300 },
  ];
}

/** An occurrence of a catalogue check, with the catalogue's severity and category. */
function issue(name: CheckName, url: string, details: string): IssueOccurrence {
  return { name, severity: CHECKS[name].severity, category: CHECKS[name].category, url, details };
}

/** Errors first, then by name and URL: the stable order of every issue list. */
export function compareIssues(a: IssueOccurrence, b: IssueOccurrence): number {
  return SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || a.name.localeCompare(b.name) || a.url.localeCompare(b.url);
}

export interface CrawlFindings {
  pages: PageRecord[];
  issues: IssueOccurrence[];
  discovered: number;
  protection: number;
  truncated: boolean;
}

export function generateFindings(crawlId: string, campaign: CampaignRecord): CrawlFindings {
  const random = createRandom(`crawl:${crawlId}`);
  const origin = new URL(campaign.start_url).origin;
  const site = new URL(campaign.start_url).hostname;
  // The crawler queues sitemap-only pages one level below the start.
  const shapes = SITE.filter((s) => (s.depth ?? 1) <= campaign.max_depth);
  const kept = shapes.slice(0, campaign.max_urls);
  const pages: PageRecord[] = kept.map((shape) => {
    const url = shape.external ? shape.path : new URL(shape.path, origin).href;
    const html = shape.status !== null && shape.status < 300;
    const images = html ? random.int(2, 12) : 0;
    const title = html ? (shape.title === 'Home' ? `${site} — Home` : (shape.title ?? null)) : null;
    const wordCount = html && shape.words ? random.int(shape.words[0], shape.words[1]) : null;
    const issues = (shape.issues?.({ origin, title, wordCount }) ?? []).map(([name, details]) => issue(name, url, details)).sort(compareIssues);
    return {
      url,
      status_code: shape.status,
      error_type: shape.errorType ?? null,
      content_type: shape.status === null ? null : 'text/html; charset=utf-8',
      is_internal: !shape.external,
      depth: shape.depth,
      title,
      meta_description: html ? (shape.description === null ? null : `${shape.title ?? 'Page'} of ${site}.`) : null,
      h1: html ? (shape.h1 ?? null) : null,
      word_count: wordCount,
      canonical_url: html ? url : null,
      response_time_ms: shape.status === null ? null : random.int(60, 700),
      size_bytes: shape.status === null ? null : random.int(4_000, 90_000),
      internal_links: html ? random.int(5, 30) : 0,
      external_links: html ? random.int(0, 4) : 0,
      images,
      images_without_alt: Math.min(images, shape.imagesWithoutAlt ?? 0),
      issues,
      protection: shape.protection ?? false,
      resources: html && !shape.external ? siteResources(origin) : [],
    };
  });
  return {
    pages,
    issues: pages.flatMap((p) => p.issues).sort(compareIssues),
    discovered: shapes.length,
    protection: pages.filter((p) => p.protection).length,
    truncated: kept.length < shapes.length,
  };
}
