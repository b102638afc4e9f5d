import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { type Language } from '@siteaudit/schema';
import { isUnresolvableName, webhookUrlSchemeError } from '@siteaudit/schema/rules';
import { assertWithinPlan } from '@siteaudit/schema/pipeline';
import type { Handlers } from '../../http/binder.js';
import type { Caller } from '../../http/context.js';
import { ApiError, deletedOrNotFound, notFound } from '../../http/errors.js';
import { checkUrlAddress } from '../../net/url-check.js';
import type { Services } from '../../services.js';
import { deliveryLogCutoff, secretRotationEndsAt, TEST_EVENT_TYPE } from '../../delivery/policy.js';
import { generateWebhookSecret } from '../../delivery/signing.js';
import { byCreation, newestFirst } from '../paging.js';
import { lockTeam } from '../team-lock.js';
import { queueDeliveries } from './delivery-jobs.js';
import { secretContext, toDelivery, toWebhook, type DeliveryRow, type WebhookRow } from './webhook-row.js';
import { transaction } from '../../store/retry.js';

type WebhookOps =
  | 'listWebhooks'
  | 'createWebhook'
  | 'getWebhook'
  | 'updateWebhook'
  | 'deleteWebhook'
  | 'rotateWebhookSecret'
  | 'testWebhook'
  | 'listWebhookDeliveries';

/** The team's subscription, or 404: another team's is indistinguishable from a missing one. */
async function findWebhook(db: Knex, caller: Caller, id: string): Promise<WebhookRow> {
  const row = await db('webhooks').where({ id, team_id: caller.teamId }).first();
  if (!row) throw notFound();
  return row as WebhookRow;
}

/**
 * https to a public address (docs/decisions/webhooks.md). A name that does not resolve yet is accepted
 * (the resolver may be down), unless the public DNS never resolves it (`.invalid`, `.test`,
 * `.example`): every connection is vetted again at delivery. With private addresses allowed
 * (development), http and private addresses too; the scheme rule is the one the mock applies.
 */
async function assertWebhookUrl(services: Services, url: string, language: Language): Promise<void> {
  const allowPrivate = services.network.allowPrivateAddresses;
  const schemeErrors = webhookUrlSchemeError(url, allowPrivate, language);
  if (schemeErrors) throw new ApiError('validation_failed', { errors: schemeErrors });
  const verdict = await checkUrlAddress(url, { allowPrivate, httpsOnly: !allowPrivate });
  if (verdict === 'refused' || (!allowPrivate && isUnresolvableName(new URL(url).hostname))) {
    throw new ApiError('webhook.url_refused', {
      errors: { url: [{ code: 'url_refused', message: 'Must be an https URL that resolves to a public address' }] },
    });
  }
}

export function webhookHandlers(services: Services): Pick<Handlers, WebhookOps> {
  const { knex, reads, secrets } = services;

  return {
    async listWebhooks(ctx) {
      const rows = await newestFirst(reads('webhooks').where({ team_id: ctx.caller.teamId }), ctx.page);
      return { items: (rows as WebhookRow[]).map(toWebhook), key: byCreation };
    },

    async createWebhook(ctx, { body }) {
      await assertWebhookUrl(services, body.url, ctx.language);
      const plan = ctx.caller.plan;
      const secret = generateWebhookSecret();
      const id = randomUUID();
      const row: WebhookRow = {
        id,
        team_id: ctx.caller.teamId,
        url: body.url,
        description: body.description ?? null,
        events: JSON.stringify([...new Set(body.events)]),
        active: true,
        disabled_reason: null,
        disabled_at: null,
        consecutive_failures: 0,
        last_delivery_at: null,
        secret_enc: secrets.encrypt(secret, secretContext(id)),
        previous_secret_enc: null,
        secret_rotation_ends_at: null,
        created_at: ctx.now.toISOString(),
      };
      await transaction(knex, async (trx) => {
        // Count and insert under the team lock: concurrent creates cannot both take the last slot.
        await lockTeam(trx, services.dialect, ctx.caller.teamId);
        const [{ count }] = await trx('webhooks').where({ team_id: ctx.caller.teamId }).count({ count: '*' });
        assertWithinPlan(services.plans(), plan, 'api.webhooks.max', Number(count) + 1, 'plan_limit.api.webhooks.max');
        await trx('webhooks').insert(row);
      });
      // The only answer besides rotate-secret that carries the secret.
      return { body: { data: { ...toWebhook(row), secret } } };
    },

    async getWebhook(ctx, { params }) {
      return { body: { data: toWebhook(await findWebhook(reads, ctx.caller, params.webhook)) } };
    },

    async updateWebhook(ctx, { params, body }) {
      await findWebhook(knex, ctx.caller, params.webhook);
      if (body.url !== undefined) await assertWebhookUrl(services, body.url, ctx.language);
      // Read and written in one transaction, the row locked (SQLite runs one transaction at a
      // time): a deactivation decided on a row read before an automatic disablement committed
      // wrote `manual` over its `consecutive_failures` reason, and the answer showed the failure
      // counter as it was before the deliveries that ran meanwhile.
      const row = await transaction(knex, async (trx) => {
        const query = trx('webhooks').where({ id: params.webhook, team_id: ctx.caller.teamId });
        const current = (await (services.dialect === 'postgres' ? query.forUpdate() : query).first()) as WebhookRow | undefined;
        if (!current) throw notFound();
        const changes: Partial<WebhookRow> = {};
        if (body.url !== undefined) changes.url = body.url;
        if (body.events !== undefined) changes.events = JSON.stringify([...new Set(body.events)]);
        if (body.description !== undefined) changes.description = body.description;
        if (body.active === true) {
          // Re-enabling clears the disablement and resets the counter.
          Object.assign(changes, { active: true, disabled_reason: null, disabled_at: null, consecutive_failures: 0 });
        } else if (body.active === false && (current.active === true || current.active === 1)) {
          Object.assign(changes, { active: false, disabled_reason: 'manual', disabled_at: ctx.now.toISOString() });
        }
        if (Object.keys(changes).length > 0) await trx('webhooks').where({ id: current.id }).update(changes);
        return { ...current, ...changes };
      });
      return { body: { data: toWebhook(row) } };
    },

    async deleteWebhook(ctx, { params }) {
      // No plan check: removing a subscription is never refused by billing (docs/plans.md).
      const hook = await findWebhook(knex, ctx.caller, params.webhook);
      await transaction(knex, async (trx) => {
        await trx('webhook_deliveries').where({ webhook_id: hook.id }).delete();
        deletedOrNotFound(await trx('webhooks').where({ id: hook.id }).delete());
      });
    },

    async rotateWebhookSecret(ctx, { params }) {
      const secret = generateWebhookSecret();
      // Read and written in one transaction, the row locked (SQLite runs one transaction at a
      // time): two rotations at the same time each keep the secret the other one replaced, and
      // no caller is handed a secret that never signs.
      const rotated = await transaction(knex, async (trx) => {
        const query = trx('webhooks').where({ id: params.webhook, team_id: ctx.caller.teamId });
        const hook = (await (services.dialect === 'postgres' ? query.forUpdate() : query).first()) as WebhookRow | undefined;
        if (!hook) throw notFound();
        // The current secret keeps signing for 24 h; one from an earlier rotation stops now.
        const changes = {
          secret_enc: secrets.encrypt(secret, secretContext(hook.id)),
          previous_secret_enc: hook.secret_enc,
          secret_rotation_ends_at: secretRotationEndsAt(ctx.now).toISOString(),
        };
        await trx('webhooks').where({ id: hook.id }).update(changes);
        return { ...hook, ...changes };
      });
      return { body: { data: { ...toWebhook(rotated), secret } } };
    },

    async testWebhook(ctx, { params }) {
      // Sent even to a disabled subscription; the worker sends it once and never counts it.
      const hook = await findWebhook(knex, ctx.caller, params.webhook);
      const event = { id: randomUUID(), type: TEST_EVENT_TYPE, createdAt: ctx.now.toISOString(), data: { webhook_id: hook.id } };
      const [delivery] = await transaction(knex, (trx) => queueDeliveries(services, trx, [hook.id], event));
      return { body: { data: toDelivery(delivery) } };
    },

    async listWebhookDeliveries(ctx, { params }) {
      const hook = await findWebhook(reads, ctx.caller, params.webhook);
      // Past retention a delivery is never listed, even before the sweep has removed it.
      const query = reads('webhook_deliveries')
        .where({ webhook_id: hook.id })
        .andWhere('created_at', '>=', deliveryLogCutoff(ctx.now).toISOString());
      const rows = await newestFirst(query, ctx.page);
      return { items: (rows as DeliveryRow[]).map(toDelivery), key: byCreation };
    },
  };
}
