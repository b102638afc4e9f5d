/**
 * The scorecard's five pillars, each scored on its own, never averaged
 * together; a pillar that cannot be measured is null with a `blocked_reason`, never 0
 * (docs/decisions/scorecard.md).
 */
import type { Scorecard } from '@siteaudit/schema';
import type { Knex } from 'knex';
import { bool, json } from '../../store/database.js';
import type { CrawlRow, StoredPageSpeed } from '../crawls/crawl-row.js';
import { crawlChecks, settledCrawls } from '../crawls/reads.js';
import { completedImportsEnd, eachUrlStat, latestCrawlPages } from '../logs/reads.js';
import { searchConsoleDays, searchConsoleLink } from '../search-console/reads.js';
import { auditedData, checksAxis, contentAxes, createLogJoin, LOG_PILLAR_DAYS, meanAxes, meanComputation, noComputation, productComputation, techniqueAxes } from '@siteaudit/schema/rules';
import { ACQUISITION_WINDOW_DAYS, acquisitionScore } from './formulas.js';

type Pillar = Scorecard['pillars'][number];

/** Bumped when a pillar's formula changes, so clients can tell scores apart. */
const VERSION = 1;

/** Settled crawls looked at when searching for the latest one that ran the accessibility rules. */
const ACCESSIBILITY_LOOKBACK = 50;

function unmeasured(key: Pillar['key'], reason: string, available = true): Pillar {
  return { key, score: null, status: available ? 'not_measured' : 'unavailable', available, version: VERSION, as_of: null, blocked_reason: reason, axes: [], computation: noComputation(key) };
}

const config = (crawl: CrawlRow) => json<Record<string, unknown>>(crawl.config, {});

async function crawlPillars(knex: Knex, crawl: CrawlRow | undefined): Promise<Pillar[]> {
  if (!crawl) return [unmeasured('technique', 'no_completed_crawl'), unmeasured('contenu', 'no_completed_crawl')];
  const data = await crawlChecks(knex, crawl.id);
  const pagespeed = json<StoredPageSpeed | null>(crawl.pagespeed, null);
  // PageSpeed is part of the health score once measured (modules/crawls/pagespeed-step.ts): shown as an axis.
  const speed = pagespeed?.status === 'measured' && pagespeed.combined !== null ? pagespeed.combined : null;
  const techniqueAxesOf = techniqueAxes(data, speed);
  const technique: Pillar = {
    key: 'technique',
    score: crawl.health_score === null ? null : Math.round(crawl.health_score),
    status: crawl.health_score === null ? 'not_measured' : 'measured',
    available: true,
    version: VERSION,
    as_of: crawl.finished_at,
    blocked_reason: crawl.health_score === null ? (bool(crawl.blocked) ? `crawl_blocked:${crawl.blocked_reason}` : 'no_internal_page') : null,
    axes: techniqueAxesOf,
    // The score is the crawl's health score as stored; its axes multiply to it (docs/health-score.md).
    computation: crawl.health_score === null ? noComputation('technique') : productComputation(techniqueAxesOf, data),
  };
  const aiChecked = bool(config(crawl).check_ai_reachability);
  const content = contentAxes(data, aiChecked);
  const computation = productComputation(content.axes, data);
  const score = computation.exact === null ? null : Math.round(computation.exact);
  return [
    technique,
    {
      key: 'contenu',
      score,
      status: score === null ? 'not_measured' : 'measured',
      available: true,
      version: VERSION,
      as_of: crawl.finished_at,
      blocked_reason: score === null ? 'no_internal_page' : aiChecked ? null : 'ai_reachability_not_checked',
      axes: content.axes,
      computation,
    },
  ];
}

/**
 * Accessibility: the latest settled crawl that ran the axe rules. A crawl that ran them and
 * found nothing scores 100; no such crawl means null, never 0.
 */
async function accessibilityPillar(knex: Knex, projectId: string): Promise<Pillar> {
  const recent = await settledCrawls(knex, projectId, ACCESSIBILITY_LOOKBACK);
  const crawl = recent.find((c) => bool(config(c).check_accessibility) || bool(config(c).check_accessibility_rendered));
  if (!crawl) return unmeasured('accessibilite', 'accessibility_not_checked');
  const rendered = bool(config(crawl).check_accessibility_rendered);
  const { htmlPages, checks } = await crawlChecks(knex, crawl.id);
  const audited = auditedData(htmlPages, checks);
  const axis = checksAxis(rendered ? 'axe_rendered' : 'axe_fetched_html', audited, ['accessibility']);
  const computation = productComputation([axis], audited);
  const score = computation.exact === null ? null : Math.round(computation.exact);
  return {
    key: 'accessibilite',
    score,
    status: score === null ? 'not_measured' : 'measured',
    available: true,
    version: VERSION,
    as_of: crawl.finished_at,
    blocked_reason: score === null ? 'no_internal_page' : null,
    axes: [axis],
    computation,
  };
}

/** What the acquisition pillar knows of Search Console besides its data. */
export interface SearchConsoleAccess {
  /** The team's plan includes Search Console. */
  inPlan: boolean;
  /** This server synchronises linked properties (it has a Search Console provider). */
  synchronises: boolean;
}

/** Search Console acquisition, from the synchronised daily series (modules/search-console). */
async function acquisitionPillar(knex: Knex, projectId: string, { inPlan, synchronises }: SearchConsoleAccess): Promise<Pillar> {
  if (!inPlan) return unmeasured('acquisition', 'search_console_not_in_plan', false);
  const link = await searchConsoleLink(knex, projectId);
  if (!link) return unmeasured('acquisition', 'search_console_not_linked');
  const days = await searchConsoleDays(knex, projectId, 2 * ACQUISITION_WINDOW_DAYS);
  // "Not synchronised yet" would promise a sync a server without a provider never makes.
  if (days.length === 0) return unmeasured('acquisition', synchronises ? 'search_console_no_data' : 'search_console_sync_unavailable');
  const result = acquisitionScore(days);
  if (!result) return unmeasured('acquisition', 'search_console_no_impressions');
  return {
    key: 'acquisition',
    score: result.score,
    status: 'measured',
    available: true,
    version: VERSION,
    as_of: link.synced_at ?? `${result.to}T00:00:00.000Z`,
    blocked_reason: null,
    axes: meanAxes(result.axes),
    computation: meanComputation(result.axes),
  };
}

/**
 * The five pillars of a project, the crawl pillars from `crawl` (the latest settled crawl for the
 * API; the exported crawl for a report).
 */
export async function scorecardPillars(knex: Knex, projectId: string, crawl: CrawlRow | undefined, searchConsole: SearchConsoleAccess, now: Date = new Date()): Promise<Pillar[]> {
  return [
    ...(await crawlPillars(knex, crawl)),
    await accessibilityPillar(knex, projectId),
    await acquisitionPillar(knex, projectId, searchConsole),
    await logsPillar(knex, projectId, now),
  ];
}

/**
 * Log exploration (docs/health-score.md): the imports whose period ends within the last
 * LOG_PILLAR_DAYS days, joined with the latest settled crawl. No such import: null.
 */
async function logsPillar(knex: Knex, projectId: string, now: Date): Promise<Pillar> {
  const since = new Date(now.getTime() - LOG_PILLAR_DAYS * 86_400_000).toISOString();
  const crawl = await latestCrawlPages(knex, projectId);
  const join = createLogJoin(crawl?.pages ?? null);
  const imports = await completedImportsEnd(knex, projectId, since);
  if (imports.recent === 0) return unmeasured('logs', imports.count > 0 ? 'no_recent_logs' : 'no_logs');
  await eachUrlStat(knex, projectId, since, join.add);
  const result = join.pillar(now);
  return {
    key: 'logs',
    score: result.score,
    status: result.score === null ? 'not_measured' : 'measured',
    available: true,
    version: VERSION,
    as_of: imports.to,
    blocked_reason: result.score === null ? 'no_bot_hits' : crawl ? null : 'no_completed_crawl',
    axes: meanAxes(result.axes),
    computation: meanComputation(result.axes),
  };
}
