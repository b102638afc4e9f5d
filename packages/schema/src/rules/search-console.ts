/** Search Console rules the server and the mock share (docs/decisions/search-console.md). */
import type { SearchConsole } from '../resources/search-console.js';

/**
 * Whether this server synchronises linked properties: it does with a Search Console provider;
 * without one (the operator passed `providers.searchConsole: null`) a linked property stays
 * `pending`, and this says so rather than letting `pending` promise a synchronisation.
 */
export function searchConsoleSync(hasProvider: boolean): SearchConsole['sync'] {
  return hasProvider ? { available: true, reason: null } : { available: false, reason: 'no_provider' };
}
