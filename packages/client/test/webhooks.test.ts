import { createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { WebhookVerificationError, verifyWebhook } from '../src/index.js';

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** Signs as the server does (Standard Webhooks v1), with node:crypto as an independent reference. */
function sign(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

const NOW = Date.UTC(2030, 0, 1, 12, 0, 0);
const ts = Math.floor(NOW / 1000);
const event = { id: '66666666-6666-4666-8666-666666666666', type: 'webhook.test', created_at: '2030-01-01T12:00:00.000Z', data: { webhook_id: 'w' } };
const body = JSON.stringify(event);

function delivery(signatures: string[], timestamp = ts, id = 'msg_1') {
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signatures.join(' ') };
}

async function refusal(promise: Promise<unknown>): Promise<WebhookVerificationError> {
  const error = await promise.then(
    () => expect.unreachable('the delivery should be refused'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  return error as WebhookVerificationError;
}

describe('verifyWebhook', () => {
  const secret = newSecret();

  it('accepts a valid delivery and returns its parsed body', async () => {
    const headers = delivery([sign(secret, 'msg_1', ts, body)]);
    await expect(verifyWebhook(body, headers, secret, { now: NOW })).resolves.toEqual(event);
  });

  it('accepts the raw bytes, a Headers object and headers in any case', async () => {
    const signature = sign(secret, 'msg_1', ts, body);
    await expect(verifyWebhook(Buffer.from(body), new Headers(delivery([signature])), secret, { now: NOW })).resolves.toEqual(event);
    const nodeStyle = { 'Webhook-Id': ['msg_1'], 'Webhook-Timestamp': String(ts), 'Webhook-Signature': signature };
    await expect(verifyWebhook(new TextEncoder().encode(body).buffer, nodeStyle, secret, { now: new Date(NOW) })).resolves.toEqual(event);
  });

  it('during a rotation, accepts either signature with either secret', async () => {
    const previous = newSecret();
    const both = delivery([sign(previous, 'msg_1', ts, body), sign(secret, 'msg_1', ts, body)]);
    await expect(verifyWebhook(body, both, secret, { now: NOW })).resolves.toEqual(event);
    await expect(verifyWebhook(body, both, previous, { now: NOW })).resolves.toEqual(event);
    // A receiver configured with both secrets accepts a delivery signed with only one of them.
    const onlyNew = delivery([sign(secret, 'msg_1', ts, body)]);
    await expect(verifyWebhook(body, onlyNew, [previous, secret], { now: NOW })).resolves.toEqual(event);
    const onlyOld = delivery([sign(previous, 'msg_1', ts, body)]);
    await expect(verifyWebhook(body, onlyOld, [previous, secret], { now: NOW })).resolves.toEqual(event);
  });

  it('skips signatures of another version or malformed next to a valid one', async () => {
    const headers = delivery(['v2,abc', 'v1,@@not-base64@@', sign(secret, 'msg_1', ts, body)]);
    await expect(verifyWebhook(body, headers, secret, { now: NOW })).resolves.toEqual(event);
  });

  it('refuses a tampered body, explaining the parsed-JSON mistake', async () => {
    const headers = delivery([sign(secret, 'msg_1', ts, body)]);
    const reformatted = JSON.stringify(event, null, 2);
    const error = await refusal(verifyWebhook(reformatted, headers, secret, { now: NOW }));
    expect(error.code).toBe('webhook.invalid_signature');
    expect(error.message).toMatch(/raw request body/);
    expect(error.message).toMatch(/JSON\.stringify/);
    await refusal(verifyWebhook(body.replace('webhook.test', 'crawl.completed'), headers, secret, { now: NOW }));
  });

  it('refuses a signature over another id or timestamp, or made with another secret', async () => {
    const signature = sign(secret, 'msg_1', ts, body);
    await refusal(verifyWebhook(body, delivery([signature], ts, 'msg_2'), secret, { now: NOW }));
    await refusal(verifyWebhook(body, delivery([signature], ts - 1), secret, { now: NOW }));
    expect((await refusal(verifyWebhook(body, delivery([signature]), newSecret(), { now: NOW }))).code).toBe('webhook.invalid_signature');
  });

  it('refuses a parsed body, saying so', async () => {
    const headers = delivery([sign(secret, 'msg_1', ts, body)]);
    const error = await refusal(verifyWebhook(event as never, headers, secret, { now: NOW }));
    expect(error.code).toBe('webhook.invalid_body');
    expect(error.message).toMatch(/parsed as JSON/);
    expect(error.message).toMatch(/express\.raw/);
    expect((await refusal(verifyWebhook(String(event), headers, secret, { now: NOW }))).code).toBe('webhook.invalid_body');
  });

  it('refuses stale and future timestamps beyond the tolerance', async () => {
    const stale = ts - 301;
    const error = await refusal(verifyWebhook(body, delivery([sign(secret, 'msg_1', stale, body)], stale), secret, { now: NOW }));
    expect(error.code).toBe('webhook.invalid_timestamp');
    expect(error.message).toMatch(/301 s old/);
    const future = ts + 301;
    await refusal(verifyWebhook(body, delivery([sign(secret, 'msg_1', future, body)], future), secret, { now: NOW }));
    // Within the default 300 s, and with a custom tolerance.
    const recent = ts - 300;
    await expect(verifyWebhook(body, delivery([sign(secret, 'msg_1', recent, body)], recent), secret, { now: NOW })).resolves.toEqual(event);
    await refusal(verifyWebhook(body, delivery([sign(secret, 'msg_1', recent, body)], recent), secret, { now: NOW, toleranceSeconds: 60 }));
  });

  it('refuses missing headers, a malformed timestamp and a malformed secret', async () => {
    expect((await refusal(verifyWebhook(body, {}, secret))).code).toBe('webhook.missing_headers');
    const headers = { ...delivery([sign(secret, 'msg_1', ts, body)]), 'webhook-timestamp': '2030-01-01T12:00:00Z' };
    expect((await refusal(verifyWebhook(body, headers, secret, { now: NOW }))).code).toBe('webhook.invalid_timestamp');
    expect((await refusal(verifyWebhook(body, delivery(['v1,abc']), 'whsec_***', { now: NOW }))).code).toBe('webhook.invalid_secret');
  });

  it('verifies what the standardwebhooks reference library signs', async () => {
    const reference = new Webhook(secret);
    const signature = reference.sign('msg_ref', new Date(NOW), body);
    await expect(verifyWebhook(body, delivery([signature], ts, 'msg_ref'), secret, { now: NOW })).resolves.toEqual(event);
  });

  it('uses the current time by default', async () => {
    const now = Math.floor(Date.now() / 1000);
    await expect(verifyWebhook(body, delivery([sign(secret, 'msg_1', now, body)], now), secret)).resolves.toEqual(event);
  });
});
