/**
 * Every kind of background work and its payload, in one list: the module that enqueues and the
 * module that runs a kind both use the constant, and pg-boss creates one queue per entry.
 */
import { defineJob, type JobKind } from './job-runner.js';

/** Fetch, analyse, PageSpeed, score and compare one crawl (modules/crawls/run.ts). */
export const CRAWL_RUN = defineJob<{ crawlId: string }>('crawl.run');
/** Launches due campaigns; re-queues itself every minute (one chain across processes). */
export const CAMPAIGN_SCHEDULE = defineJob('campaigns.schedule');
/** Queues again the crawls whose worker died (their lease expired; modules/crawls/lease.ts). */
export const CRAWL_SWEEP = defineJob('crawls.sweep');
export const EXPORT_GENERATE = defineJob<{ exportId: string }>('export.generate');
export const EXPORT_SWEEP = defineJob('exports.sweep');
export const WEBHOOK_DELIVER = defineJob<{ deliveryId: string }>('webhook.deliver');
export const WEBHOOK_SWEEP = defineJob('webhook.sweep');

export interface CheckPayload {
  checkId: string;
}
export interface DailyPayload {
  projectId: string;
  /** The day this run is for; a run whose day is no longer the tracker's `next_run_on` is a stale duplicate. */
  day: string;
}
export interface KeywordDataPayload {
  projectId: string;
  keywords: string[];
}
export const POSITIONS_CHECK = defineJob<CheckPayload>('positions.check');
export const POSITIONS_DAILY = defineJob<DailyPayload>('positions.daily');
export const POSITIONS_KEYWORD_DATA = defineJob<KeywordDataPayload>('positions.keyword-data');

export interface SyncPayload {
  projectId: string;
  /** The day this run is for; a run whose day is no longer the link's `next_sync_on` is stale. */
  day: string;
}
export const SEARCH_CONSOLE_SYNC = defineJob<SyncPayload>('search-console.sync');

/** Parse one uploaded access log (modules/logs). */
export const LOG_IMPORT = defineJob<{ importId: string }>('logs.import');

export const JOB_KINDS: readonly JobKind<unknown>[] = [
  CRAWL_RUN,
  CAMPAIGN_SCHEDULE,
  CRAWL_SWEEP,
  EXPORT_GENERATE,
  EXPORT_SWEEP,
  WEBHOOK_DELIVER,
  WEBHOOK_SWEEP,
  POSITIONS_CHECK,
  POSITIONS_DAILY,
  POSITIONS_KEYWORD_DATA,
  SEARCH_CONSOLE_SYNC,
  LOG_IMPORT,
];

/** Kinds queued with a singleton key (a chain that re-queues itself): one queued and one running at most. */
export const SINGLETON_KINDS: ReadonlySet<string> = new Set([CAMPAIGN_SCHEDULE.name, CRAWL_SWEEP.name, EXPORT_SWEEP.name, WEBHOOK_SWEEP.name]);
