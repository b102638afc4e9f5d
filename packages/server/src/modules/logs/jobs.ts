/** The logs module's kind of job. */
import { defineJob } from '../../jobs/job-runner.js';

/** Parses one uploaded access log (index.ts). */
export const LOG_IMPORT = defineJob<{ importId: string }>('logs.import', { maxAttempts: 2, expireMs: 6 * 3_600_000 });
