/**
 * The mock with `allowPrivateAddresses` (as a server in development): webhook URLs on private
 * hosts and over http are taken, other schemes still refused, as the server answers
 * (packages/server/test/db/webhooks-failures.test.ts). The default mock refuses both
 * (webhooks.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { call, useMock } from './helpers.js';

const mock = useMock({ allowPrivateAddresses: true });
const token = () => mock.tokens.owner;

describe('webhooks with private addresses allowed', () => {
  it('takes http and https receivers on local hosts, on create and update', async () => {
    for (const url of ['http://127.0.0.1:3000/hooks', 'http://localhost:3000/hooks', 'https://192.168.1.2/hooks', 'https://[::1]:8443/']) {
      const res = await call('POST', '/v1/webhooks', { token: token(), body: { url, events: ['crawl.completed'] } });
      expect(res.status, url).toBe(201);
      expect(res.body.data.url).toBe(url);
    }
    const { webhookId } = mock.seed.webhook();
    const patched = await call('PATCH', `/v1/webhooks/${webhookId}`, { token: token(), body: { url: 'http://127.0.0.1:9/other' } });
    expect(patched.status).toBe(200);
    expect(patched.body.data.url).toBe('http://127.0.0.1:9/other');
  });

  it('still refuses URLs that are neither http nor https, with the server message', async () => {
    for (const url of ['ftp://127.0.0.1/hooks', 'ws://127.0.0.1/hooks', '/hooks']) {
      const res = await call('POST', '/v1/webhooks', { token: token(), body: { url, events: ['crawl.completed'] } });
      expect(res.status, url).toBe(422);
      expect(res.body).toMatchObject({ code: 'validation_failed', errors: { url: [{ message: 'Doit être une URL https absolue' }] } });
    }
  });

  it('takes project URLs on local hosts too', async () => {
    const res = await call('POST', '/v1/projects', { token: token(), body: { url: 'http://localhost:8080/', name: 'Local site' } });
    expect(res.status).toBe(201);
  });
});
