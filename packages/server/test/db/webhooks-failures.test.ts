/**
 * Local development receivers and the reason of each failed delivery, over HTTP: with private
 * addresses allowed an http receiver is taken and delivered to, and each failure shows its
 * precise `error_reason` in the delivery log and in the server log (module `webhooks`). The
 * `webhook.test` event is sent once, so one call gives one settled attempt.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSiteAuditServer } from '../../src/index.js';
import { loggerOptions } from '../../src/observability/logger.js';
import { closedPort } from '../../../../tests/support/receiver.js';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { TEST_CERT, TEST_KEY } from '../../../../tests/support/tls.js';

const lines: string[] = [];
const capture = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  },
});
const logged = () => lines.map((line) => JSON.parse(line) as Record<string, any>);

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ network: { allowPrivateAddresses: true }, logger: pino(loggerOptions('info'), capture) });
});
afterAll(() => h.close());

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((s) => {
      s.closeAllConnections();
      return new Promise<void>((resolve) => s.close(() => resolve()));
    }),
  );
});

/** A local receiver answering `status`: plain http, or https with the self-signed test certificate. */
async function receiver(status: number, tls = false): Promise<{ url: string; bodies: string[] }> {
  const bodies: string[] = [];
  const handler = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(status).end();
    });
  };
  const server = tls ? createHttpsServer({ key: TEST_KEY, cert: TEST_CERT }, handler) : createHttpServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `${tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, bodies };
}

/** Subscribes `url`, sends the test event and returns its settled delivery. */
async function testDelivery(url: string) {
  const created = await h.call('POST', '/v1/webhooks', { body: { url, events: ['crawl.completed'] } });
  expect(created.status).toBe(201);
  const hook = (await created.json()).data;
  expect((await h.call('POST', `/v1/webhooks/${hook.id}/test`)).status).toBe(202);
  await h.server.jobs.idle();
  const [delivery] = (await (await h.call('GET', `/v1/webhooks/${hook.id}/deliveries`)).json()).data;
  return { hook, delivery };
}

function failureLine(webhookId: string) {
  return logged().find((e) => e.msg === 'webhook delivery failed' && e.webhook === webhookId);
}

describe('webhooks in local development (private addresses allowed)', () => {
  it('takes an http receiver, on create and update, and delivers to it', async () => {
    const r = await receiver(204);
    const { hook, delivery } = await testDelivery(r.url);
    expect(hook.url).toBe(r.url);
    expect(delivery).toMatchObject({ event_type: 'webhook.test', status: 'succeeded', attempts: 1, response_status: 204, error_reason: null });
    expect(JSON.parse(r.bodies[0])).toMatchObject({ type: 'webhook.test', data: { webhook_id: hook.id } });
    const patched = await h.call('PATCH', `/v1/webhooks/${hook.id}`, { body: { url: 'http://127.0.0.1:9/other' } });
    expect(patched.status).toBe(200);
    expect((await patched.json()).data.url).toBe('http://127.0.0.1:9/other');
  });

  it('still refuses URLs that are neither http nor https', async () => {
    for (const url of ['ftp://127.0.0.1/hooks', 'ws://127.0.0.1/hooks', '/hooks']) {
      const res = await h.call('POST', '/v1/webhooks', { body: { url, events: ['crawl.completed'] } });
      expect(res.status, url).toBe(422);
      expect(await res.json()).toMatchObject({ code: 'validation_failed', errors: { url: [{ message: 'Doit être une URL https absolue' }] } });
    }
  });
});

describe('the reason of a failed delivery, in the delivery log and the server log', () => {
  it('is tls_certificate_untrusted for a self-signed https receiver', async () => {
    const r = await receiver(200, true);
    const { hook, delivery } = await testDelivery(r.url);
    expect(delivery).toMatchObject({ status: 'failed', attempts: 1, response_status: null, error_reason: 'tls_certificate_untrusted' });
    expect(r.bodies).toHaveLength(0);
    expect(failureLine(hook.id)).toMatchObject({ module: 'webhooks', level: 40, reason: 'tls_certificate_untrusted', error_code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
  });

  it('is connection_refused when nothing listens on the port', async () => {
    const { hook, delivery } = await testDelivery(`http://127.0.0.1:${await closedPort()}/hooks`);
    expect(delivery).toMatchObject({ status: 'failed', response_status: null, error_reason: 'connection_refused' });
    expect(failureLine(hook.id)).toMatchObject({ reason: 'connection_refused', error_code: 'ECONNREFUSED' });
  });

  it('is dns_failure when the name does not resolve', async () => {
    const { hook, delivery } = await testDelivery('https://receiver.invalid/hooks');
    expect(delivery).toMatchObject({ status: 'failed', response_status: null, error_reason: 'dns_failure' });
    expect(failureLine(hook.id)).toMatchObject({ reason: 'dns_failure' });
  });

  it('is http_status with the status for a 500', async () => {
    const r = await receiver(500);
    const { hook, delivery } = await testDelivery(r.url);
    expect(delivery).toMatchObject({ status: 'failed', response_status: 500, error_reason: 'http_status' });
    expect(r.bodies).toHaveLength(1);
    expect(failureLine(hook.id)).toMatchObject({ reason: 'http_status', response_status: 500 });
  });
});

describe('a receiver that does not answer in time (webhooks.timeoutMs)', () => {
  let slow: Harness;
  beforeAll(async () => {
    slow = await startHarness({ network: { allowPrivateAddresses: true }, logger: pino(loggerOptions('info'), capture), webhooks: { timeoutMs: 300 } });
  });
  afterAll(() => slow.close());

  it('fails the attempt with the reason timeout, in the delivery log and the server log', async () => {
    // Takes the request and never answers it.
    const held: import('node:http').ServerResponse[] = [];
    const server = createHttpServer((_req, res) => void held.push(res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
    const created = await slow.call('POST', '/v1/webhooks', { body: { url, events: ['crawl.completed'] } });
    const hook = (await created.json()).data;
    expect((await slow.call('POST', `/v1/webhooks/${hook.id}/test`)).status).toBe(202);
    await slow.server.jobs.idle();
    const [delivery] = (await (await slow.call('GET', `/v1/webhooks/${hook.id}/deliveries`)).json()).data;
    expect(held).toHaveLength(1);
    expect(delivery).toMatchObject({ status: 'failed', attempts: 1, response_status: null, error_reason: 'timeout' });
    expect(failureLine(hook.id)).toMatchObject({ module: 'webhooks', reason: 'timeout' });
  });

  it('refuses a timeout that is not a positive whole number of milliseconds, before it opens the database', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'siteaudit-timeout-'));
    try {
      for (const timeoutMs of [0, -1, 1.5, Number.NaN]) {
        const database = join(folder, 'refused.db');
        await expect(createSiteAuditServer({ database, logger: false, webhooks: { timeoutMs } })).rejects.toThrow(/webhooks.timeoutMs/);
        // Nothing was opened, so nothing is left open behind the refusal.
        expect(existsSync(database)).toBe(false);
      }
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
