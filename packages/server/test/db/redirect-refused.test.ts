/**
 * A page behind a redirect to an address the guard refuses reports `address_refused`, not
 * `blocked_by_robots` (the robots.txt of the refused host is refused too, for the same reason).
 * The fixture site is on loopback, so this server refuses private addresses except the fixture's
 * own (127.0.0.1): names under .test resolve by the table below, `www.site.test` to 10.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { startSite, type Site } from '../../../../tests/support/site.js';

const TABLE: Record<string, { address: string; family: 4 }[]> = {
  'site.test': [{ address: '127.0.0.1', family: 4 }],
  'www.site.test': [{ address: '10.0.0.1', family: 4 }],
  'moved.test': [{ address: '10.0.0.2', family: 4 }],
};
vi.mock('node:dns/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:dns/promises')>();
  const lookup = (async (host: string, options: object) => TABLE[host] ?? actual.lookup(host, options as never)) as typeof actual.lookup;
  return { ...actual, default: { ...actual, lookup }, lookup };
});

// The guard as in production, except that the fixture's own address passes.
vi.mock('../../src/net/address-guard.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/net/address-guard.js')>();
  const { Agent, buildConnector } = await import('undici');
  const resolveVetted: typeof actual.resolveVetted = async (hostname, allowPrivate) => {
    const addresses = await actual.resolveVetted(hostname, true);
    const bad = addresses.find((a) => a.address !== '127.0.0.1' && !actual.isPublicAddress(a.address));
    if (!allowPrivate && bad) throw new actual.AddressRefusedError(hostname, bad.address);
    return addresses;
  };
  const createGuardedAgent: typeof actual.createGuardedAgent = (options) => {
    const connector = buildConnector({});
    return new Agent({
      connect(opts, callback) {
        resolveVetted(opts.hostname, options.allowPrivate).then(
          ([first]) => connector({ ...opts, hostname: first.address } as typeof opts, callback),
          (error: Error) => callback(error, null),
        );
      },
    });
  };
  return { ...actual, resolveVetted, createGuardedAgent };
});

let h: Harness;
let site: Site;
let origin: string;
const pages: Parameters<typeof startSite>[0] = {};

beforeAll(async () => {
  // In this thread: the module mocks above (the resolver, the guard) do not reach a crawl thread.
  h = await startHarness({ network: { allowPrivateAddresses: false }, crawlThreads: 0 });
  site = await startSite(pages);
  origin = `http://site.test:${new URL(site.url).port}`;
  const html = (body: string) => ({ html: `<!doctype html><html lang="en"><head><title>Fixture page</title></head><body>${body}</body></html>` });
  Object.assign(pages, {
    '/robots.txt': { html: 'User-agent: *\nAllow: /\n', headers: { 'content-type': 'text/plain' } },
    '/': html('<a href="/about">About</a> <a href="/inside">Inside</a>'),
    '/about': html('<a href="/">Home</a>'),
    // Same site (www. is the same site), but the name resolves into a private network.
    '/inside': { status: 301, headers: { location: `http://www.site.test:${new URL(site.url).port}/secret` } },
    '/start-moved': { status: 301, headers: { location: `http://moved.test:${new URL(site.url).port}/` } },
  });
});
afterAll(async () => {
  await h.close();
  await site.close();
});

async function crawlOf(startUrl: string) {
  const project = (await (await h.call('POST', '/v1/projects', { body: { url: startUrl } })).json()).data;
  expect(project?.id, 'the fixture is allowed').toBeDefined();
  const campaign = (await (await h.call('GET', `/v1/projects/${project.id}/campaigns`)).json()).data[0];
  const launched = await h.call('POST', `/v1/campaigns/${campaign.id}/crawls`, { headers: { 'idempotency-key': crypto.randomUUID() } });
  expect(launched.status).toBe(202);
  const id = (await launched.json()).data.id;
  await h.server.jobs.idle();
  const crawl = (await (await h.call('GET', `/v1/crawls/${id}`)).json()).data;
  const list = (await (await h.call('GET', `/v1/crawls/${id}/pages?limit=100`)).json()).data as { url: string; status_code: number | null; error_type: string | null }[];
  const issues = (await (await h.call('GET', `/v1/crawls/${id}/issues?limit=100`)).json()).data as { url: string; name: string }[];
  return { crawl, pages: new Map(list.map((p) => [p.url, p])), issues };
}

describe('a redirect to a refused address', () => {
  it('reports the target page as address_refused, and the rest of the site is crawled', async () => {
    const { crawl, pages: found, issues } = await crawlOf(`${origin}/`);
    const port = new URL(site.url).port;
    expect(found.get(`http://www.site.test:${port}/secret`)).toMatchObject({ status_code: null, error_type: 'address_refused' });
    expect(found.get(`${origin}/inside`)).toMatchObject({ status_code: 301 });
    expect(found.get(`${origin}/about`)).toMatchObject({ status_code: 200, error_type: null });
    expect(crawl.status).toBe('completed');
    expect(issues.map((i) => i.name)).not.toContain('blocked_by_robots');
    expect(issues.filter((i) => i.url === `http://www.site.test:${port}/secret`)).toEqual([]);
  });

  it('blocks a crawl whose start URL moves to a refused address, as address_refused', async () => {
    const { crawl, pages: found } = await crawlOf(`${origin}/start-moved`);
    const port = new URL(site.url).port;
    expect(found.get(`http://moved.test:${port}/`)).toMatchObject({ error_type: 'address_refused' });
    expect(crawl).toMatchObject({ blocked: true, blocked_reason: 'address_refused' });
  });
});
