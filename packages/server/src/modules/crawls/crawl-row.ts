import type { Knex } from 'knex';
import { type Crawl, type PageSpeedResult } from '@siteaudit/schema';
import { CRAWL_STEPS, localiseCrawlError, pagesPerSecond, settledPageSpeed, type CrawlStep } from '@siteaudit/schema/rules';
import type { Language } from '@siteaudit/schema';
import type { Caller } from '../../http/context.js';
import { notFound } from '../../http/errors.js';
import { bool, json } from '../../store/database.js';

export type Step = CrawlStep;
export type StepState = 'pending' | 'running' | 'done' | 'skipped';

export interface StagePlanStep {
  stage: Step;
  state: StepState;
  skip_reason: string | null;
}

/** The PageSpeed result as the crawl's row holds it (`pagespeed`, JSON). */
export type StoredPageSpeed = Omit<PageSpeedResult, 'crawl_id'>;

export interface CrawlRow {
  id: string;
  team_id: string;
  project_id: string;
  campaign_id: string;
  status: Crawl['status'];
  stage: Crawl['stage'];
  active: boolean | number;
  settled: boolean | number;
  stage_plan: string;
  pages_crawled: number;
  pages_discovered: number;
  pages_budget: number;
  issues_error: number;
  issues_warning: number;
  issues_info: number;
  protection_occurrences: number;
  truncated: boolean | number;
  blocked: boolean | number;
  comparable: boolean | number;
  blocked_reason: string | null;
  error: string | null;
  trigger: Crawl['trigger'];
  config: string;
  config_hash: string;
  health_score: number | null;
  pagespeed: string | null;
  stop_requested: boolean | number;
  started_at: string | null;
  finished_at: string | null;
  created_at: string;
  /** The previous comparable crawl this one was compared with, once settled (migration 013). */
  previous_crawl_id?: string | null;
  /** The comparison's summary, JSON (`StoredChanges`, changes.ts). */
  changes?: string | null;
}

export function initialStagePlan(): StagePlanStep[] {
  return CRAWL_STEPS.map((stage) => ({ stage, state: 'pending', skip_reason: null }));
}

/**
 * The crawl as answered; `error` in `language` (stored in English: events carry it so). `finished_at`
 * is set when fetching ends, so the pages per second are over the fetch once it has ended.
 */
export function toCrawl(row: CrawlRow, language: Language = 'en', now = Date.now()): Crawl {
  const steps = json<StagePlanStep[]>(row.stage_plan, initialStagePlan());
  const current = steps.findIndex((s) => s.state === 'pending' || s.state === 'running');
  return {
    id: row.id,
    project_id: row.project_id,
    campaign_id: row.campaign_id,
    status: row.status,
    stage: row.stage,
    active: bool(row.active),
    stage_plan: {
      current_step: current === -1 ? steps.length : current + 1,
      step_count: steps.length,
      settled: bool(row.settled),
      steps,
    },
    pages: {
      crawled: row.pages_crawled,
      discovered: row.pages_discovered,
      budget: row.pages_budget,
      per_second: pagesPerSecond(row.pages_crawled, row.started_at, row.finished_at, now),
    },
    issue_counts: { error: row.issues_error, warning: row.issues_warning, info: row.issues_info },
    truncated: bool(row.truncated),
    blocked: bool(row.blocked),
    comparable: bool(row.comparable),
    blocked_reason: row.blocked_reason,
    error: localiseCrawlError(row.error, language),
    trigger: row.trigger,
    started_at: row.started_at,
    finished_at: row.finished_at,
    created_at: row.created_at,
  };
}

/**
 * The PageSpeed result of a settled crawl, as the API and the reports read it: the stored one, or
 * why there is none (settledPageSpeed). The campaign's `pagespeed` is read from the settings the
 * crawl ran with (`config`), not from the campaign as edited since.
 */
export function crawlPageSpeed(row: Pick<CrawlRow, 'status' | 'config' | 'pagespeed'>): StoredPageSpeed {
  const config = json<{ pagespeed?: boolean | number }>(row.config, {});
  return settledPageSpeed({ status: row.status, pagespeedRequested: bool(config.pagespeed ?? false) }, json<StoredPageSpeed | null>(row.pagespeed, null));
}

/** Errors first (the shared rule of `@siteaudit/schema`). */
export { SEVERITY_RANK } from '@siteaudit/schema/rules';

/** The team's crawl, or 404. */
export async function findCrawl(knex: Knex, caller: Caller, id: string): Promise<CrawlRow> {
  const row = await knex('crawls').where({ id, team_id: caller.teamId }).first();
  if (!row) throw notFound();
  return row as CrawlRow;
}

/** The crawl's row, any team's (the caller is a job, not a token), or undefined once deleted. */
export async function crawlById(knex: Knex, id: string): Promise<CrawlRow | undefined> {
  return (await knex('crawls').where({ id }).first()) as CrawlRow | undefined;
}
