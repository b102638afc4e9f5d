import { z } from 'zod';
import { DateTime, PageQuery, Uuid, withoutCredentials } from '../common.js';
import { WEBHOOK_URL_MESSAGE } from '../rules/webhooks.js';

/** Event types a subscription may list (docs/decisions/webhooks.md). `webhook.test` is sent only by the test call. */
export const WEBHOOK_EVENTS = [
  'crawl.completed',
  'crawl.failed',
  'crawl.stopped',
  'export.ready',
  'recommendations.ready',
  'signal.detected',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number] | 'webhook.test';

export const Webhook = z
  .object({
    id: Uuid,
    url: z.string(),
    description: z.string().nullable(),
    events: z.array(z.enum(WEBHOOK_EVENTS)),
    active: z.boolean(),
    disabled_reason: z.string().nullable(),
    disabled_at: DateTime.nullable(),
    consecutive_failures: z.int().min(0),
    last_delivery_at: DateTime.nullable(),
    secret_rotation_ends_at: DateTime.nullable(),
    created_at: DateTime,
  })
  .meta({ id: 'Webhook' });
export type Webhook = z.infer<typeof Webhook>;

export const WebhookWithSecret = Webhook.extend({
  secret: z.string().describe('the signing secret, shown once'),
}).meta({ id: 'WebhookWithSecret' });

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
/**
 * `error_reason` of a failed attempt (spec: Events 3, a stable reason code; `refused_address` is
 * the spec's, the others are ours: docs/decisions/webhook-delivery.md). `http_status` and
 * `redirect` come with `response_status`.
 */
export const DELIVERY_ERROR_REASONS = [
  'refused_address',
  'dns_failure',
  'connection_refused',
  'connection_failed',
  'tls_certificate_untrusted',
  'tls_certificate_expired',
  'tls_hostname_mismatch',
  'tls_handshake_failed',
  'timeout',
  'http_status',
  'redirect',
  'subscription_disabled',
] as const;
export type DeliveryErrorReason = (typeof DELIVERY_ERROR_REASONS)[number];

export const WebhookDelivery = z
  .object({
    id: Uuid,
    event_id: Uuid,
    event_type: z.string(),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.int().min(0),
    response_status: z.int().nullable(),
    error_reason: z.string().nullable().describe(`why the last attempt failed: ${DELIVERY_ERROR_REASONS.join(', ')}; more may be added`),
    duration_ms: z.int().nullable(),
    next_attempt_at: DateTime.nullable(),
    delivered_at: DateTime.nullable(),
    created_at: DateTime,
  })
  .meta({ id: 'WebhookDelivery', description: 'One event sent to one subscription. The receiver body is never stored.' });
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

/**
 * Any absolute http(s) URL passes the contract: whether http is taken depends on the server
 * (`webhookUrlSchemeError`, rules/webhooks.ts), which the server and the mock check next.
 */
const WebhookUrl = z
  .string()
  .trim()
  .max(2048)
  .refine(
    (v) => {
      try {
        const { protocol } = new URL(v);
        return protocol === 'https:' || protocol === 'http:';
      } catch {
        return false;
      }
    },
    { message: WEBHOOK_URL_MESSAGE.en, params: { code: 'invalid_url', fr: WEBHOOK_URL_MESSAGE.fr } },
  )
  // Credentials in the URL would be returned on every read and never sent: a receiver
  // authenticates deliveries by their signature (docs/decisions/webhooks.md).
  .refine(withoutCredentials, {
    message: 'Must not hold a user name or password: verify the signature of each delivery instead',
    params: { code: 'invalid_url', fr: 'Ne doit contenir ni nom d’utilisateur ni mot de passe : vérifiez plutôt la signature de chaque livraison' },
  })
  .describe('An absolute https URL, without credentials. http is accepted only by a server that allows private addresses (local development).');

// Duplicates are accepted and kept once, so the list's length is not capped at the number of types.
const Events = z.array(z.enum(WEBHOOK_EVENTS)).min(1);

export const CreateWebhookBody = z
  .strictObject({
    url: WebhookUrl,
    events: Events,
    description: z.string().max(500).nullable().optional(),
  })
  .meta({ id: 'CreateWebhookBody' });

export const UpdateWebhookBody = z
  .strictObject({
    url: WebhookUrl.optional(),
    events: Events.optional(),
    description: z.string().max(500).nullable().optional(),
    active: z.boolean().optional(),
  })
  .meta({ id: 'UpdateWebhookBody' });

export const WebhookParams = z.strictObject({ webhook: Uuid });
export const ListWebhooksQuery = PageQuery;
export const ListDeliveriesQuery = PageQuery;

/**
 * The body of every delivery (docs/decisions/webhooks.md). `id` is the event id, also sent as
 * `webhook-id`, stable across retries so receivers can deduplicate.
 */
export function webhookEvent<T extends string, D extends z.ZodType>(type: T, data: D) {
  return z.object({ id: Uuid, type: z.literal(type), created_at: DateTime, data });
}
