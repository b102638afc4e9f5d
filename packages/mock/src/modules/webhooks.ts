/**
 * Webhook subscriptions and their delivery log. The mock sends nothing over the network: a
 * delivery is recorded as `pending` and `advance()` marks it delivered (200), so the log, the
 * counters and `last_delivery_at` move as they would against a healthy receiver.
 */
import { type Language, type Webhook, type WebhookDelivery } from '@siteaudit/schema';
import {
  TEST_EVENT_TYPE,
  WEBHOOK_SECRET_BYTES,
  WEBHOOK_SECRET_PREFIX,
  deliveryLogCutoff,
  isRetriedEvent,
  secretRotationEndsAt,
  nextEventTime,
  isUnresolvableName,
  webhookUrlSchemeError,
} from '@siteaudit/schema/rules';
import { assertWithinPlan } from '@siteaudit/schema/pipeline';
import { data, empty, fail, type BusinessMap, type MockEnv } from '../context.js';
import type { DeliveryRecord, Job, WebhookRecord } from '../db.js';
import { isObviouslyPrivateHost } from '../hosts.js';
import { base64, createRandom } from '../random.js';
import { iso, newestFirst, nextSeq, ownedWebhook, SECOND } from '../store.js';

const DELIVERY_DELAY_MS = 0.5 * SECOND;

export function serializeWebhook(record: WebhookRecord): Webhook {
  return {
    id: record.id,
    url: record.url,
    description: record.description,
    events: [...record.events] as Webhook['events'],
    active: record.active,
    disabled_reason: record.disabled_reason,
    disabled_at: record.disabled_at,
    consecutive_failures: record.consecutive_failures,
    last_delivery_at: record.last_delivery_at,
    secret_rotation_ends_at: record.secret_rotation_ends_at,
    created_at: record.created_at,
  };
}

function serializeDelivery(record: DeliveryRecord): WebhookDelivery {
  const { seq: _seq, team_id: _team, webhook_id: _webhook, ...rest } = record;
  return rest;
}

/** `whsec_` and the standard base64 of 32 bytes, from the mock's seeded stream. */
function newSecret(env: MockEnv): string {
  return WEBHOOK_SECRET_PREFIX + base64(env.random.bytes(WEBHOOK_SECRET_BYTES));
}

/** The server's rules: https (http too with private addresses allowed), to a public host, under a name the public DNS may resolve. */
function assertWebhookUrl(env: MockEnv, url: string, language: Language): void {
  const schemeErrors = webhookUrlSchemeError(url, env.allowPrivateAddresses, language);
  if (schemeErrors) fail('validation_failed', { errors: schemeErrors });
  if (!env.allowPrivateAddresses && (isObviouslyPrivateHost(url) || isUnresolvableName(new URL(url).hostname))) {
    fail('webhook.url_refused', { errors: { url: [{ code: 'url_refused', message: 'Must be an https URL that resolves to a public address' }] } });
  }
}

function queueDelivery(env: MockEnv, webhook: WebhookRecord, eventType: string, at: number): DeliveryRecord {
  const delivery: DeliveryRecord = {
    seq: nextSeq(env.db),
    id: env.random.uuid(),
    team_id: webhook.team_id,
    webhook_id: webhook.id,
    event_id: env.random.uuid(),
    event_type: eventType,
    status: 'pending',
    attempts: 0,
    response_status: null,
    error_reason: null,
    duration_ms: null,
    next_attempt_at: iso(at),
    delivered_at: null,
    created_at: iso(at),
  };
  env.db.deliveries.set(delivery.id, delivery);
  env.schedule('delivery.attempt', delivery.id, at + DELIVERY_DELAY_MS);
  return delivery;
}

/** Queues one delivery per active subscription of the team that lists `type`. */
export function emitEvent(env: MockEnv, teamId: string, type: string, now: number): void {
  const at = (env.db.lastEventAt = nextEventTime(env.db.lastEventAt, now));
  for (const webhook of env.db.webhooks.values()) {
    if (webhook.team_id === teamId && webhook.active && webhook.events.includes(type)) queueDelivery(env, webhook, type, at);
  }
}

/** The one attempt of a delivery: the mock's receiver always answers 200. */
export function runDeliveryJob(env: MockEnv, job: Job): void {
  const delivery = env.db.deliveries.get(job.id);
  const webhook = delivery && env.db.webhooks.get(delivery.webhook_id);
  if (!delivery || !webhook || delivery.status !== 'pending') return;
  Object.assign(delivery, {
    status: 'succeeded',
    attempts: delivery.attempts + 1,
    response_status: 200,
    duration_ms: createRandom(`delivery:${delivery.id}`).int(40, 400),
    next_attempt_at: null,
    delivered_at: iso(job.at),
  });
  webhook.last_delivery_at = iso(job.at);
  // A success resets the failure counter; webhook.test never counts either way (docs/decisions/webhook-delivery.md).
  if (isRetriedEvent(delivery.event_type)) webhook.consecutive_failures = 0;
}

/** Creates a subscription record; the caller has checked the rules. Returns it with its secret. */
export function insertWebhook(env: MockEnv, teamId: string, body: { url: string; events: string[]; description?: string | null }, now: Date): WebhookRecord {
  const record: WebhookRecord = {
    seq: nextSeq(env.db),
    id: env.random.uuid(),
    team_id: teamId,
    url: body.url,
    description: body.description ?? null,
    events: [...new Set(body.events)],
    active: true,
    disabled_reason: null,
    disabled_at: null,
    consecutive_failures: 0,
    last_delivery_at: null,
    secret: newSecret(env),
    previous_secret: null,
    secret_rotation_ends_at: null,
    created_at: iso(now),
  };
  env.db.webhooks.set(record.id, record);
  return record;
}

export const webhookOperations: Pick<
  BusinessMap,
  'listWebhooks' | 'createWebhook' | 'getWebhook' | 'updateWebhook' | 'deleteWebhook' | 'rotateWebhookSecret' | 'testWebhook' | 'listWebhookDeliveries'
> = {
  listWebhooks({ db, caller }) {
    const webhooks = [...db.webhooks.values()].filter((w) => w.team_id === caller.team.id);
    return { type: 'list', items: newestFirst(webhooks, serializeWebhook) };
  },

  createWebhook({ env, db, caller, body, now, language }) {
    assertWebhookUrl(env, body.url, language);
    const count = [...db.webhooks.values()].filter((w) => w.team_id === caller.team.id).length;
    assertWithinPlan(env.plans, caller.plan, 'api.webhooks.max', count + 1, 'plan_limit.api.webhooks.max');
    const record = insertWebhook(env, caller.team.id, body, now);
    return data({ ...serializeWebhook(record), secret: record.secret }, { status: 201 });
  },

  getWebhook({ db, caller, params }) {
    return data(serializeWebhook(ownedWebhook(db, params.webhook, caller)));
  },

  updateWebhook({ env, db, caller, params, body, now, language }) {
    const webhook = ownedWebhook(db, params.webhook, caller);
    if (body.url !== undefined) {
      assertWebhookUrl(env, body.url, language);
      webhook.url = body.url;
    }
    if (body.events !== undefined) webhook.events = [...new Set(body.events)];
    if (body.description !== undefined) webhook.description = body.description;
    if (body.active === true) {
      // Re-enabling clears the disablement and resets the counter (docs/decisions/webhook-delivery.md).
      Object.assign(webhook, { active: true, disabled_reason: null, disabled_at: null, consecutive_failures: 0 });
    } else if (body.active === false && webhook.active) {
      Object.assign(webhook, { active: false, disabled_reason: 'manual', disabled_at: iso(now) });
    }
    return data(serializeWebhook(webhook));
  },

  deleteWebhook({ db, caller, params }) {
    const webhook = ownedWebhook(db, params.webhook, caller);
    for (const delivery of [...db.deliveries.values()]) if (delivery.webhook_id === webhook.id) db.deliveries.delete(delivery.id);
    db.webhooks.delete(webhook.id);
    return empty();
  },

  rotateWebhookSecret({ env, db, caller, params, now }) {
    const webhook = ownedWebhook(db, params.webhook, caller);
    Object.assign(webhook, {
      previous_secret: webhook.secret,
      secret: newSecret(env),
      secret_rotation_ends_at: iso(secretRotationEndsAt(now)),
    });
    return data({ ...serializeWebhook(webhook), secret: webhook.secret });
  },

  testWebhook({ env, db, caller, params, now }) {
    const webhook = ownedWebhook(db, params.webhook, caller);
    // Sent even to a disabled subscription (docs/decisions/webhooks.md).
    const delivery = queueDelivery(env, webhook, TEST_EVENT_TYPE, now.getTime());
    return data(serializeDelivery(delivery), { status: 202 });
  },

  listWebhookDeliveries({ db, caller, params, now }) {
    const webhook = ownedWebhook(db, params.webhook, caller);
    const cutoff = iso(deliveryLogCutoff(now));
    const deliveries = [...db.deliveries.values()].filter((d) => d.webhook_id === webhook.id && d.created_at >= cutoff);
    return { type: 'list', items: newestFirst(deliveries, serializeDelivery) };
  },
};
