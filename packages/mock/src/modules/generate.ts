/**
 * The pages and issues a mock crawl "finds": a fixed small site shape, with numbers drawn from a
 * generator seeded by the crawl id, so one crawl always yields the same report whatever else the
 * test did. Severities and categories come from the shared check catalogue; the checks of the
 * deeper catalogue carry their details from the crawler's own templates (CHECK_DETAILS), so they
 * read (and translate to French) as a real crawl's do.
 */
import { CHECK_DETAILS as D, CHECKS, SEVERITY_RANK, type CheckName, type IssueOccurrence, type PageResource } from '@siteaudit/schema';
import type { CampaignRecord, PageRecord } from '../db.js';
import { createRandom } from '../random.js';

interface PageShape {
  path: string;
  external?: boolean;
  depth: number;
  status: number | null;
  errorType?: string;
  title?: string | null;
  description?: string | null;
  h1?: string | null;
  words?: [number, number];
  imagesWithoutAlt?: number;
  protection?: boolean;
  issues?: Omit<IssueOccurrence, 'url'>[];
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
    issues: [issue('image_missing_alt', '1 image has no alt text')],
  },
  { path: '/about', depth: 1, status: 200, title: 'About us', h1: 'About us', words: [350, 500], issues: [issue('single_inlink', D.singleInlink())] },
  {
    path: '/contact',
    depth: 1,
    status: 200,
    title: 'Contact',
    description: null,
    h1: 'Contact us',
    words: [220, 300],
    issues: [issue('description_missing', 'No meta description')],
  },
  {
    path: '/blog',
    depth: 1,
    status: 200,
    title: 'Blog',
    h1: 'Blog',
    words: [300, 450],
    issues: [
      issue('link_to_redirect', 'Links to /old-page, which redirects (301)'),
      issue('anchor_text_generic', D.anchorsGeneric([{ text: 'Read more', url: '/blog/first-post' }, { text: 'Read more', url: '/blog/second-post' }])),
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
    issues: [
      issue('image_missing_alt', '2 images have no alt text'),
      issue('title_too_long', 'Title is 72 characters long (over 60)'),
    ],
  },
  {
    path: '/blog/second-post',
    depth: 2,
    status: 200,
    title: 'Second post',
    h1: 'Second post',
    words: [90, 150],
    issues: [
      issue('broken_internal_link', 'Links to /missing, which answers 404'),
      issue('thin_content', 'Fewer than 200 words'),
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
    issues: [issue('description_missing', 'No meta description')],
  },
  {
    path: '/products/widget',
    depth: 2,
    status: 200,
    title: 'Widget',
    h1: null,
    words: [300, 380],
    issues: [
      issue('h1_missing', 'No h1 heading'),
      issue('schema_product_incomplete', D.schemaIncomplete('Product', ['offers | review | aggregateRating'])),
      issue('not_in_sitemap', D.notInSitemap()),
    ],
  },
  { path: '/old-page', depth: 1, status: 301, issues: [issue('sitemap_redirect', D.sitemapEntry('redirects (status 301)'))] },
  {
    path: '/missing',
    depth: 2,
    status: 404,
    issues: [issue('http_4xx', 'Internal page answered 404')],
  },
  {
    path: '/slow',
    depth: 2,
    status: null,
    errorType: 'timeout',
    issues: [issue('fetch_failed', 'No response within 20 s (timeout)')],
  },
  { path: 'https://external.example.org/', external: true, depth: 1, status: 200, title: 'External', h1: 'External', words: [200, 400] },
  // A bot-challenge interstitial: counted in protection_occurrences, never as the page's issues.
  { path: '/cdn-cgi/challenge', depth: 2, status: 403, protection: true },
];

/** An occurrence of a catalogue check, with the catalogue's severity and category. */
/** The sound stylesheet and script every HTML page of the mock site loads. */
function siteResources(origin: string): PageResource[] {
  const sound = { final_status_code: 200, redirect_url: null, error_type: null };
  return [
    { url: `${origin}/assets/site.css`, type: 'stylesheet', status_code: 200, ...sound, content_type: 'text/css', size_bytes: 18_400 },
    { url: `${origin}/assets/app.js`, type: 'script', status_code: 200, ...sound, content_type: 'text/javascript', size_bytes: 52_300 },
  ];
}

function issue(name: CheckName, details: string): Omit<IssueOccurrence, 'url'> {
  return { name, severity: CHECKS[name].severity, category: CHECKS[name].category, details };
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
  const shapes = SITE.filter((s) => s.depth <= campaign.max_depth);
  const kept = shapes.slice(0, campaign.max_urls);
  const pages: PageRecord[] = kept.map((shape) => {
    const url = shape.external ? shape.path : new URL(shape.path, origin).href;
    const html = shape.status !== null && shape.status < 300;
    const issues = (shape.issues ?? []).map((i) => ({ ...i, url })).sort(compareIssues);
    const images = html ? random.int(2, 12) : 0;
    return {
      url,
      status_code: shape.status,
      error_type: shape.errorType ?? null,
      content_type: shape.status === null ? null : 'text/html; charset=utf-8',
      is_internal: !shape.external,
      depth: shape.depth,
      title: html ? (shape.title === 'Home' ? `${site} — Home` : (shape.title ?? null)) : null,
      meta_description: html ? (shape.description === null ? null : `${shape.title ?? 'Page'} of ${site}.`) : null,
      h1: html ? (shape.h1 ?? null) : null,
      word_count: html && shape.words ? random.int(shape.words[0], shape.words[1]) : null,
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
