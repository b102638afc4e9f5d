/** The crawls module's kinds of job, with the options the job engine runs them by. */
import { defineJob } from '../../jobs/job-runner.js';

/**
 * Fetch, analyse, PageSpeed, score and compare one crawl (crawl-job.ts). The job's own lease
 * (table runner) is short; the crawl's lease (lease.ts) decides who runs it. pg-boss retries a
 * crashed one only past the longest crawl, since crawls are taken over by their own lease first.
 */
export const CRAWL_RUN = defineJob<{ crawlId: string }>('crawl.run', { leaseMs: 30_000, maxAttempts: 2, expireMs: 6 * 3_600_000 });
/** Launches due campaigns; re-queues itself every minute (one chain across processes; schedule-job.ts). */
export const CAMPAIGN_SCHEDULE = defineJob('campaigns.schedule', { singleton: true });
/** Queues again the crawls whose worker died (their lease expired; sweep-job.ts). */
export const CRAWL_SWEEP = defineJob('crawls.sweep', { singleton: true });
