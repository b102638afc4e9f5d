/**
 * Event fan-out and delivery (docs/decisions/webhook-delivery.md): each published event becomes
 * one delivery row per matching subscription, written in the transaction of the change that
 * caused it, and a durable `webhook.deliver` job sends it, retries it and records the outcome.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Dispatcher } from 'undici';
import type { DomainEvent, EventSubscriber } from '../../events/bus.js';
import type { JobResult } from '../../jobs/job-runner.js';
import { createGuardedAgent } from '../../net/address-guard.js';
import type { Services } from '../../services.js';
import { bool, json } from '../../store/database.js';
import { deliverWebhook, type DeliveryResult } from '../../delivery/delivery.js';
import {
  DISABLED_REASON_CONSECUTIVE_FAILURES,
  deliveryLogCutoff,
  isRetriedEvent,
  nextAttemptDelayMs,
  secretsValidAt,
  shouldDisable,
} from '../../delivery/policy.js';
import { webhookHeaders } from '../../delivery/signing.js';
import { secretContext, type DeliveryRow, type WebhookRow } from './webhook-row.js';
import { transaction } from '../../store/retry.js';
import { defineJobHandler, type ModuleJob } from '../module.js';
import { WEBHOOK_DELIVER, WEBHOOK_SWEEP } from './jobs.js';

const SWEEP_EVERY_MS = 60 * 60 * 1000;
const SWEEP_BATCH = 1000;

type Db = Knex | Knex.Transaction;

const isTransaction = (db: Db): db is Knex.Transaction => (db as Knex.Transaction).isTransaction === true;

export interface EventInput {
  id: string;
  type: string;
  createdAt: string;
  data: Record<string, unknown>;
}

/** The body of every delivery: `{ id, type, created_at, data }` (docs/decisions/webhooks.md). */
export function eventBody(event: EventInput): string {
  return JSON.stringify({ id: event.id, type: event.type, created_at: event.createdAt, data: event.data });
}

/**
 * Writes pending deliveries of one event and queues their jobs, in `db`'s transaction when it is
 * one: if the caller's change rolls back, so do the deliveries.
 */
export async function queueDeliveries(services: Services, db: Db, webhookIds: string[], event: EventInput): Promise<DeliveryRow[]> {
  if (webhookIds.length === 0) return [];
  const now = services.clock().toISOString();
  const body = eventBody(event);
  const rows: DeliveryRow[] = webhookIds.map((webhookId) => ({
    id: randomUUID(),
    webhook_id: webhookId,
    event_id: event.id,
    event_type: event.type,
    body,
    status: 'pending',
    attempts: 0,
    response_status: null,
    error_reason: null,
    duration_ms: null,
    next_attempt_at: now,
    delivered_at: null,
    // The event's time, not the clock's: events are strictly ordered in time (events/bus.ts), so
    // deliveries listed by creation keep the order of their events, even within a millisecond.
    created_at: event.createdAt,
  }));
  await db('webhook_deliveries').insert(rows);
  for (const row of rows) {
    await services.jobs.enqueue(WEBHOOK_DELIVER, { deliveryId: row.id }, { trx: isTransaction(db) ? db : undefined });
  }
  return rows;
}

export interface DeliveryWorker {
  jobs: ModuleJob[];
  /** Turns each published event into deliveries, in the publisher's transaction. */
  subscriber: EventSubscriber;
  /** Queues the retention sweep unless one is already queued. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export function createDeliveryWorker(services: Services, options: { timeoutMs?: number } = {}): DeliveryWorker {
  const { knex, clock } = services;
  const allowPrivateAddresses = services.network.allowPrivateAddresses;
  const log = services.logger.child({ module: 'webhooks' });
  // One guarded agent for all attempts: connections to a receiver are reused, and every new
  // connection is still vetted and pinned.
  let agent: (Dispatcher & { destroy(): Promise<void> }) | null = null;
  const dispatcher = () => (agent ??= createGuardedAgent({ allowPrivate: allowPrivateAddresses, connectTimeoutMs: options.timeoutMs }));

  const subscriber = async (event: DomainEvent, db: Db) => {
    if (!isRetriedEvent(event.type)) return; // webhook.test comes only from the test call
    const hooks = (await db('webhooks').where({ team_id: event.teamId, active: true }).select('id', 'events')) as Pick<WebhookRow, 'id' | 'events'>[];
    const matching = hooks.filter((h) => json<string[]>(h.events, []).includes(event.type)).map((h) => h.id);
    await queueDeliveries(services, db, matching, event);
  };

  function signingSecrets(hook: WebhookRow, now: Date): string[] {
    const current = services.secrets.decrypt(hook.secret_enc, secretContext(hook.id));
    const previous = hook.previous_secret_enc ? services.secrets.decrypt(hook.previous_secret_enc, secretContext(hook.id)) : null;
    return secretsValidAt(current, previous, hook.secret_rotation_ends_at, now);
  }

  async function finish(trx: Knex.Transaction, delivery: DeliveryRow, changes: Partial<DeliveryRow>): Promise<void> {
    // Only a pending delivery moves on: a concurrent run or a sweep must not be overwritten.
    await trx('webhook_deliveries').where({ id: delivery.id, status: 'pending' }).update(changes);
  }

  async function record(delivery: DeliveryRow, hook: WebhookRow, result: DeliveryResult): Promise<JobResult> {
    const done = clock();
    const at = done.toISOString();
    const attempts = Number(delivery.attempts) + 1;
    const retried = isRetriedEvent(delivery.event_type);
    const outcome = { attempts, response_status: result.responseStatus, error_reason: result.errorReason, duration_ms: result.durationMs };
    const delay = result.ok || !retried ? null : nextAttemptDelayMs(attempts, Math.random, result.retryAfterSeconds);
    const retryAt = delay === null ? null : new Date(done.getTime() + delay);
    services.metrics?.delivery(result.ok ? 'succeeded' : retryAt ? 'retrying' : 'failed');
    if (!result.ok) {
      // The receiver's URL stays out of the log: some carry a token in their query string. The
      // reason is the delivery log's; error_code the network or TLS code behind it.
      log.warn(
        { delivery: delivery.id, webhook: hook.id, team: hook.team_id, event_type: delivery.event_type, attempt: attempts, reason: result.errorReason, error_code: result.errorCode ?? undefined, response_status: result.responseStatus ?? undefined, retry_at: retryAt?.toISOString() },
        'webhook delivery failed',
      );
    }

    await transaction(knex, async (trx) => {
      await trx('webhooks').where({ id: hook.id }).update({ last_delivery_at: at });
      if (result.ok) {
        await finish(trx, delivery, { ...outcome, status: 'succeeded', next_attempt_at: null, delivered_at: at });
        // webhook.test neither counts as a failure nor clears a run of real ones.
        if (retried) await trx('webhooks').where({ id: hook.id }).update({ consecutive_failures: 0 });
      } else if (retryAt) {
        await finish(trx, delivery, { ...outcome, status: 'pending', next_attempt_at: retryAt.toISOString() });
      } else {
        await finish(trx, delivery, { ...outcome, status: 'failed', next_attempt_at: null });
        if (retried) {
          // Atomic increment, then read back under the row lock it took (PostgreSQL) or the single
          // connection (SQLite), so concurrent failures count exactly and disable once.
          await trx('webhooks').where({ id: hook.id }).increment('consecutive_failures', 1);
          const row = (await trx('webhooks').where({ id: hook.id }).first('consecutive_failures', 'active')) as Pick<WebhookRow, 'consecutive_failures' | 'active'> | undefined;
          if (row && bool(row.active) && shouldDisable(Number(row.consecutive_failures))) {
            await trx('webhooks').where({ id: hook.id }).update({ active: false, disabled_reason: DISABLED_REASON_CONSECUTIVE_FAILURES, disabled_at: at });
            log.warn({ webhook: hook.id, team: hook.team_id, consecutive_failures: Number(row.consecutive_failures) }, 'webhook disabled after consecutive failures');
          }
        }
      }
    });
    return retryAt ? { retryAt } : undefined;
  }

  async function deliver(deliveryId: string): Promise<JobResult> {
    const delivery = (await knex('webhook_deliveries').where({ id: deliveryId }).first()) as DeliveryRow | undefined;
    // Gone with its subscription or the sweep, or already settled by an earlier run.
    if (!delivery || delivery.status !== 'pending') return;
    const hook = (await knex('webhooks').where({ id: delivery.webhook_id }).first()) as WebhookRow | undefined;
    if (!hook) return;
    if (!bool(hook.active) && isRetriedEvent(delivery.event_type)) {
      await transaction(knex, (trx) => finish(trx, delivery, { status: 'failed', error_reason: 'subscription_disabled', next_attempt_at: null }));
      services.metrics?.delivery('failed');
      log.info({ delivery: delivery.id, webhook: hook.id, event_type: delivery.event_type, reason: 'subscription_disabled' }, 'webhook delivery dropped');
      return;
    }
    const now = clock();
    // Signed afresh at each attempt (receivers refuse old timestamps), same id and body each time.
    const headers = webhookHeaders({ id: delivery.event_id, body: delivery.body, secrets: signingSecrets(hook, now), timestamp: now });
    const result = await deliverWebhook({ url: hook.url, body: delivery.body, headers, allowPrivateAddresses, timeoutMs: options.timeoutMs }, dispatcher());
    return record(delivery, hook, result);
  }

  const deliverJob = defineJobHandler(WEBHOOK_DELIVER, {
    run: ({ deliveryId }) => deliver(deliveryId),
    async onFailed({ deliveryId }) {
      await knex('webhook_deliveries').where({ id: deliveryId, status: 'pending' }).update({ status: 'failed', next_attempt_at: null });
    },
  });

  const sweepJob = defineJobHandler(WEBHOOK_SWEEP, {
    async run() {
      const cutoff = deliveryLogCutoff(clock()).toISOString();
      // In batches, so a large backlog never holds one long lock on the log.
      for (;;) {
        const ids = knex('webhook_deliveries').where('created_at', '<', cutoff).limit(SWEEP_BATCH).select('id');
        const deleted = await knex('webhook_deliveries').whereIn('id', ids).delete();
        if (deleted < SWEEP_BATCH) break;
      }
      return { retryAt: new Date(clock().getTime() + SWEEP_EVERY_MS) };
    },
  });

  return {
    jobs: [deliverJob, sweepJob],
    subscriber,
    async start() {
      await services.jobs.enqueue(WEBHOOK_SWEEP, {});
    },
    async close() {
      const current = agent;
      agent = null;
      await current?.destroy().catch((err) => log.warn({ err }, 'webhook connections not closed'));
    },
  };
}
