import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuardedAgent } from '../../src/net/address-guard.js';
import { deliverWebhook } from '../../src/delivery/delivery.js';
import { generateWebhookSecret, webhookHeaders } from '../../src/delivery/signing.js';
import { startReceiver, type Receiver } from '../../../../tests/support/receiver.js';

const body = '{"id":"e1","type":"webhook.test","created_at":"2025-01-01T00:00:00Z","data":{}}';
const headers = () => webhookHeaders({ id: 'e1', body, secrets: [generateWebhookSecret()] });

// Receivers on both loopbacks: any refused URL below that still connected would be counted here.
let v4: Receiver;
let v6: Receiver;
beforeAll(async () => {
  v4 = await startReceiver((_req, res) => res.writeHead(200).end());
  v6 = await startReceiver((_req, res) => res.writeHead(200).end(), '::1');
});
afterAll(async () => {
  await Promise.all([v4.close(), v6.close()]);
});

describe('deliverWebhook with allowPrivateAddresses false', () => {
  // https so the scheme rule passes and the address guard is what refuses.
  const cases = () => [
    `https://127.0.0.1:${v4.port}/`,
    `https://localhost:${v4.port}/`,
    `https://[::1]:${v6.port}/`,
    `https://[::ffff:127.0.0.1]:${v4.port}/`,
    `https://[::127.0.0.1]:${v4.port}/`,
    `https://2130706433:${v4.port}/`,
    `https://0x7f.1:${v4.port}/`,
    `https://0177.0.0.1:${v4.port}/`,
    'https://169.254.169.254/latest/meta-data/',
    'https://10.0.0.1/',
    'https://192.168.1.1/',
    'https://100.64.0.1/',
    'https://0.0.0.0/',
    'https://[fc00::1]/',
    'https://[fe80::1]/',
    'https://[64:ff9b::7f00:1]/',
  ];

  it('refuses every private, loopback, link-local and reserved destination without connecting', async () => {
    for (const url of cases()) {
      const result = await deliverWebhook({ url, body, headers: headers(), allowPrivateAddresses: false, timeoutMs: 2_000 });
      expect(result, url).toMatchObject({ ok: false, responseStatus: null, errorReason: 'refused_address', retryAfterSeconds: null });
    }
    expect(v4.connections() + v6.connections()).toBe(0);
  });

  it('refuses http, and anything but https, before any lookup', async () => {
    for (const url of [`http://127.0.0.1:${v4.port}/`, 'http://example.com/', 'ftp://example.com/', 'not a url']) {
      const result = await deliverWebhook({ url, body, headers: headers(), allowPrivateAddresses: false });
      expect(result.errorReason, url).toBe('refused_address');
    }
    expect(v4.connections()).toBe(0);
  });

  it('classifies a refusal made by the agent at connect time', async () => {
    // The scheme and URL pass (private allowed), but the agent given vets and refuses the address.
    const agent = createGuardedAgent({ allowPrivate: false });
    try {
      const result = await deliverWebhook({ url: `${v4.origin}/`, body, headers: headers(), allowPrivateAddresses: true }, agent);
      expect(result).toMatchObject({ ok: false, errorReason: 'refused_address' });
      expect(v4.connections()).toBe(0);
    } finally {
      await agent.close();
    }
  });

  it('still delivers to the same receiver when private addresses are allowed', async () => {
    const result = await deliverWebhook({ url: `${v4.origin}/`, body, headers: headers(), allowPrivateAddresses: true });
    expect(result).toMatchObject({ ok: true, responseStatus: 200 });
    expect(v4.connections()).toBe(1);
  });
});
