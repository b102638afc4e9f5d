/**
 * Webhook URLs on a server that does not allow private addresses (production): refused at
 * creation and update, and refused again at delivery when a name later resolves to one.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';

// Names under example.net (RFC 2606, a real zone: not refused by name as .test is) resolve by
// this table, and nowhere when absent from it.
const { table } = vi.hoisted(() => ({ table: {} as Record<string, { address: string; family: 4 | 6 }[]> }));
vi.mock('node:dns/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:dns/promises')>();
  const lookup = (async (host: string, options: object) => {
    if (!host.endsWith('.example.net')) return actual.lookup(host, options as never);
    if (table[host]) return table[host];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  }) as typeof actual.lookup;
  return { ...actual, default: { ...actual, lookup }, lookup };
});

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ network: { allowPrivateAddresses: false } });
});
afterAll(() => h.close());

let teams = 0;
async function team() {
  const slug = `guard-${++teams}`;
  const token = await h.tokenFor({ team: slug });
  const { id } = await h.knex('teams').where({ slug }).first('id');
  return { teamId: id as string, call: (method: string, path: string, body?: unknown) => h.call(method, path, { token, body }) };
}

async function expectRefused(res: Response) {
  expect(res.status).toBe(422);
  const problem = await res.json();
  expect(problem.code).toBe('webhook.url_refused');
  expect(problem.errors.url).toBeDefined();
}

describe('webhook URL guard with allowPrivateAddresses false', () => {
  it('refuses loopback, private, link-local and metadata addresses at creation', async () => {
    const t = await team();
    for (const url of [
      'https://127.0.0.1/',
      'https://localhost/',
      'https://[::1]/',
      'https://2130706433/',
      'https://10.0.0.1/hook',
      'https://192.168.1.10/hook',
      'https://169.254.169.254/latest/meta-data/',
      'https://[fc00::1]/',
    ]) {
      await expectRefused(await t.call('POST', '/v1/webhooks', { url, events: ['crawl.completed'] }));
    }
    expect((await (await t.call('GET', '/v1/webhooks')).json()).data).toEqual([]);
  });

  it('takes https only: http is refused (validation_failed), on create and update, public or not', async () => {
    const t = await team();
    for (const url of ['http://93.184.215.14/hook', 'http://127.0.0.1:3000/hooks']) {
      const res = await h.call('POST', '/v1/webhooks', { token: undefined, body: { url, events: ['crawl.completed'] }, headers: { 'accept-language': 'en' } });
      expect(res.status, url).toBe(422);
      expect(await res.json()).toMatchObject({ code: 'validation_failed', errors: { url: [{ message: 'Must be an absolute https URL' }] } });
    }
    const res = await t.call('POST', '/v1/webhooks', { url: 'https://93.184.215.14/hook', events: ['crawl.completed'] });
    const hook = (await res.json()).data;
    const patched = await t.call('PATCH', `/v1/webhooks/${hook.id}`, { url: 'http://93.184.215.14/hook' });
    expect(patched.status).toBe(422);
    expect((await patched.json()).code).toBe('validation_failed');
  });

  it('refuses a private URL on update and keeps the old one', async () => {
    const t = await team();
    // A public literal: nothing is sent to it, this team publishes no event.
    const res = await t.call('POST', '/v1/webhooks', { url: 'https://93.184.215.14/hook', events: ['crawl.completed'] });
    expect(res.status).toBe(201);
    const hook = (await res.json()).data;
    await expectRefused(await t.call('PATCH', `/v1/webhooks/${hook.id}`, { url: 'https://localhost/hook' }));
    expect((await (await t.call('GET', `/v1/webhooks/${hook.id}`)).json()).data.url).toBe('https://93.184.215.14/hook');
  });

  it('accepts a name that does not resolve yet, and refuses the delivery once it resolves to a private address', async () => {
    const t = await team();
    const res = await t.call('POST', '/v1/webhooks', { url: 'https://hooks.later.example.net/in', events: ['crawl.completed'] });
    expect(res.status).toBe(201);
    const hook = (await res.json()).data;

    table['hooks.later.example.net'] = [{ address: '127.0.0.1', family: 4 }];
    await h.knex.transaction((trx) => h.server.events.publish({ type: 'crawl.completed', teamId: t.teamId, data: {} }, trx));
    await h.server.jobs.idle();
    const [delivery] = (await (await t.call('GET', `/v1/webhooks/${hook.id}/deliveries`)).json()).data;
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, error_reason: 'refused_address', response_status: null });
    expect(delivery.next_attempt_at).not.toBeNull();
  });

  it('records a name that resolves nowhere as dns_failure, not refused_address', async () => {
    const t = await team();
    const res = await t.call('POST', '/v1/webhooks', { url: 'https://gone.example.net/in', events: ['crawl.completed'] });
    expect(res.status).toBe(201);
    const hook = (await res.json()).data;
    const sent = await t.call('POST', `/v1/webhooks/${hook.id}/test`);
    expect(sent.status).toBe(202);
    await h.server.jobs.idle();
    const [delivery] = (await (await t.call('GET', `/v1/webhooks/${hook.id}/deliveries`)).json()).data;
    expect(delivery).toMatchObject({ event_type: 'webhook.test', status: 'failed', attempts: 1, error_reason: 'dns_failure' });
  });
});
