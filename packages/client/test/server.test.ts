/**
 * The client against the real reference server (in-memory SQLite, over HTTP): account,
 * projects and campaigns, the operations the server implements today.
 */
import { SCOPES, type Scope } from '@siteaudit/schema';
import { createSiteAuditServer, type SiteAuditServer } from '@siteaudit/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  NotFoundError,
  PermissionError,
  ValidationError,
  createClient,
  type ClientOptions,
  type SiteAuditClient,
} from '../src/index.js';

let server: SiteAuditServer;
let baseUrl: string;
let token: string;
let client: SiteAuditClient;
let members = 0;

async function tokenWith(scopes: readonly Scope[]): Promise<string> {
  const email = `member-${++members}@acme.test`;
  await server.admin.addMember({ team: 'acme', email, name: 'Member', role: 'owner' });
  return (await server.admin.createToken({ team: 'acme', member: email, name: 'client tests', scopes: [...scopes] })).token;
}

const clientFor = (options: Partial<ClientOptions> = {}) => createClient({ baseUrl, token, language: 'en', retries: 0, ...options });

beforeAll(async () => {
  server = await createSiteAuditServer({
    database: 'sqlite::memory:',
    network: { allowPrivateAddresses: true },
    secretKey: 'client-test-secret-key-0123456789abcdef',
  });
  baseUrl = (await server.listen(0)).url;
  await server.admin.createTeam({ slug: 'acme', name: 'Acme', plan: 'agency' });
  token = await tokenWith(SCOPES);
  client = clientFor();
});

afterAll(async () => {
  await server?.close();
});

describe('client ↔ server: account', () => {
  it('reads the current token, team and plan', async () => {
    const me = await client.account.me();
    expect(me.team).toEqual({ slug: 'acme', name: 'Acme' });
    expect(me.token.scopes).toEqual(expect.arrayContaining([...SCOPES]));
    expect(me.api_access).toContain('read');
  });

  it('reads usage and the running operations, and records the rate-limit headers', async () => {
    const usage = await client.account.usage();
    expect(usage.rate_limits.map((w) => w.window).sort()).toEqual(['day', 'minute']);
    const operations = await client.account.operations();
    expect(operations).toMatchObject({ data: expect.any(Array), meta: { total: expect.any(Number), shown: expect.any(Number) } });
    expect(client.lastRateLimit?.limit).toBeGreaterThan(0);
    expect(client.lastRateLimit?.windows.minute).toBeDefined();
  });

  it('throws AuthenticationError for an unknown token', async () => {
    const error = await clientFor({ token: 'sa_not_a_real_token' })
      .account.me()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: 'unauthenticated' });
    expect((error as AuthenticationError).requestId).toBeTruthy();
  });
});

describe('client ↔ server: projects', () => {
  it('creates, reads, updates and deletes a project', async () => {
    const project = await client.projects.create({ url: 'http://127.0.0.1:9/', name: 'Local site' });
    expect(project).toMatchObject({ name: 'Local site', url: expect.stringContaining('127.0.0.1'), locked: false });
    await expect(client.projects.get({ project: project.id })).resolves.toMatchObject({ id: project.id });
    await expect(client.projects.update({ project: project.id, name: 'Renamed' })).resolves.toMatchObject({ name: 'Renamed' });
    await expect(client.projects.delete({ project: project.id })).resolves.toBeUndefined();
    await expect(client.projects.get({ project: project.id })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('replays a creation sent twice with the same idempotency key', async () => {
    const first = await client.projects.create({ url: 'http://127.0.0.1:9/replay' }, { idempotencyKey: 'client-test-replay' });
    const again = await client.projects.create({ url: 'http://127.0.0.1:9/replay' }, { idempotencyKey: 'client-test-replay' });
    expect(again.id).toBe(first.id);
  });

  it('iterates over every page of the list', async () => {
    for (let i = 0; i < 3; i++) await client.projects.create({ url: `http://127.0.0.1:9/page-${i}` });
    const first = await client.projects.list({ limit: 2 });
    expect(first.data).toHaveLength(2);
    expect(first.meta).toMatchObject({ limit: 2, has_more: true });
    const all = await client.projects.list({ limit: 2 }).toArray({ limit: 1000 });
    const ids = all.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThanOrEqual(4);
    expect(ids.slice(0, 2)).toEqual(first.data.map((p) => p.id));
  });

  it('reuses the cached body when the server answers 304', async () => {
    const statuses: number[] = [];
    const cached = clientFor({
      etagCache: true,
      fetch: async (url, init) => {
        const res = await fetch(url, init);
        statuses.push(res.status);
        return res;
      },
    });
    const project = await cached.projects.create({ url: 'http://127.0.0.1:9/etag' });
    const a = await cached.projects.get({ project: project.id });
    const b = await cached.projects.get({ project: project.id });
    expect(b).toEqual(a);
    expect(statuses.slice(-2)).toEqual([200, 304]);
  });

  it('throws PermissionError naming the missing scope', async () => {
    const readOnly = clientFor({ token: await tokenWith(['projects:read']) });
    const error = await readOnly.projects.create({ url: 'http://127.0.0.1:9/' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermissionError);
    expect(error).toMatchObject({ status: 403, code: 'token.missing_scope', requiredScopes: ['projects:write'] });
  });
});

describe('client ↔ server: campaigns', () => {
  it('creates, lists, updates and deletes a campaign', async () => {
    const project = await client.projects.create({ url: 'http://127.0.0.1:9/campaigns' });
    const campaign = await client.campaigns.create({
      project: project.id,
      name: 'Weekly audit',
      start_url: 'http://127.0.0.1:9/campaigns',
      max_depth: 3,
      max_urls: 100,
      schedule: { frequency: 'manual' },
    });
    expect(campaign).toMatchObject({ project_id: project.id, name: 'Weekly audit', max_depth: 3, max_urls: 100 });

    const listed = await client.campaigns.list({ project: project.id }).toArray({ limit: 100 });
    expect(listed.map((c) => c.id)).toContain(campaign.id);

    const updated = await client.campaigns.update({ campaign: campaign.id, max_urls: 50 });
    expect(updated).toMatchObject({ name: 'Weekly audit', max_urls: 50 });
    await expect(client.campaigns.get({ campaign: campaign.id })).resolves.toMatchObject({ max_urls: 50 });

    await client.campaigns.delete({ campaign: campaign.id });
    await expect(client.campaigns.get({ campaign: campaign.id })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('throws ValidationError with the messages by field', async () => {
    const project = await client.projects.create({ url: 'http://127.0.0.1:9/invalid' });
    const error = await client.campaigns
      .create({ project: project.id, name: 'Bad', start_url: 'http://127.0.0.1:9/', max_depth: 3, max_urls: 100, schedule: { frequency: 'daily', time: '25:00' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ status: 422, code: 'validation_failed' });
    expect(Object.keys((error as ValidationError).errors)).toContain('schedule.time');
  });
});
