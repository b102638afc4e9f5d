/** The campaigns module: the five campaign operations. */
import type { Services } from '../../services.js';
import { defineModule } from '../module.js';
import { campaignHandlers, type CrawlStopper, type ExportEraser } from './handlers.js';

export interface CampaignsNeeds {
  /** From the crawls module: a campaign's deletion stops its running crawl first. */
  stopper: CrawlStopper;
  /** From the exports module: a campaign's deletion removes its crawls' export files. */
  exports: ExportEraser;
}

export function campaignsModule(services: Services, needs: CampaignsNeeds) {
  return defineModule({ name: 'campaigns', needs: ['crawls', 'exports'], handlers: campaignHandlers(services, needs.stopper, needs.exports) });
}
