import type { Webhook, WebhookDelivery } from '@siteaudit/schema';
import { bool, json } from '../../store/database.js';

export interface WebhookRow {
  id: string;
  team_id: string;
  url: string;
  description: string | null;
  /** JSON array of event types. */
  events: string;
  active: boolean | number;
  disabled_reason: string | null;
  disabled_at: string | null;
  consecutive_failures: number;
  last_delivery_at: string | null;
  secret_enc: string;
  previous_secret_enc: string | null;
  secret_rotation_ends_at: string | null;
  created_at: string;
}

export interface DeliveryRow {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  body: string;
  status: WebhookDelivery['status'];
  attempts: number;
  response_status: number | null;
  error_reason: string | null;
  duration_ms: number | null;
  next_attempt_at: string | null;
  delivered_at: string | null;
  created_at: string;
}

/** The public resource: the secrets never leave through it. */
export function toWebhook(row: WebhookRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: json<Webhook['events']>(row.events, []),
    active: bool(row.active),
    disabled_reason: row.disabled_reason,
    disabled_at: row.disabled_at,
    consecutive_failures: Number(row.consecutive_failures),
    last_delivery_at: row.last_delivery_at,
    secret_rotation_ends_at: row.secret_rotation_ends_at,
    created_at: row.created_at,
  };
}

/** The delivery log entry: the body we sent stays internal, the receiver's was never kept. */
export function toDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status,
    attempts: Number(row.attempts),
    response_status: row.response_status === null ? null : Number(row.response_status),
    error_reason: row.error_reason,
    duration_ms: row.duration_ms === null ? null : Number(row.duration_ms),
    next_attempt_at: row.next_attempt_at,
    delivered_at: row.delivered_at,
    created_at: row.created_at,
  };
}

/** The secret-box context binds a stored secret to its subscription row. */
export const secretContext = (webhookId: string) => webhookId;
