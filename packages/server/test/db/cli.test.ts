/**
 * The operator's path (../shared/architecture.md, "The operator interface"): create a team, a
 * member and a token with the CLI on an SQLite file, start the server on it, and call the API
 * with the printed token. SQLite only: the CLI's database handling is the same on PostgreSQL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPostgres } from './harness.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const CLI = path.join(ROOT, 'packages/server/src/cli.ts');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
// The CLI runs in a temporary directory: point tsx at the repository's tsconfig so the workspace
// packages resolve to their source, never to a stale build in dist/.
const FROM_SOURCE = ['--tsconfig', path.join(ROOT, 'tsconfig.json')];

let dir: string;
let database: string;
const started: ChildProcess[] = [];

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, [...FROM_SOURCE, CLI, ...args], { cwd: dir, env: { ...process.env, DATABASE_URL: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c));
    child.stderr.on('data', (c: Buffer) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function waitForListening(child: ChildProcess, output: () => string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (/listening on/i.test(output())) return;
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not start: ${output()}`);
}

describe.skipIf(onPostgres)('siteaudit-server CLI', () => {
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'siteaudit-cli-'));
    database = path.join(dir, 'ops.db');
  });

  afterAll(async () => {
    for (const child of started) {
      if (child.exitCode === null && child.pid) {
        const exited = new Promise((r) => child.once('exit', r));
        process.kill(-child.pid, 'SIGTERM');
        await exited;
      }
    }
    await rm(dir, { recursive: true, force: true });
  });

  it('creates a team, a member and a token, then serves the API with that token', async () => {
    const team = await cli(['admin', '--database', database, 'create-team', '--slug', 'ops', '--name', 'Ops Team', '--plan', 'pro']);
    expect(team.code, team.stderr).toBe(0);
    expect(JSON.parse(team.stdout.trim())).toMatchObject({ slug: 'ops', name: 'Ops Team', plan: 'pro' });

    const member = await cli(['admin', '--database', database, 'add-member', '--team', 'ops', '--email', 'ops@ops.test', '--name', 'Ops', '--role', 'owner']);
    expect(member.code, member.stderr).toBe(0);

    const created = await cli(['admin', '--database', database, 'create-token', '--team', 'ops', '--member', 'ops@ops.test', '--name', 'cli', '--scopes', 'projects:read,projects:write']);
    expect(created.code, created.stderr).toBe(0);
    const token = created.stdout.trim();
    expect(token).toMatch(/^sa_[A-Za-z0-9_-]+$/);

    const port = await freePort();
    const server = spawn(TSX, [...FROM_SOURCE, CLI, 'start', '--port', String(port), '--database', database], {
      cwd: dir,
      env: { ...process.env, DATABASE_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    started.push(server);
    let output = '';
    server.stdout!.on('data', (c: Buffer) => (output += c));
    server.stderr!.on('data', (c: Buffer) => (output += c));
    await waitForListening(server, () => output);

    const base = `http://127.0.0.1:${port}`;
    const list = await fetch(`${base}/v1/projects`, { headers: { authorization: `Bearer ${token}` } });
    expect(list.status).toBe(200);
    expect(await list.json()).toEqual({ data: [], meta: { limit: 25, has_more: false, next_cursor: null } });

    const me = await (await fetch(`${base}/v1/me`, { headers: { authorization: `Bearer ${token}` } })).json();
    expect(me.data).toMatchObject({ team: { slug: 'ops' }, user: { email: 'ops@ops.test' }, token: { scopes: ['projects:read', 'projects:write'] } });

    const refused = await fetch(`${base}/v1/projects`, { headers: { authorization: 'Bearer sa_nottherightone_00000000000' } });
    expect(refused.status).toBe(401);
  }, 90_000);

  it('fails with a message and a non-zero exit code on a bad operator request', async () => {
    const res = await cli(['admin', '--database', database, 'create-token', '--team', 'nope', '--member', 'x@y.test', '--name', 'x']);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain('No team "nope"');
    const tooLong = await cli(['admin', '--database', database, 'create-token', '--team', 'ops', '--member', 'ops@ops.test', '--name', 'x', '--days', '366']);
    expect(tooLong.code).not.toBe(0);
    expect(tooLong.stderr).toMatch(/365/);
  }, 60_000);

  it('passes --public-url to the server, which refuses to start on one that is not an http(s) base', async () => {
    const res = await cli(['start', '--port', String(await freePort()), '--database', database, '--public-url', 'ftp://files.example.com']);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(/publicUrl must be an absolute http\(s\) URL|publicUrl must be an http\(s\) URL/);
  }, 60_000);
});
