/**
 * The webhooks module: the eight operations, the event fan-out, the delivery worker, the
 * retention sweep, and the `api.webhooks.max` usage counter.
 */
import type { Services } from '../../services.js';
import type { ServerModule } from '../module.js';
import { webhookHandlers } from './handlers.js';
import { createDeliveryWorker } from './worker.js';

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

export function webhooksModule(services: Services, options: WebhooksOptions = {}): ServerModule<ReturnType<typeof webhookHandlers>> {
  services.quotas.register('api.webhooks.max', async (caller) => {
    const [{ count }] = await services.knex('webhooks').where({ team_id: caller.teamId }).count({ count: '*' });
    return Number(count);
  });
  const worker = createDeliveryWorker(services, options);
  return {
    handlers: webhookHandlers(services),
    /** Before the job runner starts: queues the retention sweep. */
    start: () => worker.start(),
    /** After the job runner stopped: closes the receivers' connections. */
    close: () => worker.close(),
  };
}
