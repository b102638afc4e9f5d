import { z } from 'zod';
import { Severity, SeverityCounts, Uuid } from '../common.js';
import { Crawl } from './crawls.js';
import { Export } from './exports.js';
import { webhookEvent } from './webhooks.js';

/** The `data` of the three crawl events: one named schema, so that a generated client has one type for it. */
export const CrawlEventData = z.object({ crawl: Crawl }).meta({ id: 'CrawlEventData', description: 'The crawl the event is about, as GET /v1/crawls/{crawl} answers it.' });

/** The payload of each event type, sent as the body of a delivery (docs/decisions/webhooks.md). */
export const WEBHOOK_EVENT_PAYLOADS = {
  'crawl.completed': webhookEvent('crawl.completed', CrawlEventData).meta({ id: 'CrawlCompletedEvent' }),
  'crawl.failed': webhookEvent('crawl.failed', CrawlEventData).meta({ id: 'CrawlFailedEvent' }),
  'crawl.stopped': webhookEvent('crawl.stopped', CrawlEventData).meta({ id: 'CrawlStoppedEvent' }),
  'export.ready': webhookEvent('export.ready', z.object({ export: Export })).meta({ id: 'ExportReadyEvent' }),
  'recommendations.ready': webhookEvent(
    'recommendations.ready',
    z.object({
      project_id: Uuid,
      campaign_id: Uuid,
      crawl_id: Uuid,
      recommendations: z.int().min(0).describe('how many fixes the list holds; read them at GET /v1/crawls/{crawl}/recommendations'),
      top: z
        .array(z.object({ name: z.string(), severity: Severity, pages: z.int().min(0), impact: z.number().min(0) }))
        .describe('the first fixes of the list, at most 5'),
    }),
  ).meta({ id: 'RecommendationsReadyEvent', description: 'Sent when a settled crawl’s prioritised fix list is ready (docs/decisions/regression-signals.md).' }),
  'signal.detected': webhookEvent(
    'signal.detected',
    z.object({
      kind: z.enum(['regression']),
      severity: z.enum(['error', 'warning']),
      reasons: z.array(z.enum(['new_issues', 'health_score_drop'])).min(1),
      project_id: Uuid,
      campaign_id: Uuid,
      crawl_id: Uuid,
      previous_crawl_id: Uuid,
      counts: z
        .object({
          new: SeverityCounts,
          fixed: SeverityCounts,
          gone_with_page: SeverityCounts,
          persisting: SeverityCounts,
        pages_added: z.int().min(0),
        pages_removed: z.int().min(0),
          status_changed: z.int().min(0),
          redirect_changed: z.int().min(0),
        })
        .describe('issue occurrences by severity (new; fixed, their page still there; gone_with_page; persisting) and page counts, as the changes summary'),
      health_score: z.object({ score: z.int().nullable(), previous_score: z.int().nullable(), delta: z.int().nullable() }),
      top_new_checks: z.array(z.object({ name: z.string(), severity: Severity, category: z.string(), new: z.int().min(1) })).describe('at most 5, most severe then most new'),
    }),
  ).meta({ id: 'SignalDetectedEvent', description: 'A comparable crawl regressed past its campaign’s regression_threshold (docs/decisions/regression-signals.md).' }),
  'webhook.test': webhookEvent('webhook.test', z.object({ webhook_id: Uuid })).meta({ id: 'WebhookTestEvent' }),
} as const;

type EventPayload = (typeof WEBHOOK_EVENT_PAYLOADS)[keyof typeof WEBHOOK_EVENT_PAYLOADS];

/**
 * Any delivery body, told apart by `type`: the document's `WebhookEvent` (`oneOf` with a
 * `discriminator`), so that generated clients get one union as the SDK's `WebhookEvent` type.
 */
export const WebhookEvent = z
  .discriminatedUnion('type', Object.values(WEBHOOK_EVENT_PAYLOADS) as [EventPayload, ...EventPayload[]])
  .meta({ id: 'WebhookEvent', description: 'The body of any webhook delivery, by its `type`.' });
