/**
 * Two server processes started at the same moment on a brand-new PostgreSQL database (a rolling
 * deploy, two replicas): both run the migrations, both come up, and both use the one secret key
 * kept in the database (a cursor signed by one is accepted by the other). PostgreSQL only: an
 * SQLite file belongs to one process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import knexFactory from 'knex';
import { afterEach, describe, expect, it } from 'vitest';
import { SCOPES } from '@siteaudit/schema';
import { createSiteAuditServer } from '../../src/index.js';
import { DATABASE, onPostgres } from '../../../../tests/support/harness.js';
import { expectProblem } from '../../../../tests/support/http.js';
import { FROM_SOURCE, SOURCE_ENV, freePort } from './support/child-server.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const ROUNDS = 5;

const running: ChildProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map(stop));
});

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid, 'SIGTERM');
  await exited;
}

/** A database of its own, dropped afterwards. */
async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `siteaudit_start_${randomBytes(5).toString('hex')}`;
  const admin = knexFactory({ client: 'pg', connection: DATABASE, pool: { min: 0, max: 1 } });
  await admin.raw(`create database ${name}`);
  const url = new URL(DATABASE);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.raw(`drop database if exists ${name} with (force)`);
      await admin.destroy();
    },
  };
}

/** Starts `siteaudit-server start` from source; resolves with its base URL once it listens, or rejects with its output. */
function startServer(database: string, port: number): { child: ChildProcess; listening: Promise<string> } {
  // No configured key: the first process generates one and keeps it in the database.
  const env: NodeJS.ProcessEnv = { ...process.env, ...SOURCE_ENV, DATABASE_URL: '', SITEAUDIT_SECRET_KEY: '' };
  const child = spawn(process.execPath, [...FROM_SOURCE, 'start', '--port', String(port), '--database', database], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  running.push(child);
  let output = '';
  const listening = new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk;
      if (/listening on/i.test(output)) resolve(`http://127.0.0.1:${port}`);
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
  return { child, listening };
}

describe.skipIf(!onPostgres)('two processes starting together on a fresh database', () => {
  it(`both come up and share one secret key (${ROUNDS} rounds)`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const db = await freshDatabase();
      try {
        const [a, b] = [startServer(db.url, await freePort()), startServer(db.url, await freePort())];
        const [urlA, urlB] = await Promise.all([a.listening, b.listening]);

        for (const url of [urlA, urlB]) await expectProblem(await fetch(`${url}/v1/me`), 401, 'unauthenticated');

        // A token and two projects, made in this process on the same database.
        const admin = await createSiteAuditServer({ database: db.url });
        let token: string;
        try {
          await admin.admin.createTeam({ slug: 'both', name: 'Both', plan: 'agency' });
          await admin.admin.addMember({ team: 'both', email: 'owner@both.test', name: 'Owner', role: 'owner' });
          token = (await admin.admin.createToken({ team: 'both', member: 'owner@both.test', name: 'start', scopes: [...SCOPES] })).token;
        } finally {
          await admin.close();
        }
        const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
        for (const site of ['https://one.example/', 'https://two.example/']) {
          expect((await fetch(`${urlA}/v1/projects`, { method: 'POST', headers: auth, body: JSON.stringify({ url: site }) })).status).toBe(201);
        }
        // Cursors are signed with the secret key: one process reads the other's.
        const first = await (await fetch(`${urlA}/v1/projects?limit=1`, { headers: auth })).json();
        expect(first.meta.next_cursor).toEqual(expect.any(String));
        const next = await fetch(`${urlB}/v1/projects?limit=1&cursor=${encodeURIComponent(first.meta.next_cursor)}`, { headers: auth });
        expect(next.status).toBe(200);
        expect((await next.json()).data[0].id).not.toBe(first.data[0].id);
      } finally {
        await Promise.all(running.splice(0).map(stop));
        await db.drop();
      }
    }
  }, 240_000);
});
