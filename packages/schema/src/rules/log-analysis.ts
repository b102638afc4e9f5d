/**
 * What the join of a project's logs with its latest settled crawl says (docs/decisions/logs.md),
 * and the `logs` pillar (docs/health-score.md): computed alike by the server and the mock from
 * the URL statistics and the crawl's pages.
 */
import type { BotFamily, LogFinding, LogInsights } from '../resources/logs.js';
import { BUDGET_BUCKETS } from '../resources/logs.js';
import { AI_FAMILIES, isParameterised } from './logs.js';

/** One stored URL statistic, summed over the imports read. */
export interface UrlStat {
  path: string;
  family: BotFamily;
  verification: 'verified' | 'unverified' | 'not_applicable';
  hits: number;
  /** ISO date-time. */
  last_visit: string;
  status_codes: Record<string, number>;
  bytes: number;
}

/** What the join reads of a crawled page. */
export interface JoinPage {
  url: string;
  status_code: number | null;
  content_type: string | null;
  canonical_url: string | null;
  depth: number;
  noindex: boolean;
  robots_disallowed: boolean;
}

/** Path and query of a URL or of a logged path, normalised alike (WHATWG parsing) for the join. */
export function joinPath(urlOrPath: string): string {
  try {
    const u = new URL(urlOrPath, 'http://log.invalid');
    return u.pathname + u.search;
  } catch {
    return urlOrPath;
  }
}

export function isIndexable(page: JoinPage): boolean {
  return (
    page.status_code !== null &&
    page.status_code >= 200 &&
    page.status_code < 300 &&
    (page.content_type ?? '').includes('html') &&
    !page.noindex &&
    !page.robots_disallowed &&
    (page.canonical_url === null || joinPath(page.canonical_url) === joinPath(page.url))
  );
}

/** Search-engine families whose visits make a page fresh (AI agents do not index for search). */
const SEARCH_FAMILIES: readonly BotFamily[] = ['googlebot', 'googlebot_smartphone', 'bingbot'];
/** Pages this close to the start URL are the important ones for freshness. */
export const IMPORTANT_DEPTH = 1;
/** A visit this recent is fully fresh; one this old or none scores 0 (linear between). */
export const FRESH_DAYS = 7;
export const STALE_DAYS = 30;

/** Statistics that count: unverified claims are kept apart and never counted as the bot. */
const trusted = (s: UrlStat) => s.verification !== 'unverified';

function sumStatuses(stat: UrlStat, from: number, to: number): number {
  let n = 0;
  for (const [code, hits] of Object.entries(stat.status_codes)) if (+code >= from && +code < to) n += hits;
  return n;
}

export interface Join {
  pages: Map<string, JoinPage>;
  indexable: Set<string>;
  /** Trusted bot hits and last visit per joined path. */
  visits: Map<string, { hits: number; last: string; search_last: string | null }>;
}

export function joinLogs(stats: readonly UrlStat[], pages: readonly JoinPage[]): Join {
  const byPath = new Map<string, JoinPage>();
  const indexable = new Set<string>();
  for (const page of pages) {
    const path = joinPath(page.url);
    byPath.set(path, page);
    if (isIndexable(page)) indexable.add(path);
  }
  const visits = new Map<string, { hits: number; last: string; search_last: string | null }>();
  for (const stat of stats) {
    if (!trusted(stat)) continue;
    const path = joinPath(stat.path);
    const v = visits.get(path) ?? { hits: 0, last: stat.last_visit, search_last: null };
    v.hits += stat.hits;
    if (stat.last_visit > v.last) v.last = stat.last_visit;
    if (SEARCH_FAMILIES.includes(stat.family) && (v.search_last === null || stat.last_visit > v.search_last)) v.search_last = stat.last_visit;
    visits.set(path, v);
  }
  return { pages: byPath, indexable, visits };
}

/** The findings of one kind, sorted by path (the list's keyset). */
export function logFindings(join: Join, kind: LogFinding['kind']): LogFinding[] {
  const out: LogFinding[] = [];
  if (kind === 'not_in_crawl') {
    for (const [path, v] of join.visits) if (!join.pages.has(path)) out.push({ kind, path, bot_hits: v.hits, last_visit: v.last });
  } else {
    for (const path of join.indexable) if (!join.visits.has(path)) out.push({ kind, path, bot_hits: 0, last_visit: null });
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

type Bucket = (typeof BUDGET_BUCKETS)[number];

export function logInsights(
  projectId: string,
  stats: readonly UrlStat[],
  humans: number,
  period: { from: string; to: string } | null,
  crawl: { id: string; pages: readonly JoinPage[] } | null,
): LogInsights {
  const families = new Map<string, LogInsights['families'][number]>();
  const paths = new Map<string, Set<string>>();
  let bots = 0;
  let unverified = 0;
  const ai = { search_hits: 0, training_hits: 0, urls: new Set<string>(), last_visit: null as string | null };
  for (const s of stats) {
    const key = `${s.family}\t${s.verification}`;
    const f = families.get(key) ?? { family: s.family, verification: s.verification, hits: 0, urls: 0, last_visit: null };
    f.hits += s.hits;
    if (f.last_visit === null || s.last_visit > f.last_visit) f.last_visit = s.last_visit;
    families.set(key, f);
    const set = paths.get(key) ?? new Set<string>();
    set.add(s.path);
    paths.set(key, set);
    if (!trusted(s)) {
      unverified += s.hits;
      continue;
    }
    bots += s.hits;
    if (AI_FAMILIES.includes(s.family)) {
      if (s.family === 'ai_search') ai.search_hits += s.hits;
      else ai.training_hits += s.hits;
      ai.urls.add(s.path);
      if (ai.last_visit === null || s.last_visit > ai.last_visit) ai.last_visit = s.last_visit;
    }
  }
  for (const [key, f] of families) f.urls = paths.get(key)!.size;

  let budget: LogInsights['budget'] = [];
  let coverage: LogInsights['coverage'] = null;
  if (crawl) {
    const join = joinLogs(stats, crawl.pages);
    const hits = Object.fromEntries(BUDGET_BUCKETS.map((b) => [b, 0])) as Record<Bucket, number>;
    for (const s of stats) {
      if (!trusted(s)) continue;
      const path = joinPath(s.path);
      const page = join.pages.get(path);
      hits.redirect += sumStatuses(s, 300, 400);
      hits.client_error += sumStatuses(s, 400, 500);
      hits.server_error += sumStatuses(s, 500, 600);
      if (isParameterised(s.path)) hits.parameterised += s.hits;
      if (!page) {
        hits.not_in_crawl += s.hits;
        continue;
      }
      if (join.indexable.has(path)) hits.indexable += sumStatuses(s, 200, 300);
      if (page.canonical_url !== null && joinPath(page.canonical_url) !== path) hits.non_canonical += s.hits;
      if (page.noindex) hits.noindex += s.hits;
      if (page.robots_disallowed) hits.robots_disallowed += s.hits;
    }
    budget = BUDGET_BUCKETS.map((bucket) => ({ bucket, hits: hits[bucket], share: bots === 0 ? 0 : Math.min(1, hits[bucket] / bots) }));
    let visited = 0;
    for (const path of join.indexable) if (join.visits.has(path)) visited++;
    coverage = { indexable_pages: join.indexable.size, visited, not_in_crawl_urls: logFindings(join, 'not_in_crawl').length };
  }
  return {
    project_id: projectId,
    period,
    crawl_id: crawl?.id ?? null,
    hits: { bots, unverified_claims: unverified, humans },
    families: [...families.values()].sort((a, b) => b.hits - a.hits || (a.family < b.family ? -1 : 1)),
    budget,
    coverage,
    ai: { search_hits: ai.search_hits, training_hits: ai.training_hits, urls: ai.urls.size, last_visit: ai.last_visit },
  };
}

export interface LogPillarAxes {
  score: number | null;
  axes: { key: string; score: number | null; weight: number }[];
}

/** The pillar reads the imports whose period ends within this many days. */
export const LOG_PILLAR_DAYS = 30;

/** Axis keys of the `logs` pillar, in order (docs/health-score.md). */
export const LOG_PILLAR_AXES = ['indexable_hits', 'coverage', 'waste', 'freshness'] as const;

/**
 * The `logs` pillar from the statistics of the period and the latest crawl: each axis 0–100, the
 * score their mean over the measurable ones (equal weights); null when none is measurable.
 */
export function logPillar(stats: readonly UrlStat[], pages: readonly JoinPage[] | null, asOf: Date): LogPillarAxes {
  const kept = stats.filter(trusted);
  const total = kept.reduce((n, s) => n + s.hits, 0);
  const axis: Record<(typeof LOG_PILLAR_AXES)[number], number | null> = { indexable_hits: null, coverage: null, waste: null, freshness: null };
  if (total > 0) {
    const wasted = kept.reduce((n, s) => n + sumStatuses(s, 300, 600), 0);
    axis.waste = Math.round(100 * (1 - wasted / total));
  }
  if (pages && total > 0) {
    const join = joinLogs(kept, pages);
    let onIndexable = 0;
    for (const s of kept) if (join.indexable.has(joinPath(s.path))) onIndexable += sumStatuses(s, 200, 300);
    axis.indexable_hits = Math.round((100 * onIndexable) / total);
    if (join.indexable.size > 0) {
      let visited = 0;
      for (const path of join.indexable) if (join.visits.has(path)) visited++;
      axis.coverage = Math.round((100 * visited) / join.indexable.size);
      const important = [...join.pages].filter(([path, page]) => page.depth <= IMPORTANT_DEPTH && join.indexable.has(path));
      if (important.length > 0) {
        let sum = 0;
        for (const [path] of important) {
          const last = join.visits.get(path)?.search_last;
          if (!last) continue;
          const days = (asOf.getTime() - Date.parse(last)) / 86_400_000;
          sum += days <= FRESH_DAYS ? 100 : days >= STALE_DAYS ? 0 : (100 * (STALE_DAYS - days)) / (STALE_DAYS - FRESH_DAYS);
        }
        axis.freshness = Math.round(sum / important.length);
      }
    }
  }
  const measured = LOG_PILLAR_AXES.filter((k) => axis[k] !== null);
  return {
    score: measured.length === 0 ? null : Math.round(measured.reduce((n, k) => n + axis[k]!, 0) / measured.length),
    axes: LOG_PILLAR_AXES.map((key) => ({ key, score: axis[key], weight: axis[key] === null ? 0 : 1 / measured.length })),
  };
}
