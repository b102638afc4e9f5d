/** The campaigns module: the five campaign operations. */
import type { Services } from '../../services.js';
import { defineModule } from '../module.js';
import { campaignHandlers, type CrawlStopper } from './handlers.js';

export interface CampaignsNeeds {
  /** From the crawls module: a campaign's deletion stops its running crawl first. */
  stopper: CrawlStopper;
}

export function campaignsModule(services: Services, needs: CampaignsNeeds) {
  return defineModule({ name: 'campaigns', needs: ['crawls'], handlers: campaignHandlers(services, needs.stopper) });
}
