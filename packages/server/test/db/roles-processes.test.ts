/**
 * Roles as an operator runs them (docs/deployment.md): `start --role api` and `start --role
 * worker` in processes of their own on one PostgreSQL database, and the operator's CLI in a
 * third. The worker answers health checks and no /v1; a member the CLI removes is refused by the
 * API process on its next request, though it had the token cached.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPostgres } from '../../../../tests/support/harness.js';
import { childDatabase, freePort, runCli, startChild, type ChildDatabase, type ChildServer } from './support/child-server.js';
import { expectProblem } from '../../../../tests/support/http.js';

describe.skipIf(!onPostgres)('api and worker processes on one database', () => {
  let db: ChildDatabase;
  let api: ChildServer;
  let worker: ChildServer;

  beforeAll(async () => {
    db = await childDatabase();
    api = await startChild(db, await freePort(), ['--role', 'api']);
    worker = await startChild(db, await freePort(), ['--role', 'worker']);
  }, 120_000);
  afterAll(async () => {
    await api?.kill('SIGTERM');
    await worker?.kill('SIGTERM');
    await db?.drop();
  });

  it('the worker serves health checks, not the API; both are ready', async () => {
    expect(worker.output()).toMatch(/worker listening on .* health checks only/);
    for (const { url } of [api, worker]) {
      const ready = await fetch(`${url}/readyz`);
      expect(ready.status).toBe(200);
    }
    expect((await (await fetch(`${api.url}/readyz`)).json()).checks.jobs).toBe('not_run');
    expect((await (await fetch(`${worker.url}/readyz`)).json()).checks.jobs).toBe('ok');
    await expectProblem(await fetch(`${worker.url}/v1/me`, { headers: { authorization: `Bearer ${db.token}` } }), 404, 'not_found');
  });

  it('a member removed by the CLI is refused by the API process on its next request', async () => {
    const cli = async (args: string[]) => {
      const res = await runCli(db, ['admin', '--database', db.url, '--json', ...args]);
      expect(res.code, res.stderr).toBe(0);
      return JSON.parse(res.stdout);
    };
    await cli(['add-member', '--team', 'acme', '--email', 'leaving@acme.test', '--name', 'Leaving']);
    const { token } = await cli(['create-token', '--team', 'acme', '--member', 'leaving@acme.test', '--name', 'ci', '--scopes', 'all']);
    const me = () => fetch(`${api.url}/v1/me`, { headers: { authorization: `Bearer ${token}` } });
    expect((await me()).status).toBe(200);
    await cli(['remove-member', '--team', 'acme', '--email', 'leaving@acme.test']);
    await expectProblem(await me(), 401, 'unauthenticated');
  }, 180_000);
});
