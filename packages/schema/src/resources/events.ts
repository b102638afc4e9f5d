import { z } from 'zod';
import { Severity, Uuid } from '../common.js';
import { Crawl } from './crawls.js';
import { Export } from './exports.js';
import { webhookEvent } from './webhooks.js';

/** The payload of each event type, sent as the body of a delivery (docs/decisions/webhooks.md). */
export const WEBHOOK_EVENT_PAYLOADS = {
  'crawl.completed': webhookEvent('crawl.completed', z.object({ crawl: Crawl })).meta({ id: 'CrawlCompletedEvent' }),
  'crawl.failed': webhookEvent('crawl.failed', z.object({ crawl: Crawl })).meta({ id: 'CrawlFailedEvent' }),
  'crawl.stopped': webhookEvent('crawl.stopped', z.object({ crawl: Crawl })).meta({ id: 'CrawlStoppedEvent' }),
  'export.ready': webhookEvent('export.ready', z.object({ export: Export })).meta({ id: 'ExportReadyEvent' }),
  'recommendations.ready': webhookEvent(
    'recommendations.ready',
    z.object({ project_id: Uuid, crawl_id: Uuid.nullable() }),
  ).meta({ id: 'RecommendationsReadyEvent' }),
  'signal.detected': webhookEvent(
    'signal.detected',
    z.object({ project_id: Uuid, signal: z.string(), severity: Severity, details: z.string() }),
  ).meta({ id: 'SignalDetectedEvent' }),
  'webhook.test': webhookEvent('webhook.test', z.object({ webhook_id: Uuid })).meta({ id: 'WebhookTestEvent' }),
} as const;
