import { createHmac } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateWebhookSecret, signWebhook, webhookHeaders } from '../../src/delivery/signing.js';

const id = 'a3c0f9a4-5a0e-4a52-9d7b-2f3e8b6c1d00';
const body = JSON.stringify({ id, type: 'export.ready', created_at: '2025-01-01T00:00:00Z', data: { export: { id: 'x' } } });

describe('generateWebhookSecret', () => {
  it('is whsec_ and the base64 of 32 random bytes', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(secret);
  });
});

describe('signWebhook', () => {
  it('is HMAC-SHA256 of "id.timestamp.body" under the decoded secret', () => {
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const expected = createHmac('sha256', Buffer.alloc(32, 7)).update(`${id}.1700000000.${body}`).digest('base64');
    expect(signWebhook({ id, timestamp: 1_700_000_000, body, secrets: [secret] })).toBe(`v1,${expected}`);
    expect(signWebhook({ id, timestamp: new Date(1_700_000_000_900), body, secrets: [secret] })).toBe(`v1,${expected}`);
  });

  it('gives one signature per distinct secret', () => {
    const [a, b] = [generateWebhookSecret(), generateWebhookSecret()];
    const header = signWebhook({ id, timestamp: 1_700_000_000, body, secrets: [a, b, a] });
    expect(header.split(' ')).toHaveLength(2);
    expect(header).toMatch(/^v1,\S+ v1,\S+$/);
  });

  it('refuses values that are not webhook secrets', () => {
    for (const bad of ['', 'whsec_', 'whsec_not base64!', `whsec_${Buffer.alloc(8).toString('base64')}`, Buffer.alloc(32).toString('base64')]) {
      expect(() => signWebhook({ id, timestamp: 1, body, secrets: [bad] }), bad).toThrow(TypeError);
    }
    expect(() => signWebhook({ id, timestamp: 1, body, secrets: [] })).toThrow(TypeError);
  });
});

describe('webhookHeaders, verified by the standardwebhooks package', () => {
  it('carries the standard headers and verifies with the secret', () => {
    const secret = generateWebhookSecret();
    const headers = webhookHeaders({ id, body, secrets: [secret] });
    expect(headers).toMatchObject({ 'webhook-id': id, 'content-type': 'application/json' });
    expect(headers['webhook-timestamp']).toMatch(/^\d{10}$/);
    expect(headers['user-agent']).toMatch(/^SiteAudit-Webhooks\//);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('verifies with the old and the new secret during a rotation', () => {
    const [previous, current] = [generateWebhookSecret(), generateWebhookSecret()];
    const headers = webhookHeaders({ id, body, secrets: [current, previous] });
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(current).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(body, headers)).toEqual(JSON.parse(body));
    // After the overlap only the new secret signs: a receiver still on the old one fails.
    const later = webhookHeaders({ id, body, secrets: [current] });
    expect(() => new Webhook(previous).verify(body, later)).toThrow(WebhookVerificationError);
  });

  it('does not verify with another secret, another body or another id', () => {
    const secret = generateWebhookSecret();
    const headers = webhookHeaders({ id, body, secrets: [secret] });
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow(WebhookVerificationError);
    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow(WebhookVerificationError);
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'other' })).toThrow(WebhookVerificationError);
  });

  it('signs with the timestamp given, so retries can be re-signed fresh', () => {
    const secret = generateWebhookSecret();
    const stale = webhookHeaders({ id, body, secrets: [secret], timestamp: Math.floor(Date.now() / 1000) - 3_600 });
    expect(() => new Webhook(secret).verify(body, stale)).toThrow(/too old/);
  });
});
