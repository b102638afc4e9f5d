/** The logs module's kind of job. */
import { defineJob } from '../../jobs/job-runner.js';

/**
 * Parses one uploaded access log (index.ts). pg-boss retries a job that has run past `expireMs`
 * as if its process had died: at the default 60 s, a second run of a large import started beside
 * the first and both wrote its rows. 6 h, as for a crawl: far beyond what the largest upload a
 * plan allows takes at the speed docs/benchmarks.md measures.
 */
export const LOG_IMPORT = defineJob<{ importId: string }>('logs.import', { maxAttempts: 2, expireMs: 6 * 3_600_000 });
