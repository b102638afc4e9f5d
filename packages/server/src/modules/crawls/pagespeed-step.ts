/**
 * The crawl's PageSpeed step (docs/decisions/pagespeed-result.md): choose the sample (the home
 * page and the top category pages of the crawl), measure it on mobile and desktop with the
 * configured provider, and summarise it as a PageSpeedResult, raising `lighthouse_mobile_slow`
 * on the pages whose mobile score is under 50. Pure parts (sample choice from rows, summary) are
 * exported for tests.
 */
import type { Knex } from 'knex';
import { htmlPagesOf } from './check-counts.js';
import { checkBasis, checkShare, compilePatterns, type ScoredPages } from '@siteaudit/schema/rules';
import { CHECKS, SEVERITY_WEIGHTS, THRESHOLDS } from '../../crawler/index.js';
import type { PageSpeedMeasurement, PageSpeedProvider, PageSpeedStrategy } from '../../providers/pagespeed.js';

import type { StoredPageSpeed } from './crawl-row.js';

export type { StoredPageSpeed };
export type SampleRole = 'home' | 'category';
export interface SampleEntry {
  url: string;
  role: SampleRole;
}

/** A page's click depth for ordering: one no link reaches (null) after every other. */
export function clickDepthOrder(depth: number | string | null): number {
  return depth === null ? Number.MAX_SAFE_INTEGER : Number(depth);
}

/** Category pages measured besides the home page: 5 pages × 2 strategies per crawl. */
export const CATEGORY_SAMPLE_SIZE = 4;
export const STRATEGIES: readonly PageSpeedStrategy[] = ['mobile', 'desktop'];

export interface CandidatePage {
  url: string;
  /** Click depth; a page no link reaches (null in the record) comes after every reached one. */
  depth: number;
  seq: number;
}

/** The first path segment under the home page's directory, or null for the home level itself. */
function sectionOf(url: string, homeDir: string): string | null {
  const path = new URL(url).pathname;
  const rest = path.startsWith(homeDir) ? path.slice(homeDir.length) : path.slice(1);
  const segment = rest.split('/')[0];
  return segment ? segment.toLowerCase() : null;
}

/**
 * The sample from the internal 2xx HTML pages of a crawl: the home page (the shallowest page,
 * first recorded on a tie: the start URL or where it redirects), then up to CATEGORY_SAMPLE_SIZE
 * sections (first path segment below the home page's directory), the largest first (most
 * pages, then shallowest), each represented by its shallowest page (then shortest URL).
 */
export function chooseSample(pages: CandidatePage[], size = CATEGORY_SAMPLE_SIZE): SampleEntry[] {
  if (pages.length === 0) return [];
  const byDepth = [...pages].sort((a, b) => a.depth - b.depth || a.seq - b.seq);
  const home = byDepth[0];
  const homePath = new URL(home.url).pathname;
  const homeDir = homePath.endsWith('/') ? homePath : homePath.slice(0, homePath.lastIndexOf('/') + 1);
  const sections = new Map<string, { count: number; best: CandidatePage }>();
  for (const page of byDepth) {
    if (page.url === home.url) continue;
    const key = sectionOf(page.url, homeDir);
    if (key === null) continue;
    const section = sections.get(key);
    if (!section) sections.set(key, { count: 1, best: page });
    else {
      section.count++;
      const b = section.best;
      if (page.depth < b.depth || (page.depth === b.depth && page.url.length < b.url.length)) section.best = page;
    }
  }
  const ranked = [...sections.entries()].sort(
    ([ka, a], [kb, b]) => b.count - a.count || a.best.depth - b.best.depth || ka.localeCompare(kb),
  );
  return [{ url: home.url, role: 'home' }, ...ranked.slice(0, size).map(([, s]) => ({ url: s.best.url, role: 'category' as const }))];
}

/** Reads the candidate pages of a crawl and chooses the sample. */
export async function selectSample(knex: Knex, crawlId: string): Promise<SampleEntry[]> {
  const rows = (await htmlPagesOf(knex, crawlId)
    .select('url', 'depth', 'seq')) as (Omit<CandidatePage, 'depth'> & { depth: number | null })[];
  return chooseSample(rows.map((r) => ({ url: r.url, depth: clickDepthOrder(r.depth), seq: Number(r.seq) })));
}

const round1 = (n: number) => Math.round(n * 10) / 10;

function average(measurements: PageSpeedMeasurement[], strategy: PageSpeedStrategy): StoredPageSpeed['mobile'] {
  const of = measurements.filter((m) => m.strategy === strategy);
  const scores = of.filter((m) => m.score !== null).map((m) => m.score!);
  // Never { score: 0, pages_measured: 0 }: a strategy measured on no page is null.
  if (scores.length === 0) return null;
  return { score: round1(scores.reduce((a, b) => a + b, 0) / scores.length), pages_measured: scores.length, pages_failed: of.length - scores.length };
}

/** The stored result of a measured sample. */
export function summarise(provider: string, sample: SampleEntry[], measurements: PageSpeedMeasurement[], measuredAt: string): StoredPageSpeed {
  const mobile = average(measurements, 'mobile');
  const desktop = average(measurements, 'desktop');
  const measured = [mobile, desktop].filter((s) => s !== null).map((s) => s!.score);
  const failed = measurements.every((m) => m.score === null);
  return {
    status: failed ? 'failed' : 'measured',
    provider,
    skip_reason: sample.length === 0 ? 'no_page_to_measure' : null,
    mobile,
    desktop,
    combined: measured.length ? round1(measured.reduce((a, b) => a + b, 0) / measured.length) : null,
    failed,
    sample: sample.map(({ url, role }) => {
      const of = (s: PageSpeedStrategy) => measurements.find((m) => m.url === url && m.strategy === s);
      const refusal = STRATEGIES.map(of).find((m) => m && m.error);
      return { url, role, mobile: of('mobile')?.score ?? null, desktop: of('desktop')?.score ?? null, error: refusal?.error ?? null };
    }),
    measured_at: measuredAt,
  };
}

export interface SlowPage {
  url: string;
  score: number;
}

/** Pages whose mobile Lighthouse score is under the threshold, minus those issue exclusion drops. */
export function slowPages(measurements: PageSpeedMeasurement[], issueExclusionPatterns: string | null): SlowPage[] {
  const excluded = compilePatterns(issueExclusionPatterns);
  return measurements
    .filter((m) => m.strategy === 'mobile' && m.score !== null && m.score < THRESHOLDS.lighthouseMobileMin && !excluded.matches(m.url))
    .map((m) => ({ url: m.url, score: m.score! }));
}

/**
 * Measures the sample with the provider. A provider that throws (anything but our own abort)
 * counts as every measurement refused with PROVIDER_ERROR: the crawl still settles.
 */
export async function measureSample(provider: PageSpeedProvider, sample: SampleEntry[], signal?: AbortSignal): Promise<PageSpeedMeasurement[]> {
  const requests = sample.flatMap(({ url }) => STRATEGIES.map((strategy) => ({ url, strategy })));
  if (requests.length === 0) return [];
  try {
    const answered = await provider.measure(requests, { signal });
    // Matched by request, so a provider answering out of order or short cannot misattribute a score.
    return requests.map((r) => answered.find((m) => m.url === r.url && m.strategy === r.strategy) ?? { ...r, score: null, error: 'NOT_MEASURED' });
  } catch (error) {
    if (signal?.aborted) throw error;
    return requests.map((r) => ({ ...r, score: null, error: 'PROVIDER_ERROR' }));
  }
}

/**
 * The technique health score with PageSpeed in it (docs/decisions/scorecard.md): the crawler's
 * score × exp(−0.12 × √(slow pages / HTML pages)) for lighthouse_mobile_slow, a warning like
 * any other, × exp(−0.35 × (1 − combined / 100)) for the combined score, which weighs like an
 * error on every page when it is 0 and costs nothing at 100.
 */
export function healthWithPageSpeed(base: number, scored: ScoredPages, slow: number, combined: number | null): number {
  let penalty = 0;
  if (slow > 0) penalty += SEVERITY_WEIGHTS[CHECKS.lighthouse_mobile_slow.severity] * Math.sqrt(checkShare(checkBasis('lighthouse_mobile_slow'), slow, scored));
  if (combined !== null) penalty += SEVERITY_WEIGHTS.error * (1 - Math.min(100, Math.max(0, combined)) / 100);
  return base * Math.exp(-penalty);
}
