import { Webhook, WebhookDelivery, WebhookWithSecret } from '@siteaudit/schema';
import { describe, expect, it } from 'vitest';
import { call, key, useMock } from './helpers.js';

const mock = useMock();
const token = () => mock.tokens.owner;

describe('webhooks', () => {
  it('returns the secret once, at creation, and never in reads', async () => {
    const created = await call('POST', '/v1/webhooks', { token: token(), body: { url: 'https://hooks.example.com/in', events: ['crawl.completed', 'export.ready'], description: 'CI' } });
    expect(created.status).toBe(201);
    const hook = WebhookWithSecret.parse(created.body.data);
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(hook).toMatchObject({ active: true, consecutive_failures: 0, disabled_reason: null, secret_rotation_ends_at: null });
    const got = await call('GET', `/v1/webhooks/${hook.id}`, { token: token() });
    expect(got.body.data).not.toHaveProperty('secret');
    expect(Webhook.strict().safeParse(got.body.data).success).toBe(true);
    const list = await call('GET', '/v1/webhooks', { token: token() });
    expect(list.text).not.toContain(hook.secret);
  });

  it('refuses non-https URLs (422) and private hosts with webhook.url_refused', async () => {
    // https only, as a server that does not allow private addresses (production) answers.
    for (const url of ['http://hooks.example.com', 'http://127.0.0.1:3000/hooks', 'ftp://hooks.example.com']) {
      const http = await call('POST', '/v1/webhooks', { token: token(), body: { url, events: ['crawl.completed'] }, headers: { 'Accept-Language': 'en' } });
      expect(http.status, url).toBe(422);
      expect(http.body).toMatchObject({ code: 'validation_failed', errors: { url: [{ message: 'Must be an absolute https URL' }] } });
    }
    for (const url of ['https://localhost/hook', 'https://127.0.0.1/hook', 'https://10.0.0.8/hook', 'https://192.168.1.2/', 'https://169.254.169.254/']) {
      const res = await call('POST', '/v1/webhooks', { token: token(), body: { url, events: ['crawl.completed'] } });
      expect(res.status, url).toBe(422);
      expect(res.body.code).toBe('webhook.url_refused');
    }
    const { webhookId } = mock.seed.webhook();
    const patch = await call('PATCH', `/v1/webhooks/${webhookId}`, { token: token(), body: { url: 'https://localhost' } });
    expect(patch.body.code).toBe('webhook.url_refused');
    const badEvent = await call('POST', '/v1/webhooks', { token: token(), body: { url: 'https://hooks.example.com', events: ['crawl.exploded'] } });
    expect(badEvent.status).toBe(422);
  });

  it('rotates the secret with a 24 h overlap', async () => {
    const { webhookId, secret } = mock.seed.webhook();
    const rotated = await call('POST', `/v1/webhooks/${webhookId}/rotate-secret`, { token: token() });
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.secret).toMatch(/^whsec_/);
    expect(rotated.body.data.secret).not.toBe(secret);
    expect(rotated.body.data.secret_rotation_ends_at).toBe('2026-01-16T10:00:00.000Z');
  });

  it('queues a webhook.test delivery (202), delivered on advance, even when disabled', async () => {
    const { webhookId } = mock.seed.webhook();
    await call('PATCH', `/v1/webhooks/${webhookId}`, { token: token(), body: { active: false } });
    const test = await call('POST', `/v1/webhooks/${webhookId}/test`, { token: token(), headers: { 'Idempotency-Key': key() } });
    expect(test.status).toBe(202);
    const delivery = WebhookDelivery.parse(test.body.data);
    expect(delivery).toMatchObject({ event_type: 'webhook.test', status: 'pending', attempts: 0 });

    mock.advance();
    const deliveries = await call('GET', `/v1/webhooks/${webhookId}/deliveries`, { token: token() });
    expect(deliveries.body.data).toHaveLength(1);
    expect(deliveries.body.data[0]).toMatchObject({ id: delivery.id, status: 'succeeded', attempts: 1, response_status: 200, error_reason: null });
  });

  it('delivers subscribed events: a settled crawl sends crawl.completed, most recent first in the log', async () => {
    const { webhookId } = mock.seed.webhook({ events: ['crawl.completed'] });
    const { crawlId } = mock.seed.completedCrawl();
    await call('POST', `/v1/crawls/${crawlId}/exports`, { token: token(), body: { format: 'pdf' } });
    mock.advance();
    const deliveries = await call('GET', `/v1/webhooks/${webhookId}/deliveries`, { token: token() });
    expect(deliveries.body.data.map((d: { event_type: string }) => d.event_type)).toEqual(['crawl.completed']);
    const hook = await call('GET', `/v1/webhooks/${webhookId}`, { token: token() });
    expect(hook.body.data.last_delivery_at).not.toBeNull();
  });

  it('disables and re-enables through PATCH, and deletes with the delivery log', async () => {
    const { webhookId } = mock.seed.webhook();
    const off = await call('PATCH', `/v1/webhooks/${webhookId}`, { token: token(), body: { active: false, description: null } });
    expect(off.body.data).toMatchObject({ active: false, description: null });
    const on = await call('PATCH', `/v1/webhooks/${webhookId}`, { token: token(), body: { active: true } });
    expect(on.body.data).toMatchObject({ active: true, disabled_reason: null, disabled_at: null, consecutive_failures: 0 });
    expect((await call('DELETE', `/v1/webhooks/${webhookId}`, { token: token() })).status).toBe(204);
    expect((await call('GET', `/v1/webhooks/${webhookId}`, { token: token() })).status).toBe(404);
    expect((await call('GET', `/v1/webhooks/${webhookId}/deliveries`, { token: token() })).status).toBe(404);
  });

  it('is reserved to owners and admins, and needs the webhooks scopes', async () => {
    const { webhookId } = mock.seed.webhook();
    expect((await call('POST', `/v1/webhooks/${webhookId}/test`, { token: mock.tokens.member })).body.code).toBe('role.forbidden');
    const { token: readerToken } = mock.admin.createToken({ team: 'acme', member: 'owner@acme.test', name: 'r', scopes: ['webhooks:read'] });
    const refused = await call('DELETE', `/v1/webhooks/${webhookId}`, { token: readerToken });
    expect(refused.body).toMatchObject({ code: 'token.missing_scope', required_scopes: ['webhooks:write'] });
  });
});
