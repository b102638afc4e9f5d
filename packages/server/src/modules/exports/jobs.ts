/** The exports module's kinds of job. */
import { defineJob } from '../../jobs/job-runner.js';

/** Renders one export into the blob store (generate-job.ts). */
export const EXPORT_GENERATE = defineJob<{ exportId: string }>('export.generate', { maxAttempts: 2 });
/** Expires the files of exports past their retention; re-queues itself (sweep-job.ts). */
export const EXPORT_SWEEP = defineJob('exports.sweep', { singleton: true });
