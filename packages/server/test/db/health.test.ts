/**
 * Health endpoints and roles (docs/deployment.md): GET /healthz and /readyz outside /v1, without
 * a token or the rate limit, JSON; /readyz 503 when the store is behind or shutdown began; a
 * `worker` serves them and no /v1, an `api` process reports that it runs no jobs.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { expectProblem } from '../../../../tests/support/http.js';

async function json(res: Response): Promise<any> {
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.headers.get('cache-control')).toBe('no-store');
  return res.json();
}

describe('role all (the default)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ authFailuresPerMinute: 1 });
  });
  afterAll(() => h.close());

  it('answers /healthz and /readyz without a token, even with a bad one, and outside the rate limit', async () => {
    expect(h.server.role).toBe('all');
    for (let i = 0; i < 5; i++) {
      const live = await h.call('GET', '/healthz', { token: 'not-a-token' });
      expect(live.status).toBe(200);
      expect(live.headers.get('ratelimit-limit')).toBeNull();
      expect(await json(live)).toEqual({ status: 'ok' });
    }
    const ready = await h.call('GET', '/readyz', { token: null });
    expect(ready.status).toBe(200);
    expect(await json(ready)).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok', jobs: 'ok', shutdown: 'ok' } });
    // The API itself still wants a token.
    await expectProblem(await h.call('GET', '/v1/me', { token: null }), 401, 'unauthenticated');
  });

  it('answers /readyz 503 while a migration of this build is not applied', async () => {
    const [last] = await h.knex('siteaudit_migrations').orderBy('id', 'desc').limit(1);
    await h.knex('siteaudit_migrations').where({ id: last.id }).delete();
    try {
      const res = await h.call('GET', '/readyz', { token: null });
      expect(res.status).toBe(503);
      expect(await json(res)).toMatchObject({ status: 'not_ready', checks: { database: 'ok', migrations: 'pending' } });
    } finally {
      await h.knex('siteaudit_migrations').insert(last);
    }
    expect((await h.call('GET', '/readyz', { token: null })).status).toBe(200);
  });
});

describe('role api', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ role: 'api' });
  });
  afterAll(() => h.close());

  it('serves the API and is ready without running jobs', async () => {
    expect(h.server.role).toBe('api');
    expect((await h.call('GET', '/v1/me')).status).toBe(200);
    const res = await h.call('GET', '/readyz', { token: null });
    expect(res.status).toBe(200);
    expect((await json(res)).checks.jobs).toBe('not_run');
  });

  it('is what jobs: false means, and a contradiction is refused', async () => {
    const { createSiteAuditServer } = await import('../../src/index.js');
    await expect(createSiteAuditServer({ database: 'sqlite::memory:', role: 'worker', jobs: false, logger: false })).rejects.toThrow(/contradicts/);
    await expect(createSiteAuditServer({ database: 'sqlite::memory:', role: 'both' as never, logger: false })).rejects.toThrow(/role must be one of/);
  });
});

describe('role worker', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ role: 'worker' });
  });
  afterAll(() => h.close());

  it('serves the health endpoints and no /v1', async () => {
    expect(h.server.role).toBe('worker');
    expect(await json(await h.call('GET', '/healthz', { token: null }))).toEqual({ status: 'ok' });
    const ready = await h.call('GET', '/readyz', { token: null });
    expect(ready.status).toBe(200);
    expect((await json(ready)).checks.jobs).toBe('ok');
    await expectProblem(await h.call('GET', '/v1/me'), 404, 'not_found');
    await expectProblem(await h.call('POST', '/v1/projects', { body: { name: 'x', domain: 'example.com' } }), 404, 'not_found');
  });
});

describe('during shutdown', () => {
  let h: Harness;
  let host: Server;
  let base: string;
  beforeAll(async () => {
    h = await startHarness();
    // The app on a listener of the test's own, which stays open while the server closes.
    host = createServer(h.server.app);
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(host.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => host.close(resolve));
    await h.close();
  });

  it('answers /readyz 503 once close() began, while /healthz still answers 200 and the API refuses', async () => {
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    const closing = h.server.close();
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(503);
    expect(await json(ready)).toMatchObject({ status: 'not_ready', checks: { shutdown: 'shutting_down' } });
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    await expectProblem(await fetch(`${base}/v1/me`, { headers: { authorization: `Bearer ${h.token}` } }), 503, 'service_unavailable');
    await closing;
  });
});
