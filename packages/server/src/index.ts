export { createSiteAuditServer, type SiteAuditServer, type SiteAuditServerOptions } from './server.js';
export { AdminError, TOKEN_DEFAULT_DAYS, TOKEN_MAX_DAYS, type Admin, type CreatedToken } from './admin.js';
export { resolvePlans, type PlanOverrides } from '@siteaudit/schema';
export * from './providers/index.js';
export { chromiumAvailable, createRenderer } from './rendering/index.js';
export { DEFAULT_HEAP_GROWING_PERCENT, limitHeapGrowth } from './heap.js';
