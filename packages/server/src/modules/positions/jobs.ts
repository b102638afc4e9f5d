/** The rank-tracking module's kinds of job and their payloads (tracking-jobs.ts runs them). */
import { defineJob } from '../../jobs/job-runner.js';

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

/** The live check queued by the check operation. */
export const POSITIONS_CHECK = defineJob<CheckPayload>('positions.check', { concurrency: 4 });
/** The daily run of each tracker. */
export const POSITIONS_DAILY = defineJob<DailyPayload>('positions.daily');
/** Search volume, difficulty and intent of newly tracked keywords. */
export const POSITIONS_KEYWORD_DATA = defineJob<KeywordDataPayload>('positions.keyword-data');
