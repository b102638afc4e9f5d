/**
 * What the join of a project's logs with its latest settled crawl says (docs/decisions/logs.md),
 * and the `logs` pillar (docs/health-score.md): computed alike by the server and the mock from
 * the URL statistics and the crawl's pages.
 */
import type { BotFamily, LogFinding, LogInsights } from '../resources/logs.js';
import { BUDGET_BUCKETS } from '../resources/logs.js';
import { normaliseLogPath } from './log-paths.js';
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

/**
 * What the imports count without a path: human requests, and crawler claims that failed
 * verification per family (their day counts, `log_day_stats`; docs/decisions/logs.md, Privacy).
 */
export interface LogTotals {
  humans: number;
  unverified: readonly { family: BotFamily; hits: number }[];
}

/** What the join reads of a crawled page. */
export interface JoinPage {
  url: string;
  status_code: number | null;
  content_type: string | null;
  canonical_url: string | null;
  /** Click depth; null when no link from the start reaches the page (sitemap only). */
  depth: number | null;
  noindex: boolean;
  robots_disallowed: boolean;
}

/**
 * Path and query of a crawled URL or of a logged path, normalised alike for the join
 * (log-paths.ts): a logged path (`/…`) is normalised as it is, never parsed against a base (which
 * reads `//x/page.html` as host `x`); an absolute URL is parsed (WHATWG), then normalised the same way.
 */
export function joinPath(urlOrPath: string): string {
  if (urlOrPath.startsWith('/')) return normaliseLogPath(urlOrPath);
  try {
    const u = new URL(urlOrPath);
    return normaliseLogPath(u.pathname + u.search);
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

/**
 * Unverified claims have no URL statistic (day counts only); a row of one, from an import made
 * before that rule or by an older process, is not read.
 */
const trusted = (s: UrlStat) => s.verification !== 'unverified';

function sumStatuses(stat: UrlStat, from: number, to: number): number {
  let n = 0;
  for (const code in stat.status_codes) if (+code >= from && +code < to) n += stat.status_codes[code];
  return n;
}

type Bucket = (typeof BUDGET_BUCKETS)[number];
type Visit = { hits: number; last: string; search_last: string | null };

export interface LogPillarAxes {
  score: number | null;
  axes: { key: string; score: number | null; weight: number }[];
}

/** The pillar reads the imports whose period ends within this many days. */
export const LOG_PILLAR_DAYS = 30;

/** Axis keys of the `logs` pillar, in order (docs/health-score.md). */
export const LOG_PILLAR_AXES = ['indexable_hits', 'coverage', 'waste', 'freshness'] as const;

/**
 * The join of a project's URL statistics with its latest crawl, folded one statistic at a time:
 * the server streams them from the database in batches (the API thread answers between batches),
 * the mock passes its array. Statistics come one per path × family × verification (summed over
 * imports, as the reads give them). Memory: the crawl's pages and one entry per distinct path bots
 * visited (the findings and the coverage need them), nothing per statistic.
 */
export interface LogJoin {
  add(stat: UrlStat): void;
  /** The insights read; `crawlId` null when there is no crawl (no budget, no coverage). */
  insights(projectId: string, totals: LogTotals, period: { from: string; to: string } | null, crawlId: string | null): LogInsights;
  /** The findings of one kind, sorted by path (the list's keyset); none without a crawl. */
  findings(kind: LogFinding['kind']): LogFinding[];
  /** The `logs` pillar: each axis 0–100, the score their mean over the measurable ones (equal weights); null when none is. */
  pillar(asOf: Date): LogPillarAxes;
}

export function createLogJoin(crawlPages: readonly JoinPage[] | null): LogJoin {
  const pages = new Map<string, JoinPage>();
  const indexable = new Set<string>();
  for (const page of crawlPages ?? []) {
    const path = joinPath(page.url);
    pages.set(path, page);
    if (isIndexable(page)) indexable.add(path);
  }
  /** Trusted bot hits and last visit per joined path (only with a crawl). */
  const visits = new Map<string, Visit>();
  const families = new Map<string, LogInsights['families'][number]>();
  let bots = 0;
  /** Trusted hits answered 3xx to 5xx, except 304 (a revalidation answered cheaply), the pillar's waste. */
  let wasted = 0;
  const ai = { search_hits: 0, training_hits: 0, urls: new Set<string>(), last_visit: null as string | null };
  const buckets = Object.fromEntries(BUDGET_BUCKETS.map((b) => [b, 0])) as Record<Bucket, number>;

  function add(s: UrlStat): void {
    if (!trusted(s)) return;
    const key = `${s.family}\t${s.verification}`;
    let f = families.get(key);
    if (!f) families.set(key, (f = { family: s.family, verification: s.verification, hits: 0, urls: 0, last_visit: null }));
    f.hits += s.hits;
    f.urls++;
    if (f.last_visit === null || s.last_visit > f.last_visit) f.last_visit = s.last_visit;
    bots += s.hits;
    const redirects = sumStatuses(s, 300, 400) - (s.status_codes['304'] ?? 0);
    const clientErrors = sumStatuses(s, 400, 500);
    const serverErrors = sumStatuses(s, 500, 600);
    wasted += redirects + clientErrors + serverErrors;
    if (AI_FAMILIES.includes(s.family)) {
      if (s.family === 'ai_search') ai.search_hits += s.hits;
      else ai.training_hits += s.hits;
      ai.urls.add(s.path);
      if (ai.last_visit === null || s.last_visit > ai.last_visit) ai.last_visit = s.last_visit;
    }
    if (!crawlPages) return;
    const path = joinPath(s.path);
    let v = visits.get(path);
    if (!v) visits.set(path, (v = { hits: 0, last: s.last_visit, search_last: null }));
    v.hits += s.hits;
    if (s.last_visit > v.last) v.last = s.last_visit;
    if (SEARCH_FAMILIES.includes(s.family) && (v.search_last === null || s.last_visit > v.search_last)) v.search_last = s.last_visit;
    buckets.redirect += redirects;
    buckets.client_error += clientErrors;
    buckets.server_error += serverErrors;
    if (isParameterised(s.path)) buckets.parameterised += s.hits;
    const page = pages.get(path);
    if (!page) {
      buckets.not_in_crawl += s.hits;
      return;
    }
    if (indexable.has(path)) buckets.indexable += sumStatuses(s, 200, 300);
    if (page.canonical_url !== null && joinPath(page.canonical_url) !== path) buckets.non_canonical += s.hits;
    if (page.noindex) buckets.noindex += s.hits;
    if (page.robots_disallowed) buckets.robots_disallowed += s.hits;
  }

  function visitedIndexable(): number {
    let visited = 0;
    for (const path of indexable) if (visits.has(path)) visited++;
    return visited;
  }

  function notInCrawl(): number {
    let n = 0;
    for (const path of visits.keys()) if (!pages.has(path)) n++;
    return n;
  }

  return {
    add,
    insights(projectId, totals, period, crawlId) {
      const withCrawl = crawlId !== null && crawlPages !== null;
      // Unverified claims per family from their day counts: hits only (no path, hence no URL count or last visit).
      const claims = totals.unverified.filter((c) => c.hits > 0).map((c) => ({ family: c.family, verification: 'unverified' as const, hits: c.hits, urls: 0, last_visit: null }));
      const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
      return {
        project_id: projectId,
        period,
        crawl_id: crawlId,
        hits: { bots, unverified_claims: claims.reduce((n, c) => n + c.hits, 0), humans: totals.humans },
        families: [...families.values(), ...claims].sort((a, b) => b.hits - a.hits || order(a.family, b.family) || order(a.verification, b.verification)),
        budget: withCrawl ? BUDGET_BUCKETS.map((bucket) => ({ bucket, hits: buckets[bucket], share: bots === 0 ? 0 : Math.min(1, buckets[bucket] / bots) })) : [],
        coverage: withCrawl ? { indexable_pages: indexable.size, visited: visitedIndexable(), not_in_crawl_urls: notInCrawl() } : null,
        ai: { search_hits: ai.search_hits, training_hits: ai.training_hits, urls: ai.urls.size, last_visit: ai.last_visit },
      };
    },
    findings(kind) {
      const out: LogFinding[] = [];
      if (!crawlPages) return out;
      if (kind === 'not_in_crawl') {
        for (const [path, v] of visits) if (!pages.has(path)) out.push({ kind, path, bot_hits: v.hits, last_visit: v.last });
      } else {
        for (const path of indexable) if (!visits.has(path)) out.push({ kind, path, bot_hits: 0, last_visit: null });
      }
      return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    },
    pillar(asOf) {
      const axis: Record<(typeof LOG_PILLAR_AXES)[number], number | null> = { indexable_hits: null, coverage: null, waste: null, freshness: null };
      if (bots > 0) axis.waste = Math.round(100 * (1 - wasted / bots));
      if (crawlPages && bots > 0) {
        axis.indexable_hits = Math.round((100 * buckets.indexable) / bots);
        if (indexable.size > 0) {
          axis.coverage = Math.round((100 * visitedIndexable()) / indexable.size);
          const important = [...pages].filter(([path, page]) => page.depth !== null && page.depth <= IMPORTANT_DEPTH && indexable.has(path));
          if (important.length > 0) {
            let sum = 0;
            for (const [path] of important) {
              const last = visits.get(path)?.search_last;
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
    },
  };
}

/** The join of an array of statistics (the mock's reads). */
export function joinLogs(stats: readonly UrlStat[], pages: readonly JoinPage[] | null): LogJoin {
  const join = createLogJoin(pages);
  for (const stat of stats) join.add(stat);
  return join;
}

export function logFindings(join: LogJoin, kind: LogFinding['kind']): LogFinding[] {
  return join.findings(kind);
}

export function logInsights(
  projectId: string,
  stats: readonly UrlStat[],
  totals: LogTotals,
  period: { from: string; to: string } | null,
  crawl: { id: string; pages: readonly JoinPage[] } | null,
): LogInsights {
  return joinLogs(stats, crawl?.pages ?? null).insights(projectId, totals, period, crawl?.id ?? null);
}

export function logPillar(stats: readonly UrlStat[], pages: readonly JoinPage[] | null, asOf: Date): LogPillarAxes {
  return joinLogs(stats, pages).pillar(asOf);
}
