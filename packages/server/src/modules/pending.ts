import { OPERATION_IDS } from '@siteaudit/schema';
import type { Handlers } from '../http/binder.js';
import { ApiError } from '../http/errors.js';

/**
 * Operations whose module is not built yet answer 503 service_unavailable with a detail saying
 * so, rather than a made-up result. Each module replaces its entries as it lands.
 */
export function pendingHandlers(): Handlers {
  const pending = async () => {
    throw new ApiError('service_unavailable', { detail: 'This operation is not available on this server yet.' });
  };
  return Object.fromEntries(OPERATION_IDS.map((id) => [id, pending])) as unknown as Handlers;
}
