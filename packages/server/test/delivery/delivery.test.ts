import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { deliverWebhook, parseRetryAfter, type DeliveryResult } from '../../src/delivery/delivery.js';
import { generateWebhookSecret, webhookHeaders } from '../../src/delivery/signing.js';
import { closedPort, startReceiver, type Receiver } from '../../../../tests/support/receiver.js';

const secret = generateWebhookSecret();
const body = JSON.stringify({ id: '7d1f0e52-8c5e-4d8e-9f53-0f3b2c1a9e11', type: 'crawl.completed', created_at: '2025-01-01T00:00:00Z', data: {} });
const signed = () => webhookHeaders({ id: '7d1f0e52-8c5e-4d8e-9f53-0f3b2c1a9e11', body, secrets: [secret] });

let receivers: Receiver[] = [];
async function receiver(...args: Parameters<typeof startReceiver>) {
  const r = await startReceiver(...args);
  receivers.push(r);
  return r;
}
afterEach(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  receivers = [];
});

const deliver = (url: string, timeoutMs?: number) => deliverWebhook({ url, body, headers: signed(), allowPrivateAddresses: true, timeoutMs });

describe('deliverWebhook to a local receiver', () => {
  it.each([200, 204])('succeeds on %i and sends the signed body once', async (status) => {
    const r = await receiver((_req, res) => res.writeHead(status).end());
    const result = await deliver(`${r.origin}/hook`);
    expect(result).toMatchObject({ ok: true, responseStatus: status, errorReason: null, retryAfterSeconds: null });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(r.requests).toHaveLength(1);
    const [req] = r.requests;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/hook');
    expect(req.body).toBe(body);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['user-agent']).toMatch(/^SiteAudit-Webhooks\//);
    // The receiver side check, exactly as a subscriber would write it.
    expect(new Webhook(secret).verify(req.body, req.headers as Record<string, string>)).toEqual(JSON.parse(body));
  });

  it('fails with http_status on 500, ignoring its Retry-After', async () => {
    const r = await receiver((_req, res) => res.writeHead(500, { 'retry-after': '60' }).end('boom'));
    expect(await deliver(r.origin)).toMatchObject({ ok: false, responseStatus: 500, errorReason: 'http_status', retryAfterSeconds: null });
  });

  it('fails with redirect on 302 and does not follow it', async () => {
    const target = await receiver((_req, res) => res.writeHead(200).end());
    const r = await receiver((_req, res) => res.writeHead(302, { location: `${target.origin}/elsewhere` }).end());
    expect(await deliver(r.origin)).toMatchObject({ ok: false, responseStatus: 302, errorReason: 'redirect' });
    expect(target.connections()).toBe(0);
  });

  it('fails with timeout when the receiver never answers', async () => {
    const r = await receiver(() => {});
    expect(await deliver(r.origin, 200)).toMatchObject({ ok: false, responseStatus: null, errorReason: 'timeout' });
  });

  it('fails with timeout when the response body stalls, keeping the status', async () => {
    const r = await receiver((_req, res) => {
      res.writeHead(200);
      res.write('partial');
    });
    expect(await deliver(r.origin, 200)).toMatchObject({ ok: false, responseStatus: 200, errorReason: 'timeout' });
  });

  it('fails with connection_refused on a closed port', async () => {
    const port = await closedPort();
    expect(await deliver(`http://127.0.0.1:${port}/`)).toMatchObject({ ok: false, responseStatus: null, errorReason: 'connection_refused', errorCode: 'ECONNREFUSED' });
  });

  it('fails with dns_failure when the name does not resolve', async () => {
    expect(await deliver('http://receiver.invalid/')).toMatchObject({ ok: false, errorReason: 'dns_failure', errorCode: expect.stringMatching(/^E/) });
  });

  it('fails with connection_failed when the receiver closes the connection without answering', async () => {
    const server = createNetServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      expect(await deliver(`http://127.0.0.1:${port}/`)).toMatchObject({ ok: false, responseStatus: null, errorReason: 'connection_failed' });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('reads Retry-After on 429 (seconds) and 503 (HTTP date)', async () => {
    const tooMany = await receiver((_req, res) => res.writeHead(429, { 'retry-after': '120' }).end());
    expect(await deliver(tooMany.origin)).toMatchObject({ ok: false, responseStatus: 429, errorReason: 'http_status', retryAfterSeconds: 120 });

    const unavailable = await receiver((_req, res) => res.writeHead(503, { 'retry-after': new Date(Date.now() + 3_600_000).toUTCString() }).end());
    const result = await deliver(unavailable.origin);
    expect(result).toMatchObject({ responseStatus: 503, errorReason: 'http_status' });
    expect(result.retryAfterSeconds).toBeGreaterThan(3_000);
    expect(result.retryAfterSeconds).toBeLessThanOrEqual(3_600);
  });

  it('never returns the response body', async () => {
    const marker = 'RECEIVER-PRIVATE-BODY';
    const r = await receiver((_req, res) => res.writeHead(200, { 'x-marker': marker }).end(marker));
    const result = await deliver(r.origin);
    expect(Object.keys(result).sort()).toEqual(['durationMs', 'errorCode', 'errorReason', 'ok', 'responseStatus', 'retryAfterSeconds']);
    expect(JSON.stringify(result)).not.toContain(marker);
  });

  it('stops reading an endless body and still reports the status', async () => {
    // Without the read limit this would run into the timeout instead of succeeding.
    const r = await receiver((_req, res) => {
      res.writeHead(200);
      const chunk = Buffer.alloc(16 * 1024, 'x');
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      res.on('error', () => {});
      pump();
    });
    expect(await deliver(r.origin, 5_000)).toMatchObject({ ok: true, responseStatus: 200, errorReason: null });
  });

  it('delivers to an IPv6 loopback receiver', async () => {
    const r = await receiver((_req, res) => res.writeHead(204).end(), '::1');
    expect(await deliver(r.origin)).toMatchObject({ ok: true, responseStatus: 204 });
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it('reads delta-seconds and HTTP dates', () => {
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter(' 90 ', now)).toBe(90);
    expect(parseRetryAfter(['30', '60'], now)).toBe(30);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:02:00 GMT', now)).toBe(120);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0);
  });
  it('gives null when absent or unreadable', () => {
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter('', now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter('-5', now)).toBeNull();
  });
});

export type { DeliveryResult };
