/**
 * The webhooks module: the eight operations, the event fan-out, the delivery worker, the
 * retention sweep, and the `api.webhooks.max` usage counter.
 */
import type { Services } from '../../services.js';
import { defineModule, defineQuota } from '../module.js';
import { createDeliveryWorker } from './delivery-jobs.js';
import { webhookHandlers } from './handlers.js';

export interface WebhooksOptions {
  /** How long a receiver has to connect, answer and send its body, per attempt; past it the attempt fails with `timeout`. Default 10,000 ms. */
  timeoutMs?: number;
}

/** The options checked, for the server to refuse them before it opens the database. */
export function webhooksOptions(options: WebhooksOptions = {}): WebhooksOptions {
  const { timeoutMs } = options;
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0)) {
    throw new TypeError(`webhooks.timeoutMs must be a positive whole number of milliseconds, not ${timeoutMs}`);
  }
  return options;
}

export function webhooksModule(services: Services, options: WebhooksOptions = {}) {
  const worker = createDeliveryWorker(services, options);
  return defineModule({
    name: 'webhooks',
    handlers: webhookHandlers(services),
    jobs: worker.jobs,
    quotas: [
      defineQuota('api.webhooks.max', async (caller) => {
        const [{ count }] = await services.knex('webhooks').where({ team_id: caller.teamId }).count({ count: '*' });
        return Number(count);
      }),
    ],
    events: [worker.subscriber],
    /** Before the job runner starts: queues the retention sweep. */
    start: () => worker.start(),
    /** After the job runner stopped: closes the receivers' connections. */
    close: () => worker.close(),
  });
}
