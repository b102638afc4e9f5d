/** The webhooks module's kinds of job (delivery-jobs.ts runs them). */
import { defineJob } from '../../jobs/job-runner.js';

/**
 * One delivery attempt. Deliveries mostly wait on receivers: several at once keep one slow
 * receiver from holding the rest. Attempts of the job itself are for store errors (receiver
 * failures are retried by `retryAt`); the attempt times out at 10 s, so a run still going after a
 * minute has crashed.
 */
export const WEBHOOK_DELIVER = defineJob<{ deliveryId: string }>('webhook.deliver', { concurrency: 16, maxAttempts: 5, leaseMs: 60_000 });
/** Removes deliveries past the log's retention, hourly. */
export const WEBHOOK_SWEEP = defineJob('webhook.sweep', { singleton: true });
