/** Every operation's business function, joined by operation id; the contract supplies the rest. */
import type { Business, BusinessMap } from './context.js';
import type { OperationId } from '@siteaudit/schema';
import { accountOperations } from './modules/account.js';
import { campaignOperations } from './modules/campaigns.js';
import { crawlOperations } from './modules/crawls.js';
import { exportOperations } from './modules/exports.js';
import { positionOperations } from './modules/positions.js';
import { projectOperations } from './modules/projects.js';
import { webhookOperations } from './modules/webhooks.js';
import { logOperations } from './modules/logs.js';

/** Typed per operation; `satisfies` makes a missing operation a compile error. */
export const BUSINESS = {
  ...accountOperations,
  ...projectOperations,
  ...campaignOperations,
  ...crawlOperations,
  ...exportOperations,
  ...positionOperations,
  ...webhookOperations,
  ...logOperations,
} satisfies BusinessMap;

/** The same map, widened for the generic handler, which feeds each entry its own parsed input. */
export const BUSINESS_BY_ID = BUSINESS as unknown as Record<OperationId, Business<OperationId>>;
