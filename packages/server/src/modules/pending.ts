import type { OperationId } from '@siteaudit/schema';
import type { Handler, Handlers } from '../http/binder.js';
import { ApiError } from '../http/errors.js';
import type { ServerModule } from './module.js';

/**
 * Operations of the contract whose module is not built yet, named one by one: they answer 503
 * service_unavailable with a detail saying so, rather than a made-up result. Listing them is a
 * choice made in server.ts's module list; an operation no module answers and no list names is a
 * compile error (modules/module.ts). Every operation has its module today.
 */
export function pendingModule<K extends OperationId>(ids: readonly K[]): ServerModule<Pick<Handlers, K>> {
  const pending = async () => {
    throw new ApiError('service_unavailable', { detail: 'This operation is not available on this server yet.' });
  };
  return { handlers: Object.fromEntries(ids.map((id) => [id, pending as Handler<K>])) as Pick<Handlers, K> };
}
