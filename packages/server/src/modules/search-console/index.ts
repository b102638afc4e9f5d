/** The Search Console module: its sync job and its read. */
import { createGoogleSearchConsole, type Providers } from '../../providers/index.js';
import type { Services } from '../../services.js';
import type { ServerModule } from '../module.js';
import { searchConsoleHandlers } from './handlers.js';
import { registerSyncJob } from './sync.js';

export { linkSearchConsole, type LinkSearchConsoleInput } from './link.js';

export function searchConsoleModule(services: Services, providers: Providers): ServerModule<ReturnType<typeof searchConsoleHandlers>> {
  // Credentials come with each linked property, so the Google adapter needs no configuration.
  const provider = providers.searchConsole === undefined ? createGoogleSearchConsole({ clock: services.clock }) : providers.searchConsole;
  registerSyncJob(services, provider);
  return { handlers: searchConsoleHandlers(services) };
}
