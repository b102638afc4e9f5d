/**
 * The eight webhook operations over HTTP: roles, scopes, team isolation, the plan limit under
 * concurrency, secrets shown once and stored encrypted. Delivery is in webhooks-delivery.test.ts,
 * the address guard in webhooks-guard.test.ts.
 */
import knexFactory from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPostgres, startHarness, type Harness } from '../../../../tests/support/harness.js';

let h: Harness;
let offset = 0;
beforeAll(async () => {
  h = await startHarness({ network: { allowPrivateAddresses: true }, clock: () => new Date(Date.now() + offset) });
});
afterAll(() => h.close());

// Nothing listens there: the test operation's delivery fails quietly, nothing else sends.
const URL_A = 'https://127.0.0.1:9/a';
const URL_B = 'https://127.0.0.1:9/b';

let teams = 0;
async function team(plan = 'agency') {
  const slug = `ops-${++teams}`;
  const token = await h.tokenFor({ team: slug, plan });
  const call = (method: string, path: string, init: { body?: unknown; headers?: Record<string, string>; token?: string } = {}) =>
    h.call(method, path, { token, ...init });
  const create = (body: unknown = { url: URL_A, events: ['crawl.completed'] }) => call('POST', '/v1/webhooks', { body });
  return { slug, token, call, create };
}

async function created(res: Response) {
  expect(res.status).toBe(201);
  return (await res.json()).data;
}

describe('POST /v1/webhooks', () => {
  it('creates a subscription and shows its secret once; the store keeps it encrypted', async () => {
    const t = await team();
    const res = await t.create({ url: URL_A, events: ['crawl.completed', 'export.ready'], description: 'CI notifications' });
    const hook = await created(res);
    expect(hook).toMatchObject({
      url: URL_A,
      description: 'CI notifications',
      events: ['crawl.completed', 'export.ready'],
      active: true,
      disabled_reason: null,
      disabled_at: null,
      consecutive_failures: 0,
      last_delivery_at: null,
      secret_rotation_ends_at: null,
    });
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

    const answers = [
      await t.call('GET', '/v1/webhooks'),
      await t.call('GET', `/v1/webhooks/${hook.id}`),
      await t.call('PATCH', `/v1/webhooks/${hook.id}`, { body: { description: 'renamed' } }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      const text = await answer.text();
      expect(text).not.toContain(hook.secret.slice('whsec_'.length));
      expect(text).not.toContain('"secret"');
    }

    const row = await h.knex('webhooks').where({ id: hook.id }).first();
    expect(row.secret_enc).toMatch(/^v1\./);
    expect(row.secret_enc).not.toContain(hook.secret.slice('whsec_'.length));
    expect(JSON.stringify(row)).not.toContain(hook.secret);
  });

  it('refuses invalid bodies with 422 validation_failed', async () => {
    const t = await team();
    const bodies = [
      { url: URL_A, events: ['crawl.started'] },
      { url: URL_A, events: [] },
      { url: URL_A },
      { events: ['crawl.completed'] },
      { url: 'not a url', events: ['crawl.completed'] },
      // Development takes http receivers too, never other schemes.
      { url: 'ftp://127.0.0.1:9/', events: ['crawl.completed'] },
      { url: URL_A, events: ['crawl.completed'], secret: 'whsec_mine' },
      { url: URL_A, events: ['webhook.test'] },
      // Credentials in the URL: returned on every read, never sent; the signature authenticates.
      { url: URL_A.replace('://', '://user:secret@'), events: ['crawl.completed'] },
    ];
    for (const body of bodies) {
      const res = await t.create(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect((await res.json()).code).toBe('validation_failed');
    }
    expect((await (await t.call('GET', '/v1/webhooks')).json()).data).toEqual([]);
    // A string where the list goes: one error, its type, not a length the list rules give.
    const single = await (await t.create({ url: URL_A, events: 'crawl.completed' })).json();
    expect(single.errors.events.map((e: { code: string }) => e.code)).toEqual(['invalid_type']);
  });

  it('keeps each event type once, however many times the list names it', async () => {
    const t = await team();
    const all = ['crawl.completed', 'crawl.failed', 'crawl.stopped', 'export.ready', 'recommendations.ready', 'signal.detected'];
    const created = await t.create({ url: URL_A, events: [...all, 'crawl.completed'] });
    expect(created.status).toBe(201);
    const hook = (await created.json()).data;
    expect([...hook.events].sort()).toEqual([...all].sort());
    const patched = await t.call('PATCH', `/v1/webhooks/${hook.id}`, { body: { events: ['export.ready', 'export.ready', ...all] } });
    expect(patched.status).toBe(200);
    expect((await patched.json()).data.events).toHaveLength(all.length);
  });

  it(`counts against api.webhooks.max exactly under concurrent creates`, async () => {
    const t = await team('pro'); // 5 webhooks
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => t.create({ url: `${URL_A}/${i}`, events: ['crawl.completed'] })));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(5);
    expect(answers.filter((a) => a.status === 403)).toHaveLength(25);
    for (const refused of answers.filter((a) => a.status === 403)) {
      expect(await refused.json()).toMatchObject({ code: 'plan_limit.api.webhooks.max', upgrade_to: 'agency' });
    }
    expect(await h.knex('webhooks').join('teams', 'teams.id', 'webhooks.team_id').where('teams.slug', t.slug).count({ n: '*' }).then(([r]) => Number(r.n))).toBe(5);

    const usage = (await (await t.call('GET', '/v1/usage')).json()).data;
    expect(usage.quotas).toContainEqual({ entitlement: 'api.webhooks.max', used: 5, limit: 5, remaining: 0 });

    // A freed slot can be taken again.
    const list = (await (await t.call('GET', '/v1/webhooks')).json()).data;
    expect((await t.call('DELETE', `/v1/webhooks/${list[0].id}`)).status).toBe(204);
    await created(await t.create());
  });

  it('is refused on a plan without webhooks', async () => {
    const t = await team('starter');
    const res = await t.create();
    expect(res.status).toBe(403);
    // Starter has no API write at all: the binder refuses before the quota is looked at.
    expect((await res.json()).code).toBe('api.write_not_in_plan');
  });
});

describe('roles and scopes', () => {
  it('reserves webhooks to owners and admins', async () => {
    const t = await team();
    const member = await h.tokenFor({ team: t.slug, role: 'member' });
    const admin = await h.tokenFor({ team: t.slug, role: 'admin' });
    const hook = await created(await t.create());
    for (const [method, path] of [
      ['GET', '/v1/webhooks'],
      ['POST', '/v1/webhooks'],
      ['GET', `/v1/webhooks/${hook.id}`],
      ['PATCH', `/v1/webhooks/${hook.id}`],
      ['DELETE', `/v1/webhooks/${hook.id}`],
      ['POST', `/v1/webhooks/${hook.id}/rotate-secret`],
      ['POST', `/v1/webhooks/${hook.id}/test`],
      ['GET', `/v1/webhooks/${hook.id}/deliveries`],
    ]) {
      const res = await t.call(method, path, { token: member });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect((await res.json()).code).toBe('role.forbidden');
    }
    expect((await t.call('GET', `/v1/webhooks/${hook.id}`, { token: admin })).status).toBe(200);
    await created(await h.call('POST', '/v1/webhooks', { token: admin, body: { url: URL_B, events: ['export.ready'] } }));
  });

  it('needs webhooks:write to change and webhooks:read to read', async () => {
    const t = await team();
    const hook = await created(await t.create());
    const reader = await h.tokenFor({ team: t.slug, scopes: ['webhooks:read'] });
    const writer = await h.tokenFor({ team: t.slug, scopes: ['webhooks:write'] });
    for (const [method, path] of [
      ['POST', '/v1/webhooks'],
      ['PATCH', `/v1/webhooks/${hook.id}`],
      ['DELETE', `/v1/webhooks/${hook.id}`],
      ['POST', `/v1/webhooks/${hook.id}/rotate-secret`],
      ['POST', `/v1/webhooks/${hook.id}/test`],
    ]) {
      const res = await t.call(method, path, { token: reader });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(await res.json()).toMatchObject({ code: 'token.missing_scope', required_scopes: ['webhooks:write'] });
    }
    for (const path of ['/v1/webhooks', `/v1/webhooks/${hook.id}`, `/v1/webhooks/${hook.id}/deliveries`]) {
      const res = await t.call('GET', path, { token: writer });
      expect(res.status, path).toBe(403);
      expect(await res.json()).toMatchObject({ code: 'token.missing_scope', required_scopes: ['webhooks:read'] });
    }
  });

  it("answers 404 for another team's subscription, and never lists it", async () => {
    const owner = await team();
    const stranger = await team();
    const hook = await created(await owner.create());
    for (const [method, path, body] of [
      ['GET', `/v1/webhooks/${hook.id}`],
      ['PATCH', `/v1/webhooks/${hook.id}`, { active: false }],
      ['DELETE', `/v1/webhooks/${hook.id}`],
      ['POST', `/v1/webhooks/${hook.id}/rotate-secret`],
      ['POST', `/v1/webhooks/${hook.id}/test`],
      ['GET', `/v1/webhooks/${hook.id}/deliveries`],
      ['GET', '/v1/webhooks/not-a-uuid'],
    ] as const) {
      const res = await stranger.call(method, path, { body });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect((await (await stranger.call('GET', '/v1/webhooks')).json()).data).toEqual([]);
    expect(await owner.call('GET', `/v1/webhooks/${hook.id}`).then((r) => r.json())).toMatchObject({ data: { id: hook.id, active: true } });
    expect(await h.knex('webhook_deliveries').where({ webhook_id: hook.id }).pluck('id')).toEqual([]);
  });
});

describe('GET /v1/webhooks', () => {
  it('lists newest first with cursor pagination', async () => {
    const t = await team();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await created(await t.create({ url: `${URL_A}/${i}`, events: ['crawl.completed'] }))).id);
      offset += 1000;
    }
    const seen: string[] = [];
    let path = '/v1/webhooks?limit=2';
    for (;;) {
      const body = await (await t.call('GET', path)).json();
      seen.push(...body.data.map((w: { id: string }) => w.id));
      expect(body.meta.limit).toBe(2);
      if (!body.meta.has_more) break;
      path = `/v1/webhooks?limit=2&cursor=${encodeURIComponent(body.meta.next_cursor)}`;
    }
    expect(seen).toEqual(ids.reverse());
  });
});

describe('PATCH /v1/webhooks/{webhook}', () => {
  it('changes url, events and description, and switches active', async () => {
    const t = await team();
    const hook = await created(await t.create({ url: URL_A, events: ['crawl.completed'], description: 'first' }));
    const patch = async (body: unknown) => {
      const res = await t.call('PATCH', `/v1/webhooks/${hook.id}`, { body });
      expect(res.status, JSON.stringify(body)).toBe(200);
      return (await res.json()).data;
    };
    expect(await patch({ url: URL_B, events: ['export.ready', 'signal.detected'], description: null })).toMatchObject({
      url: URL_B,
      events: ['export.ready', 'signal.detected'],
      description: null,
      active: true,
    });
    const off = await patch({ active: false });
    expect(off).toMatchObject({ active: false, disabled_reason: 'manual' });
    expect(off.disabled_at).not.toBeNull();
    // A failure counter left from before is cleared with the disablement.
    await h.knex('webhooks').where({ id: hook.id }).update({ consecutive_failures: 3 });
    expect(await patch({ active: true })).toMatchObject({ active: true, disabled_reason: null, disabled_at: null, consecutive_failures: 0 });
    expect(await patch({})).toMatchObject({ url: URL_B, active: true });

    for (const body of [{ events: [] }, { url: 'ftp://127.0.0.1:9/' }, { secret: 'x' }, { active: 'yes' }]) {
      const res = await t.call('PATCH', `/v1/webhooks/${hook.id}`, { body });
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
  });

  // A transaction of the test plays the delivery worker's, holding the row while the PATCH
  // arrives. On SQLite the worker is another connection to the server's file (another process
  // would be one): the in-memory database has a single connection, which runs one transaction at
  // a time, so the race needs a file.
  it('deactivating while an automatic disablement commits keeps its reason and answers the row as it is', async () => {
    const s = onPostgres ? h : await startHarness({ network: { allowPrivateAddresses: true } }, { sqliteFile: true });
    const other = onPostgres ? null : knexFactory({ client: 'sqlite3', connection: { filename: (s.knex.client.config.connection as { filename: string }).filename }, useNullAsDefault: true, pool: { min: 1, max: 1 } });
    try {
      const token = await s.tokenFor({ team: `race-${++teams}` });
      const call = (method: string, path: string, body?: unknown) => s.call(method, path, { token, body });
      const hook = await created(await call('POST', '/v1/webhooks', { url: URL_A, events: ['crawl.completed'] }));
      await s.knex('webhooks').where({ id: hook.id }).update({ consecutive_failures: 14 });
      const disabledAt = new Date().toISOString();
      const worker = await (other ?? s.knex).transaction();
      await worker('webhooks').where({ id: hook.id }).increment('consecutive_failures', 1);
      await worker('webhooks').where({ id: hook.id }).update({ active: false, disabled_reason: 'consecutive_failures', disabled_at: disabledAt });
      const patch = call('PATCH', `/v1/webhooks/${hook.id}`, { active: false, description: 'off by hand' });
      // The PATCH waits for the worker's row lock (PostgreSQL: its read, or its write without
      // one) or for the file's write lock (SQLite, which shows no waiters: a pause instead).
      if (onPostgres) {
        for (let i = 0; i < 100; i++) {
          const { rows } = await s.knex.raw(`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query ilike '%webhooks%'`);
          if (rows[0].n > 0) break;
          await new Promise((r) => setTimeout(r, 20));
        }
      } else await new Promise((r) => setTimeout(r, 300));
      await worker.commit();
      const res = await patch;
      expect(res.status, await res.clone().text()).toBe(200);
      const data = (await res.json()).data;
      expect(data).toMatchObject({ active: false, disabled_reason: 'consecutive_failures', consecutive_failures: 15, description: 'off by hand' });
      const row = await s.knex('webhooks').where({ id: hook.id }).first();
      expect(row).toMatchObject({ disabled_reason: 'consecutive_failures', consecutive_failures: 15, description: 'off by hand' });
      expect(new Date(row.disabled_at).toISOString()).toBe(disabledAt);
    } finally {
      await other?.destroy();
      if (s !== h) await s.close();
    }
  });
});

describe('POST /v1/webhooks/{webhook}/rotate-secret', () => {
  it('returns a new secret once and starts a 24-hour overlap', async () => {
    const t = await team();
    const hook = await created(await t.create());
    const res = await t.call('POST', `/v1/webhooks/${hook.id}/rotate-secret`);
    expect(res.status).toBe(200);
    const rotated = (await res.json()).data;
    expect(rotated.id).toBe(hook.id);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(hook.secret);
    expect(Date.parse(rotated.secret_rotation_ends_at) - Date.parse(rotated.created_at)).toBeGreaterThanOrEqual(24 * 3_600_000);
    const read = await (await t.call('GET', `/v1/webhooks/${hook.id}`)).text();
    expect(read).not.toContain(rotated.secret.slice('whsec_'.length));
    expect(JSON.parse(read).data.secret_rotation_ends_at).toBe(rotated.secret_rotation_ends_at);
    const row = await h.knex('webhooks').where({ id: hook.id }).first();
    expect(JSON.stringify(row)).not.toContain(rotated.secret.slice('whsec_'.length));
    expect(JSON.stringify(row)).not.toContain(hook.secret.slice('whsec_'.length));
  });
});

describe('POST /v1/webhooks/{webhook}/test', () => {
  it('answers 202 with the queued delivery, once per Idempotency-Key', async () => {
    const t = await team();
    const hook = await created(await t.create());
    const send = () => t.call('POST', `/v1/webhooks/${hook.id}/test`, { headers: { 'idempotency-key': 'test-once' } });
    const first = await send();
    expect(first.status).toBe(202);
    const delivery = (await first.json()).data;
    expect(delivery).toMatchObject({ event_type: 'webhook.test', status: 'pending', attempts: 0, response_status: null, error_reason: null, delivered_at: null });
    const replay = await send();
    expect(replay.status).toBe(202);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await replay.json()).data.id).toBe(delivery.id);
    expect(await h.knex('webhook_deliveries').where({ webhook_id: hook.id }).pluck('id')).toEqual([delivery.id]);
  });
});

describe('DELETE /v1/webhooks/{webhook}', () => {
  it('is never refused by billing, even over the plan limit after a downgrade', async () => {
    const t = await team('agency');
    const hooks = [];
    for (let i = 0; i < 6; i++) hooks.push(await created(await t.create({ url: `${URL_A}/${i}`, events: ['crawl.completed'] })));
    await h.server.admin.setPlan({ team: t.slug, plan: 'pro' }); // 5 webhooks
    expect((await t.call('DELETE', `/v1/webhooks/${hooks[0].id}`)).status).toBe(204);
    expect((await t.call('GET', `/v1/webhooks/${hooks[0].id}`)).status).toBe(404);
    expect((await t.create()).status).toBe(403);
    expect((await t.call('DELETE', `/v1/webhooks/${hooks[0].id}`)).status).toBe(404);
  });
});
