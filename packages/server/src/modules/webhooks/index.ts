/**
 * The webhooks module: the eight operations, the event fan-out, the delivery worker, the
 * retention sweep, and the `api.webhooks.max` usage counter.
 */
import type { Services } from '../../services.js';
import type { ServerModule } from '../module.js';
import { webhookHandlers } from './handlers.js';
import { createDeliveryWorker } from './worker.js';

export function webhooksModule(services: Services): ServerModule<ReturnType<typeof webhookHandlers>> {
  services.quotas.register('api.webhooks.max', async (caller) => {
    const [{ count }] = await services.knex('webhooks').where({ team_id: caller.teamId }).count({ count: '*' });
    return Number(count);
  });
  const worker = createDeliveryWorker(services);
  return {
    handlers: webhookHandlers(services),
    /** Before the job runner starts: queues the retention sweep. */
    start: () => worker.start(),
    /** After the job runner stopped: closes the receivers' connections. */
    close: () => worker.close(),
  };
}
