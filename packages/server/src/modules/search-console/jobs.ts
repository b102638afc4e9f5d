/** The Search Console module's kind of job (sync-job.ts runs it). */
import { defineJob } from '../../jobs/job-runner.js';

export interface SyncPayload {
  projectId: string;
  /** The day this run is for; a run whose day is no longer the link's `next_sync_on` is stale. */
  day: string;
}

/** One daily synchronisation of a linked property. */
export const SEARCH_CONSOLE_SYNC = defineJob<SyncPayload>('search-console.sync');
