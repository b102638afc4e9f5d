/**
 * Absolute links (export `download_url` and `Location`) come from the operator's public URL, or
 * the address `listen()` binds, never from the request's Host header; the `download_url` of an
 * answer and of the `export.ready` webhook payload are one value (docs/decisions/public-url.md).
 */
import { request } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSiteAuditServer } from '../../src/index.js';
import { sharedDatabase, startHarness, type Harness } from '../../../../tests/support/harness.js';
import { projectWithCampaign } from './support/crawl-flow.js';
import { startSite, type Site } from '../../../../tests/support/site.js';
import { startTlsReceiver, type TlsReceiver } from '../../../../tests/support/tls.js';

// Webhook URLs are https: the delivery trusts the local receiver's certificate.
vi.mock('undici', async (importOriginal) => {
  const actual = await importOriginal<typeof import('undici')>();
  const { TEST_CERT } = await import('../../../../tests/support/tls.js');
  const buildConnector: typeof actual.buildConnector = (options) => actual.buildConnector({ ...options, ca: [TEST_CERT] });
  return { ...actual, buildConnector };
});

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** A request with a Host header of the caller's choosing (fetch cannot set it). */
function rawCall(base: string, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<RawAnswer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, base), { method, headers: { ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

let site: Site;
let receiver: TlsReceiver;
beforeAll(async () => {
  site = await startSite();
  receiver = await startTlsReceiver();
});
afterAll(async () => {
  await site.close();
  await receiver.close();
});

/** Every place a link shows: the 202, the export read back, the crawl launch, the webhook body. */
async function exportLinks(h: Harness) {
  const hostile = { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https', authorization: `Bearer ${h.token}` };
  expect((await h.call('POST', '/v1/webhooks', { body: { url: receiver.url, events: ['export.ready'] } })).status).toBe(201);
  const { campaign } = await projectWithCampaign(h, site.url);
  const launch = await rawCall(h.url, 'POST', `/v1/campaigns/${campaign.id}/crawls`, { ...hostile, 'idempotency-key': crypto.randomUUID() });
  expect(launch.status).toBe(202);
  await h.server.jobs.idle();
  const crawl = JSON.parse(launch.text).data;

  const created = await rawCall(h.url, 'POST', `/v1/crawls/${crawl.id}/exports`, hostile, { format: 'pdf' });
  expect(created.status, created.text).toBe(202);
  const id = JSON.parse(created.text).data.id as string;
  receiver.bodies.length = 0;
  await h.server.jobs.idle();
  const read = await rawCall(h.url, 'GET', `/v1/exports/${id}`, hostile);
  expect(read.status).toBe(200);
  const webhook = receiver.bodies.find((body) => JSON.parse(body).type === 'export.ready');
  expect(webhook).toBeDefined();

  const answers = [launch, created, read].map((a) => JSON.stringify(a.headers) + a.text).join('\n') + webhook!;
  expect(answers).not.toContain('evil.example');
  return {
    crawlLocation: launch.headers.location,
    exportLocation: created.headers.location,
    downloadUrl: JSON.parse(read.text).data.download_url as string,
    webhookDownloadUrl: JSON.parse(webhook!).data.export.download_url as string,
    id,
    crawlId: JSON.parse(launch.text).data.id as string,
  };
}

describe('with a public URL holding a path prefix', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ publicUrl: 'https://api.example.com/siteaudit/' });
  });
  afterAll(() => h.close());

  it('builds every link on it, whatever Host the request names', async () => {
    const links = await exportLinks(h);
    expect(links.exportLocation).toBe(`https://api.example.com/siteaudit/v1/exports/${links.id}`);
    expect(links.downloadUrl).toBe(`https://api.example.com/siteaudit/v1/exports/${links.id}/download`);
    expect(links.webhookDownloadUrl).toBe(links.downloadUrl);
    // The crawl's Location stays relative, under the public URL's own path.
    expect(links.crawlLocation).toBe(`/siteaudit/v1/crawls/${links.crawlId}`);
  });
});

describe('without a public URL', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('builds links on the address listen() binds, never on the Host header', async () => {
    const links = await exportLinks(h);
    expect(links.exportLocation).toBe(`${h.url}/v1/exports/${links.id}`);
    expect(links.downloadUrl).toBe(`${h.url}/v1/exports/${links.id}/download`);
    expect(links.webhookDownloadUrl).toBe(links.downloadUrl);
    expect(links.crawlLocation).toBe(`/v1/crawls/${links.crawlId}`);
    const file = await h.call('GET', new URL(links.downloadUrl).pathname);
    expect(file.status).toBe(200);
  });
});

describe('configuration', () => {
  const saved = process.env.SITEAUDIT_PUBLIC_URL;
  afterEach(() => {
    if (saved === undefined) delete process.env.SITEAUDIT_PUBLIC_URL;
    else process.env.SITEAUDIT_PUBLIC_URL = saved;
  });

  it('reads SITEAUDIT_PUBLIC_URL when the option is absent', async () => {
    process.env.SITEAUDIT_PUBLIC_URL = 'https://env.example.org';
    const h = await startHarness();
    try {
      const links = await exportLinks(h);
      expect(links.downloadUrl).toBe(`https://env.example.org/v1/exports/${links.id}/download`);
      expect(links.webhookDownloadUrl).toBe(links.downloadUrl);
    } finally {
      await h.close();
    }
  });

  it.each(['api.example.com', 'ftp://api.example.com', 'https://user:pw@api.example.com', 'https://api.example.com/?x=1', 'https://api.example.com/#top'])(
    'refuses %s as a public URL at start',
    async (publicUrl) => {
      const db = await sharedDatabase();
      try {
        await expect(createSiteAuditServer({ database: db.knex, publicUrl })).rejects.toThrow(/publicUrl/);
      } finally {
        await db.drop();
      }
    },
  );
});
