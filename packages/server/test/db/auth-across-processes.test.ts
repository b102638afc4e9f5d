/**
 * Across processes on PostgreSQL (docs/deployment.md): a member removed, or a plan changed,
 * through one server, or through the operator's CLI, is seen by every other server on the same
 * database from its next request on — LISTEN/NOTIFY, not a cache window. Each server here has a
 * connection pool of its own, as separate processes do. SQLite is one process: not run there.
 */
import knexFactory, { type Knex } from 'knex';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '@siteaudit/schema';
import { openAdmin } from '../../src/admin.js';
import { createSiteAuditServer, type SiteAuditServer } from '../../src/index.js';
import { onPostgres, sharedDatabase } from '../../../../tests/support/harness.js';
import { expectProblem } from '../../../../tests/support/http.js';

const SECRET = 'test-secret-key-0123456789abcdef0123';

describe.skipIf(!onPostgres)('token changes across processes', () => {
  let drop: () => Promise<void>;
  const pools: Knex[] = [];
  const servers: { server: SiteAuditServer; url: string }[] = [];

  beforeAll(async () => {
    const db = await sharedDatabase();
    drop = db.drop;
    for (let i = 0; i < 2; i++) {
      const knex = knexFactory({ ...db.knex.client.config, pool: { min: 0, max: 4 } });
      pools.push(knex);
      const server = await createSiteAuditServer({ database: knex, secretKey: SECRET, logger: false, role: 'api' });
      servers.push({ server, url: (await server.listen(0)).url });
    }
  });
  afterAll(async () => {
    for (const { server } of servers) await server.close();
    for (const knex of pools) await knex.destroy();
    await drop();
  });

  const me = (i: number, token: string) => fetch(`${servers[i].url}/v1/me`, { headers: { authorization: `Bearer ${token}` } });

  async function member(email: string): Promise<string> {
    const { admin } = servers[0].server;
    await admin.addMember({ team: 'acme', email, name: 'M', role: 'member' });
    return (await admin.createToken({ team: 'acme', member: email, name: 't', scopes: [...SCOPES] })).token;
  }

  it('a member removed through one server is refused by the other on its next request', async () => {
    await servers[0].server.admin.createTeam({ slug: 'acme', name: 'Acme', plan: 'pro' });
    const token = await member('leaving@acme.test');
    // Both servers have the token in their cache now.
    for (const i of [0, 1]) expect((await me(i, token)).status).toBe(200);
    await servers[0].server.admin.removeMember({ team: 'acme', email: 'leaving@acme.test' });
    for (const i of [1, 0]) await expectProblem(await me(i, token), 401, 'unauthenticated');
  });

  it('a plan changed and a member removed by the CLI (admin without a server) reach every server', async () => {
    const token = await member('other@acme.test');
    for (const i of [0, 1]) expect((await (await me(i, token)).json()).data.plan.key).toBe('pro');
    const cliPool = knexFactory({ ...pools[0].client.config, pool: { min: 0, max: 1 } });
    const { admin, close } = await openAdmin({ database: cliPool, secretKey: SECRET });
    try {
      await admin.setPlan({ team: 'acme', plan: 'agency' });
      for (const i of [0, 1]) expect((await (await me(i, token)).json()).data.plan.key).toBe('agency');
      await admin.removeMember({ team: 'acme', email: 'other@acme.test' });
      for (const i of [0, 1]) await expectProblem(await me(i, token), 401, 'unauthenticated');
    } finally {
      await close();
      await cliPool.destroy();
    }
  });

  it('a change returns only once every listening process has emptied its cache and said so', async () => {
    const token = await member('third@acme.test');
    // A third process's listener, slow to read its notifications: named and listening as a server's is.
    const slow = (await pools[1].client.acquireRawConnection()) as pg.Client;
    try {
      const heard: string[] = [];
      slow.on('notification', (message) => {
        if (message.channel === 'siteaudit_auth' && message.payload) heard.push(message.payload.split(' ')[1]);
      });
      await slow.query('LISTEN siteaudit_auth');
      await slow.query("SET application_name = 'siteaudit-auth slowprocess'");
      let returned = false;
      const removal = servers[0].server.admin.removeMember({ team: 'acme', email: 'third@acme.test' }).then(() => (returned = true));
      await expect.poll(() => heard.length, { timeout: 5_000 }).toBe(1);
      // The other servers have acknowledged by now; the slow process has not.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(returned).toBe(false);
      await slow.query("select pg_notify('siteaudit_auth_ack', $1)", [`${heard[0]} slowprocess`]);
      await removal;
      expect(returned).toBe(true);
      for (const i of [0, 1]) await expectProblem(await me(i, token), 401, 'unauthenticated');
    } finally {
      await slow.end();
    }
  });
});
