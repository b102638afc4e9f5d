/** The Search Console module: its sync job and its read. */
import { createGoogleSearchConsole, type Providers } from '../../providers/index.js';
import type { Services } from '../../services.js';
import { defineModule } from '../module.js';
import { searchConsoleHandlers } from './handlers.js';
import { syncJob } from './sync-job.js';

export function searchConsoleModule(services: Services, providers: Providers) {
  // Credentials come with each linked property, so the Google adapter needs no configuration.
  const provider = providers.searchConsole === undefined ? createGoogleSearchConsole({ clock: services.clock }) : providers.searchConsole;
  // The scorecard and the reports say why a linked property has no data: they are handed this.
  const synchronises = provider !== null;
  return defineModule({ name: 'search-console', handlers: searchConsoleHandlers(services, { synchronises }), jobs: [syncJob(services, provider)], provides: { synchronises } });
}
