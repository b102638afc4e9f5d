/**
 * Event fan-out and the delivery worker, end to end: events published through the server's bus,
 * delivered over real TLS to local receivers, signatures checked with `standardwebhooks`, time
 * driven by a controllable clock and `server.jobs.idle()`.
 */
import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { WebhookEventType } from '@siteaudit/schema';
import { DISABLE_AFTER_CONSECUTIVE_FAILURES, MAX_ATTEMPTS } from '../../src/delivery/policy.js';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';

// Webhook URLs must be https: the receivers speak TLS with the test certificate, which the
// server's connector trusts as its only `ca` (vi.mock below is hoisted, hence the hoisted import).
const { TEST_CERT, TEST_KEY } = await vi.hoisted(() => import('../../../../tests/support/tls.js'));

vi.mock('undici', async (importOriginal) => {
  const actual = await importOriginal<typeof import('undici')>();
  const buildConnector: typeof actual.buildConnector = (options) => actual.buildConnector({ ...options, ca: [TEST_CERT] });
  return { ...actual, buildConnector };
});

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

interface Receiver {
  url: string;
  requests: Received[];
  /** The status the next requests get. */
  status: number;
  close(): Promise<void>;
}

const receivers: Receiver[] = [];

async function receiver(status = 200): Promise<Receiver> {
  const requests: Received[] = [];
  const r: Receiver = { url: '', requests, status, close: async () => undefined };
  const server: Server = createServer({ key: TEST_KEY, cert: TEST_CERT }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(r.status).end('receiver body, never stored');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  r.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  r.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  receivers.push(r);
  return r;
}

let h: Harness;
let offset = 0;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Moves the server's clock; jobs whose time has come run at the next `idle()`. */
const advance = (ms: number) => {
  offset += ms;
};

beforeAll(async () => {
  h = await startHarness({ network: { allowPrivateAddresses: true }, clock: () => new Date(Date.now() + offset) });
});
afterAll(() => h.close());
afterEach(async () => {
  await h.server.jobs.idle();
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

let teams = 0;
/** A team of its own per test, so no subscription of another test receives its events. */
async function team() {
  const slug = `wh-${++teams}`;
  const token = await h.tokenFor({ team: slug });
  const { id } = await h.knex('teams').where({ slug }).first('id');
  const call = (method: string, path: string, body?: unknown) => h.call(method, path, { token, body });
  return {
    teamId: id as string,
    call,
    async hook(url: string, events: string[] = ['crawl.completed']) {
      const res = await call('POST', '/v1/webhooks', { url, events });
      expect(res.status).toBe(201);
      return (await res.json()).data as { id: string; secret: string };
    },
    async deliveries(webhookId: string) {
      const res = await call('GET', `/v1/webhooks/${webhookId}/deliveries?limit=100`);
      expect(res.status).toBe(200);
      return (await res.json()).data as any[];
    },
    async webhook(webhookId: string) {
      return (await (await call('GET', `/v1/webhooks/${webhookId}`)).json()).data;
    },
    /** Publishes like a module would: in the transaction of the change that caused the event. */
    publish(type: WebhookEventType = 'crawl.completed', data: Record<string, unknown> = { crawl: { id: 'c1' } }) {
      return h.knex.transaction((trx) => h.server.events.publish({ type, teamId: id, data }, trx));
    },
  };
}

/**
 * standardwebhooks' check without its 5-minute window, for requests signed once the server clock
 * has been moved ahead of the wall clock: the signature this secret makes must be among those sent.
 */
function signedBy(secret: string, req: Received): boolean {
  const signedAt = new Date(Number(req.headers['webhook-timestamp']) * 1000);
  const expected = new Webhook(secret).sign(String(req.headers['webhook-id']), signedAt, req.body);
  return String(req.headers['webhook-signature']).split(' ').includes(expected);
}

/** Runs every due job, then moves the clock past the longest retry delay, `times` times. */
async function driveRetries(times: number) {
  for (let i = 0; i < times; i++) {
    await h.server.jobs.idle();
    advance(13 * HOUR); // the longest step is 10 h + 20 % jitter
  }
  await h.server.jobs.idle();
}

describe('event fan-out', () => {
  it('delivers one signed request per active subscription listing the event, verified by standardwebhooks', async () => {
    const t = await team();
    const other = await team();
    const r = await receiver();
    const skipped = await receiver();
    const hook = await t.hook(r.url, ['crawl.completed', 'export.ready']);
    await t.hook(skipped.url, ['export.ready']);
    const paused = await t.hook(skipped.url, ['crawl.completed']);
    expect((await t.call('PATCH', `/v1/webhooks/${paused.id}`, { active: false })).status).toBe(200);
    await other.hook(skipped.url, ['crawl.completed']);

    const event = await t.publish('crawl.completed', { crawl: { id: 'c1', status: 'completed' } });
    await h.server.jobs.idle();

    expect(skipped.requests).toHaveLength(0);
    expect(r.requests).toHaveLength(1);
    const [req] = r.requests;
    expect(req.headers['webhook-id']).toBe(event.id);
    expect(req.headers['content-type']).toBe('application/json');
    const payload = new Webhook(hook.secret).verify(req.body, req.headers as Record<string, string>);
    expect(payload).toEqual({ id: event.id, type: 'crawl.completed', created_at: event.createdAt, data: { crawl: { id: 'c1', status: 'completed' } } });

    const [delivery] = await t.deliveries(hook.id);
    expect(delivery).toMatchObject({ event_id: event.id, event_type: 'crawl.completed', status: 'succeeded', attempts: 1, response_status: 200, error_reason: null, next_attempt_at: null });
    expect(delivery.delivered_at).not.toBeNull();
    expect(delivery.duration_ms).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(delivery)).not.toContain('receiver body');
    const subscription = await t.webhook(hook.id);
    expect(subscription.last_delivery_at).toBe(delivery.delivered_at);
    expect(subscription.consecutive_failures).toBe(0);
    expect(await t.deliveries(paused.id)).toEqual([]);
  });

  it('writes deliveries in the publisher transaction: a rollback leaves none', async () => {
    const t = await team();
    const r = await receiver();
    const hook = await t.hook(r.url);
    await expect(
      h.knex.transaction(async (trx) => {
        await h.server.events.publish({ type: 'crawl.completed', teamId: t.teamId, data: {} }, trx);
        throw new Error('the change that caused the event failed');
      }),
    ).rejects.toThrow('failed');
    await h.server.jobs.idle();
    expect(r.requests).toHaveLength(0);
    expect(await t.deliveries(hook.id)).toEqual([]);
  });
});

describe('secret rotation', () => {
  it('signs with both secrets for 24 hours, then with the new one only', async () => {
    const t = await team();
    const r = await receiver();
    const hook = await t.hook(r.url);
    const res = await t.call('POST', `/v1/webhooks/${hook.id}/rotate-secret`);
    expect(res.status).toBe(200);
    const rotated = (await res.json()).data;
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(hook.secret);
    const endsIn = Date.parse(rotated.secret_rotation_ends_at) - (Date.now() + offset);
    expect(endsIn).toBeGreaterThan(DAY - 60_000);
    expect(endsIn).toBeLessThanOrEqual(DAY);

    await t.publish();
    await h.server.jobs.idle();
    const [during] = r.requests;
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secret of [hook.secret, rotated.secret]) {
      expect(new Webhook(secret).verify(during.body, during.headers as Record<string, string>)).toMatchObject({ type: 'crawl.completed' });
    }

    advance(DAY + 60_000);
    await t.publish();
    await h.server.jobs.idle();
    const after = r.requests[1];
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(signedBy(rotated.secret, after)).toBe(true);
    expect(signedBy(hook.secret, after)).toBe(false);
  });

  it('never hands out a secret that signs nothing: two rotations at the same time are one after the other', async () => {
    const t = await team();
    const r = await receiver();
    const hook = await t.hook(r.url);
    const answers = await Promise.all([1, 2, 3].map(() => t.call('POST', `/v1/webhooks/${hook.id}/rotate-secret`)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    const secrets = await Promise.all(answers.map(async (a) => (await a.json()).data.secret as string));
    expect(new Set(secrets).size).toBe(3);

    await t.publish();
    await h.server.jobs.idle();
    const [delivered] = r.requests;
    // The last rotation's secret and the one it replaced sign; the two replaced before stop.
    expect(secrets.filter((secret) => signedBy(secret, delivered))).toHaveLength(2);
    expect(signedBy(hook.secret, delivered)).toBe(false);
  });
});

describe('retries and disablement', () => {
  it(`retries a failing delivery ${MAX_ATTEMPTS} times with the same id and body, then marks it failed`, async () => {
    const t = await team();
    const r = await receiver(500);
    const hook = await t.hook(r.url);
    const event = await t.publish();
    await h.server.jobs.idle();

    const [first] = await t.deliveries(hook.id);
    expect(first).toMatchObject({ status: 'pending', attempts: 1, response_status: 500, error_reason: 'http_status', delivered_at: null });
    const wait = Date.parse(first.next_attempt_at) - (Date.now() + offset);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(6_000); // 5 s ± 20 %

    await driveRetries(MAX_ATTEMPTS);
    const [last] = await t.deliveries(hook.id);
    expect(last).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, response_status: 500, error_reason: 'http_status', next_attempt_at: null });
    expect(r.requests).toHaveLength(MAX_ATTEMPTS);
    expect(new Set(r.requests.map((q) => q.headers['webhook-id']))).toEqual(new Set([event.id]));
    expect(new Set(r.requests.map((q) => q.body)).size).toBe(1);
    expect(new Set(r.requests.map((q) => q.headers['webhook-timestamp'])).size).toBe(MAX_ATTEMPTS);
    expect((await t.webhook(hook.id)).consecutive_failures).toBe(1);
  });

  it('counts only failed deliveries: a recovered retry does not count, a success resets the counter', async () => {
    const t = await team();
    const r = await receiver(503);
    const hook = await t.hook(r.url);
    await t.publish();
    await driveRetries(MAX_ATTEMPTS);
    expect((await t.webhook(hook.id)).consecutive_failures).toBe(1);

    await t.publish();
    await h.server.jobs.idle();
    r.status = 200;
    await driveRetries(1);
    const [recovered] = await t.deliveries(hook.id);
    expect(recovered).toMatchObject({ status: 'succeeded', attempts: 2, response_status: 200, error_reason: null });
    expect((await t.webhook(hook.id)).consecutive_failures).toBe(0);
  });

  it(`disables the subscription after ${DISABLE_AFTER_CONSECUTIVE_FAILURES} failed deliveries; PATCH active true re-enables it`, async () => {
    const t = await team();
    const r = await receiver(500);
    const hook = await t.hook(r.url);
    for (let i = 0; i < DISABLE_AFTER_CONSECUTIVE_FAILURES; i++) await t.publish();
    await driveRetries(MAX_ATTEMPTS);

    expect(r.requests).toHaveLength(DISABLE_AFTER_CONSECUTIVE_FAILURES * MAX_ATTEMPTS);
    const disabled = await t.webhook(hook.id);
    expect(disabled).toMatchObject({ active: false, disabled_reason: 'consecutive_failures', consecutive_failures: DISABLE_AFTER_CONSECUTIVE_FAILURES });
    expect(disabled.disabled_at).not.toBeNull();
    expect((await t.deliveries(hook.id)).every((d) => d.status === 'failed')).toBe(true);

    // A disabled subscription gets no new events.
    await t.publish();
    await h.server.jobs.idle();
    expect(r.requests).toHaveLength(DISABLE_AFTER_CONSECUTIVE_FAILURES * MAX_ATTEMPTS);
    expect(await t.deliveries(hook.id)).toHaveLength(DISABLE_AFTER_CONSECUTIVE_FAILURES);

    const res = await t.call('PATCH', `/v1/webhooks/${hook.id}`, { active: true });
    expect(res.status).toBe(200);
    expect((await res.json()).data).toMatchObject({ active: true, disabled_reason: null, disabled_at: null, consecutive_failures: 0 });
    r.status = 200;
    await t.publish();
    await h.server.jobs.idle();
    expect((await t.deliveries(hook.id))[0]).toMatchObject({ status: 'succeeded' });
  });

  it('ends a pending delivery as subscription_disabled when the subscription is disabled meanwhile', async () => {
    const t = await team();
    const r = await receiver(500);
    const hook = await t.hook(r.url);
    await t.publish();
    await h.server.jobs.idle();
    expect((await t.call('PATCH', `/v1/webhooks/${hook.id}`, { active: false })).status).toBe(200);
    r.status = 200;
    await driveRetries(1);
    const [delivery] = await t.deliveries(hook.id);
    expect(delivery).toMatchObject({ status: 'failed', attempts: 1, error_reason: 'subscription_disabled', next_attempt_at: null });
    expect(r.requests).toHaveLength(1);
  });
});

describe('POST /v1/webhooks/{webhook}/test', () => {
  it('sends one signed webhook.test, even to a disabled subscription; never retried, never counted', async () => {
    const t = await team();
    const r = await receiver(500);
    const hook = await t.hook(r.url);
    expect((await t.call('PATCH', `/v1/webhooks/${hook.id}`, { active: false })).status).toBe(200);

    const res = await t.call('POST', `/v1/webhooks/${hook.id}/test`);
    expect(res.status).toBe(202);
    const queued = (await res.json()).data;
    expect(queued).toMatchObject({ event_type: 'webhook.test', status: 'pending', attempts: 0 });

    await driveRetries(3);
    expect(r.requests).toHaveLength(1);
    const [req] = r.requests;
    expect(req.headers['webhook-id']).toBe(queued.event_id);
    const [failed] = await t.deliveries(hook.id);
    expect(failed).toMatchObject({ id: queued.id, status: 'failed', attempts: 1, response_status: 500, error_reason: 'http_status', next_attempt_at: null });
    expect(await t.webhook(hook.id)).toMatchObject({ active: false, consecutive_failures: 0 });

    r.status = 204;
    const again = (await (await t.call('POST', `/v1/webhooks/${hook.id}/test`)).json()).data;
    await h.server.jobs.idle();
    expect(signedBy(hook.secret, r.requests[1])).toBe(true);
    expect(JSON.parse(r.requests[1].body)).toMatchObject({ id: again.event_id, type: 'webhook.test', data: { webhook_id: hook.id } });
    expect((await t.deliveries(hook.id))[0]).toMatchObject({ id: again.id, status: 'succeeded', response_status: 204 });
  });
});

describe('GET /v1/webhooks/{webhook}/deliveries', () => {
  it('lists the most recent first with cursor pagination', async () => {
    const t = await team();
    const r = await receiver();
    const hook = await t.hook(r.url);
    const events = [];
    for (let i = 0; i < 5; i++) {
      events.push(await t.publish());
      advance(1000);
    }
    await h.server.jobs.idle();

    const seen: string[] = [];
    let path = `/v1/webhooks/${hook.id}/deliveries?limit=2`;
    for (let page = 0; page < 5; page++) {
      const body = await (await t.call('GET', path)).json();
      seen.push(...body.data.map((d: { event_id: string }) => d.event_id));
      if (!body.meta.has_more) break;
      expect(body.data).toHaveLength(2);
      path = `/v1/webhooks/${hook.id}/deliveries?limit=2&cursor=${encodeURIComponent(body.meta.next_cursor)}`;
    }
    expect(seen).toEqual(events.map((e) => e.id).reverse());

    // A cursor belongs to the list that issued it.
    const first = await (await t.call('GET', `/v1/webhooks/${hook.id}/deliveries?limit=2`)).json();
    const reused = await t.call('GET', `/v1/webhooks?limit=2&cursor=${encodeURIComponent(first.meta.next_cursor)}`);
    expect(reused.status).toBe(400);
    expect((await reused.json()).code).toBe('pagination.invalid_cursor');
  });

  it('keeps 30 days: older deliveries are never listed and are swept by the periodic job', async () => {
    const t = await team();
    const r = await receiver();
    const hook = await t.hook(r.url);
    const old = await t.publish();
    advance(2 * DAY);
    const recent = await t.publish();
    await h.server.jobs.idle();
    expect(await h.knex('webhook_deliveries').where({ webhook_id: hook.id }).pluck('event_id')).toHaveLength(2);

    advance(29 * DAY); // old is 31 days old, recent 29
    const listed = await t.deliveries(hook.id);
    expect(listed.map((d) => d.event_id)).toEqual([recent.id]);
    await h.server.jobs.idle();
    const stored = await h.knex('webhook_deliveries').where({ webhook_id: hook.id }).pluck('event_id');
    expect(stored).toEqual([recent.id]);
    expect(stored).not.toContain(old.id);
  });
});

describe('DELETE /v1/webhooks/{webhook}', () => {
  it('removes the delivery log with the subscription', async () => {
    const t = await team();
    const r = await receiver();
    const hook = await t.hook(r.url);
    await t.publish();
    await h.server.jobs.idle();
    expect(await t.deliveries(hook.id)).toHaveLength(1);
    expect((await t.call('DELETE', `/v1/webhooks/${hook.id}`)).status).toBe(204);
    expect(await h.knex('webhook_deliveries').where({ webhook_id: hook.id }).pluck('id')).toEqual([]);
    expect((await t.call('GET', `/v1/webhooks/${hook.id}/deliveries`)).status).toBe(404);
  });
});
