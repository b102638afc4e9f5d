/**
 * The README's "Receive webhooks locally" receivers, as written there: a plain http receiver on
 * 127.0.0.1 verifying the raw body with the client's `verifyWebhook`, and the same check with
 * the `standardwebhooks` package, against deliveries signed and sent by the server's code.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '@siteaudit/client';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { deliverWebhook } from '../../src/delivery/delivery.js';
import { generateWebhookSecret, webhookHeaders } from '../../src/delivery/signing.js';

const secret = generateWebhookSecret();
const event = { id: '7d1f0e52-8c5e-4d8e-9f53-0f3b2c1a9e11', type: 'webhook.test', created_at: '2030-01-01T00:00:00Z', data: { webhook_id: 'w1' } };
const body = JSON.stringify(event);

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** Starts `handler` on 127.0.0.1 and returns its http URL. */
async function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
}

const send = (url: string, secrets = [secret]) =>
  deliverWebhook({ url, body, headers: webhookHeaders({ id: event.id, body, secrets }), allowPrivateAddresses: true });

describe('the README receivers', () => {
  it('verifyWebhook on the raw body accepts a delivery and refuses one signed with another secret', async () => {
    const seen: unknown[] = [];
    const url = await listen(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      try {
        const verified = await verifyWebhook(Buffer.concat(chunks), req.headers, secret);
        seen.push(verified);
        res.writeHead(204).end();
      } catch (err) {
        res.writeHead(400).end(String(err));
      }
    });
    expect(await send(url)).toMatchObject({ ok: true, responseStatus: 204 });
    expect(seen).toEqual([event]);
    expect(await send(url, [generateWebhookSecret()])).toMatchObject({ ok: false, responseStatus: 400, errorReason: 'http_status' });
  });

  it('standardwebhooks verifies the same delivery with the whole whsec_ secret', async () => {
    const seen: unknown[] = [];
    const url = await listen(async (req, res) => {
      let rawBody = '';
      for await (const chunk of req) rawBody += chunk;
      try {
        seen.push(new Webhook(secret).verify(rawBody, req.headers as Record<string, string>));
        res.writeHead(204).end();
      } catch {
        res.writeHead(400).end();
      }
    });
    expect(await send(url)).toMatchObject({ ok: true, responseStatus: 204 });
    expect(seen).toEqual([event]);
  });
});
