/**
 * Local names (`localhost.`, `*.localhost`, `.local` …) are refused by name at creation, even
 * when they do not resolve, wherever private addresses are refused; an operator who allows private
 * addresses may use them (docs/decisions/outbound-addresses.md). The mock answers alike
 * (packages/mock/test/projects-campaigns.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { expectProblem } from '../../../../tests/support/http.js';

// No local name resolves here, as on a resolver without RFC 6761 handling: the refusal must come
// from the name itself, not from an address.
vi.mock('node:dns/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:dns/promises')>();
  const lookup = (async (host: string, options: object) => {
    if (/(^|\.)(localhost|local|home\.arpa|internal|lan)\.?$/i.test(host)) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return actual.lookup(host, options as never);
  }) as typeof actual.lookup;
  return { ...actual, default: { ...actual, lookup }, lookup };
});

const LOCAL_HOSTS = ['localhost.', 'LocalHost.', 'foo.localhost', 'foo.localhost.', 'a.b.localhost', 'printer.local', 'nas.home.arpa', 'db.internal', 'router.lan'];

describe('with private addresses refused', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ network: { allowPrivateAddresses: false } });
  });
  afterAll(() => h.close());

  it.each(LOCAL_HOSTS)('refuses %s as a project, campaign start and webhook URL', async (host) => {
    const project = await expectProblem(await h.call('POST', '/v1/projects', { body: { url: `http://${host}/` } }), 422, 'project.url_refused');
    expect(project.errors.url).toBeDefined();

    // A name that does not resolve and is not local is accepted (DNS may be down).
    const created = await h.call('POST', '/v1/projects', { body: { url: 'http://not-live-yet.example.test/' } });
    expect(created.status).toBe(201);
    const id = (await created.json()).data.id;
    const campaign = await h.call('POST', `/v1/projects/${id}/campaigns`, { body: { name: 'Local', start_url: `http://${host}/`, max_depth: 5, max_urls: 100 } });
    expect((await expectProblem(campaign, 422, 'project.url_refused')).errors.start_url).toBeDefined();

    const hook = await h.call('POST', '/v1/webhooks', { body: { url: `https://${host}/hook`, events: ['crawl.completed'] } });
    expect((await expectProblem(hook, 422, 'webhook.url_refused')).errors.url).toBeDefined();
    await h.call('DELETE', `/v1/projects/${id}`);
  });
});

describe('webhook URLs the public DNS never resolves', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ network: { allowPrivateAddresses: false } });
  });
  afterAll(() => h.close());

  it.each(['hooks.acme.invalid', 'hooks.acme.test', 'hooks.acme.example', 'INVALID.', 'a.b.test.'])('refuses https://%s/ with webhook.url_refused, and still takes it as a site not live yet', async (host) => {
    const hook = await h.call('POST', '/v1/webhooks', { body: { url: `https://${host}/hook`, events: ['crawl.completed'] } });
    expect((await expectProblem(hook, 422, 'webhook.url_refused')).errors.url).toBeDefined();
    const created = await h.call('POST', '/v1/projects', { body: { url: `https://${host}/` } });
    expect(created.status).toBe(201);
    await h.call('DELETE', `/v1/projects/${(await created.json()).data.id}`);
  });

  it('takes a name that merely does not resolve right now', async () => {
    // Every name is unresolvable on this machine's network: a down resolver does not refuse it.
    const hook = await h.call('POST', '/v1/webhooks', { body: { url: 'https://hooks.example.com/in', events: ['crawl.completed'] } });
    expect(hook.status).toBe(201);
    await h.call('DELETE', `/v1/webhooks/${(await hook.json()).data.id}`);
  });
});

describe('with private addresses allowed', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ network: { allowPrivateAddresses: true } });
  });
  afterAll(() => h.close());

  it('accepts a local name', async () => {
    expect((await h.call('POST', '/v1/projects', { body: { url: 'http://app.localhost:3000/' } })).status).toBe(201);
    expect((await h.call('POST', '/v1/webhooks', { body: { url: 'https://hooks.localhost/in', events: ['crawl.completed'] } })).status).toBe(201);
  });
});
