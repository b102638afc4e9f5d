import type { CrawledPage, IssueOccurrence, IssueSummary, PageSpeedResult } from '@siteaudit/schema';
import { auditedData, checksAxis, CONTENT_AXES, contentAxes, noComputation, productComputation, type ScoreData, TECHNIQUE_AXES, techniqueAxes } from '@siteaudit/schema/rules';
import type { ExportLanguage, ExportSource, HealthPoint, ReportPillar } from '../../packages/server/src/reports/index.js';

/**
 * Issue catalogue of the synthetic crawl: checks of the real catalogue (their labels are what the
 * reports print), plus an accessibility finding named after its axe rule.
 */
export const CATALOGUE = [
  { name: 'title_missing', severity: 'error', category: 'titles' },
  { name: 'broken_internal_link', severity: 'error', category: 'http' },
  { name: 'http_5xx', severity: 'error', category: 'http' },
  { name: 'description_missing', severity: 'warning', category: 'titles' },
  { name: 'slow_response', severity: 'warning', category: 'performance_security' },
  { name: 'h1_missing', severity: 'warning', category: 'content' },
  { name: 'redirect_chain', severity: 'warning', category: 'http' },
  { name: 'a11y_color-contrast', severity: 'info', category: 'accessibility' },
  { name: 'image_missing_alt', severity: 'warning', category: 'links_images' },
  { name: 'canonical_relative', severity: 'info', category: 'canonicals' },
] as const satisfies readonly { name: string; severity: IssueOccurrence['severity']; category: string }[];

/** English catalogue labels of the synthetic checks, as the reports print them. */
export const CATALOGUE_LABELS_EN: Record<string, string> = {
  title_missing: 'Title missing or empty',
  broken_internal_link: 'Broken internal link',
  http_5xx: 'Server error (5xx)',
  description_missing: 'Meta description missing',
  slow_response: 'Response time over 800 ms',
  h1_missing: 'No h1',
  redirect_chain: 'Redirect chain of more than one hop',
  'a11y_color-contrast': 'Accessibility: Elements must meet minimum color contrast ratio thresholds',
  image_missing_alt: 'Image without alt',
  canonical_relative: 'Relative canonical URL',
};

/** An embedder's own labels, asked before the catalogue. */
export const LABELS: Record<string, string> = {
  title_missing: 'Missing <title> tag',
  broken_internal_link: 'Broken internal link',
};

export interface SyntheticOptions {
  pages?: number;
  issuesPerPage?: number;
  language?: ExportLanguage;
  pagespeed?: PageSpeedResult | null;
  healthScore?: number | null;
  labels?: boolean;
  projectName?: string;
  /** Include the scorecard (default true). */
  scorecard?: boolean;
  /** Crawls in the health score history, this one included (default 6; 0 for none). */
  history?: number;
}

/** Counts what the renderers pulled, to check that streams are read lazily and closed early. */
export interface StreamStats {
  issuesYielded: number;
  pagesYielded: number;
  issuesClosedEarly: boolean;
  pagesClosedEarly: boolean;
}

const CRAWL_ID = '6f1c2a9e-4b7d-4c3e-9a51-2d8e7f0b1c34';

function pageUrl(i: number): string {
  return i === 0 ? 'https://www.acme.example/' : `https://www.acme.example/catalogue/product-${i}?ref=nav&sort=price`;
}

/** The k-th issue of page p; deterministic, so the summary can be computed without storing anything. */
function issueAt(p: number, k: number): IssueOccurrence {
  const entry = CATALOGUE[(p * 3 + k * 7) % CATALOGUE.length];
  return {
    name: entry.name,
    severity: entry.severity,
    category: entry.category,
    url: pageUrl(p),
    details: `Found on element #${k} (page ${p})`,
  };
}

function pageAt(i: number): CrawledPage {
  const broken = i % 97 === 13;
  const unreachable = i % 211 === 17;
  return {
    url: pageUrl(i),
    status_code: unreachable ? null : broken ? 404 : i % 53 === 5 ? 301 : 200,
    error_type: unreachable ? 'timeout' : null,
    content_type: unreachable ? null : 'text/html; charset=utf-8',
    is_internal: i % 10 !== 9,
    depth: Math.min(i, 1 + (i % 6)),
    // Accents, typographic signs and characters outside WinAnsi (CJK, emoji) on purpose.
    title: unreachable ? null : i % 5 === 0 ? `Café « déco » n°${i} — 日本 ☕` : `Product ${i} – Acme Boutique`,
    meta_description: i % 4 === 0 ? null : `Buy product ${i} online. Free delivery over 50 €.`,
    h1: `Product ${i}`,
    word_count: unreachable ? null : 150 + ((i * 37) % 1200),
    canonical_url: i % 7 === 0 ? pageUrl(0) : pageUrl(i),
    response_time_ms: unreachable ? null : 80 + ((i * 13) % 900) + 0.5,
    size_bytes: unreachable ? null : 20_000 + ((i * 101) % 80_000),
    internal_links: 20 + (i % 40),
    external_links: i % 6,
    images: i % 12,
    images_without_alt: i % 3 === 0 ? i % 4 : 0,
  };
}

export function samplePageSpeed(): PageSpeedResult {
  return {
    crawl_id: CRAWL_ID,
    status: 'measured',
    provider: 'lighthouse',
    skip_reason: null,
    mobile: { score: 61.4, pages_measured: 3, pages_failed: 1 },
    desktop: null,
    combined: 61.4,
    failed: false,
    sample: [
      { url: 'https://www.acme.example/', role: 'home', mobile: 64, desktop: null, error: null },
      { url: 'https://www.acme.example/catalogue/', role: 'category', mobile: 58.8, desktop: null, error: 'desktop: timeout' },
    ],
    measured_at: '2025-03-12T14:20:00.000Z',
  };
}

const TECHNIQUE = [...TECHNIQUE_AXES] as string[];
const CONTENT = [...CONTENT_AXES] as string[];

/** The checks behind the sample scorecard: 200 scored URLs, 180 of them HTML pages, the synthetic catalogue's checks. */
export const SCORE_DATA: ScoreData = {
  pages: 200,
  htmlPages: 180,
  checks: [
    { name: 'broken_internal_link', severity: 'error', category: 'http', pages: 6 },
    { name: 'http_5xx', severity: 'error', category: 'http', pages: 2 },
    { name: 'redirect_chain', severity: 'warning', category: 'http', pages: 9 },
    { name: 'slow_response', severity: 'warning', category: 'performance_security', pages: 20 },
    { name: 'image_missing_alt', severity: 'warning', category: 'links_images', pages: 30 },
    { name: 'canonical_relative', severity: 'info', category: 'canonicals', pages: 5 },
    { name: 'title_missing', severity: 'error', category: 'titles', pages: 8 },
    { name: 'description_missing', severity: 'warning', category: 'titles', pages: 40 },
    { name: 'h1_missing', severity: 'warning', category: 'content', pages: 12 },
  ],
};

/** The five pillars as the server computes them for a crawl like this one (the shared rules, PageSpeed 61.4). */
export function sampleScorecard(): ReportPillar[] {
  const asOf = '2025-03-12T14:31:45.000Z';
  const pillar = (p: Omit<ReportPillar, 'version' | 'available' | 'as_of' | 'score' | 'computation'> & { available?: boolean; as_of?: string | null; computation?: ReportPillar['computation'] }): ReportPillar => {
    const computation = p.computation ?? noComputation(p.key);
    return { version: 1, available: true, as_of: asOf, ...p, computation, score: computation.exact === null ? null : Math.round(computation.exact) };
  };
  const technique = techniqueAxes(SCORE_DATA, 61.4);
  const content = contentAxes(SCORE_DATA, false).axes;
  const audited = auditedData(180, [{ name: 'a11y_color-contrast', severity: 'warning', category: 'accessibility', pages: 2 }]);
  const accessibility = [checksAxis('axe_fetched_html', audited, ['accessibility'])];
  return [
    pillar({ key: 'technique', status: 'measured', blocked_reason: null, categories: TECHNIQUE, axes: technique, computation: productComputation(technique, SCORE_DATA) }),
    pillar({ key: 'contenu', status: 'measured', blocked_reason: 'ai_reachability_not_checked', categories: CONTENT, axes: content, computation: productComputation(content, SCORE_DATA) }),
    pillar({ key: 'accessibilite', status: 'measured', blocked_reason: null, categories: ['accessibility'], axes: accessibility, computation: productComputation(accessibility, audited) }),
    pillar({ key: 'acquisition', status: 'not_measured', blocked_reason: 'search_console_not_linked', categories: [], axes: [], as_of: null }),
    pillar({ key: 'logs', status: 'unavailable', available: false, blocked_reason: 'log_exploration_unavailable', categories: [], axes: [], as_of: null }),
  ];
}

/** `count` comparable crawls a week apart, the last one being this crawl. */
export function sampleHistory(count: number, last: number | null): HealthPoint[] {
  const scores = [58, 61, null, 66, 64, 70, 69, 71, 74, 72, 75];
  return Array.from({ length: count }, (_, i) => {
    const back = count - 1 - i;
    const finished = new Date(Date.parse('2025-03-12T14:31:45.000Z') - back * 7 * 86_400_000).toISOString();
    return {
      crawl_id: back === 0 ? CRAWL_ID : `00000000-0000-4000-8000-${String(back).padStart(12, '0')}`,
      finished_at: finished,
      health_score: back === 0 ? last : scores[(scores.length - back) % scores.length],
    };
  });
}

export function syntheticSource(options: SyntheticOptions = {}): { source: ExportSource; stats: StreamStats } {
  const pageCount = options.pages ?? 20;
  const perPage = options.issuesPerPage ?? 5;
  const stats: StreamStats = { issuesYielded: 0, pagesYielded: 0, issuesClosedEarly: false, pagesClosedEarly: false };

  const counts = new Map<string, number>();
  for (let p = 0; p < pageCount; p++) {
    for (let k = 0; k < perPage; k++) {
      const name = issueAt(p, k).name;
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
  }
  const groups: IssueSummary['groups'] = CATALOGUE.filter((c) => counts.has(c.name)).map((c) => ({
    name: c.name,
    label: c.name,
    severity: c.severity,
    category: c.category,
    occurrences: counts.get(c.name)!,
    pages: Math.min(pageCount, counts.get(c.name)!),
    templates: [],
  }));
  const totals = { error: 0, warning: 0, info: 0 };
  for (const g of groups) totals[g.severity] += g.occurrences;

  const source: ExportSource = {
    project: { name: options.projectName ?? 'Acme Boutique', url: 'https://www.acme.example/', domain: 'www.acme.example' },
    crawl: {
      id: CRAWL_ID,
      status: 'completed',
      started_at: '2025-03-12T13:58:07.000Z',
      finished_at: '2025-03-12T14:31:45.000Z',
      pages: { crawled: pageCount, discovered: pageCount + Math.floor(pageCount / 10), budget: Math.max(pageCount, 10_000) },
      issue_counts: totals,
    },
    healthScore: options.healthScore === undefined ? 72.6 : options.healthScore,
    summary: { crawl_id: CRAWL_ID, totals, protection_occurrences: pageCount > 0 ? 3 : 0, groups },
    pagespeed: options.pagespeed === undefined ? samplePageSpeed() : options.pagespeed,
    scorecard: options.scorecard === false ? undefined : sampleScorecard(),
    history: sampleHistory(options.history ?? 6, options.healthScore === undefined ? 73 : options.healthScore === null ? null : Math.round(options.healthScore)),
    language: options.language ?? 'en',
    labels: options.labels ? (name) => LABELS[name] ?? name : undefined,
    async *issues() {
      let done = false;
      try {
        for (let p = 0; p < pageCount; p++) {
          for (let k = 0; k < perPage; k++) {
            stats.issuesYielded += 1;
            yield issueAt(p, k);
          }
        }
        done = true;
      } finally {
        if (!done) stats.issuesClosedEarly = true;
      }
    },
    async *pages() {
      let done = false;
      try {
        for (let i = 0; i < pageCount; i++) {
          stats.pagesYielded += 1;
          yield pageAt(i);
        }
        done = true;
      } finally {
        if (!done) stats.pagesClosedEarly = true;
      }
    },
  };
  return { source, stats };
}

export async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks);
}
