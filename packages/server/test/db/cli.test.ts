/**
 * The operator's path (docs/operations.md and the README, "Start the server"): create a team, a
 * member and a token with the CLI on an SQLite file, start the server on it, and call the API
 * with the printed token. SQLite only: the CLI's database handling is the same on PostgreSQL.
 * The CLI runs as `npx siteaudit-server` does in a clone: through the package's bin launcher,
 * which runs the TypeScript source, or the build when that is newer (bin/siteaudit-server.js).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPostgres } from '../../../../tests/support/harness.js';
import { freePort, runToEnd } from './support/child-server.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const BIN = path.join(ROOT, 'packages/server/bin/siteaudit-server.js');

/**
 * Each CLI run starts a node process: a few seconds on a 2-core machine running CI's lanes side by
 * side, so a test of a dozen runs took over 90 s there. A bound for a hang, not a speed check.
 */
const CLI_TEST_MS = 240_000;

let dir: string;
let database: string;
const started: ChildProcess[] = [];

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runToEnd(process.execPath, [BIN, ...args], { cwd: dir, env: { ...process.env, DATABASE_URL: '' } });
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
    const team = await cli(['admin', '--database', database, 'create-team', '--slug', 'ops', '--name', 'Ops Team', '--plan', 'pro', '--json']);
    expect(team.code, team.stderr).toBe(0);
    expect(JSON.parse(team.stdout)).toMatchObject({ id: expect.any(String), slug: 'ops', name: 'Ops Team', plan: 'pro' });

    const member = await cli(['admin', '--database', database, '--json', 'add-member', '--team', 'ops', '--email', 'Ops@ops.test', '--name', 'Ops', '--role', 'owner']);
    expect(member.code, member.stderr).toBe(0);
    expect(JSON.parse(member.stdout)).toMatchObject({ id: expect.any(String), team: 'ops', email: 'ops@ops.test', name: 'Ops', role: 'owner' });

    const created = await cli(['admin', '--database', database, 'create-token', '--team', 'ops', '--member', 'ops@ops.test', '--name', 'cli', '--scopes', 'projects:read,projects:write', '--json']);
    expect(created.code, created.stderr).toBe(0);
    const createdToken = JSON.parse(created.stdout);
    expect(createdToken).toMatchObject({ id: expect.any(String), team: 'ops', name: 'cli', scopes: ['projects:read', 'projects:write'] });
    expect(Date.parse(createdToken.expires_at) - Date.now()).toBeGreaterThan(89 * 86_400_000);
    const token: string = createdToken.token;
    expect(token).toMatch(/^sa_[A-Za-z0-9_-]+$/);

    const port = await freePort();
    const server = spawn(process.execPath, [BIN, 'start', '--port', String(port), '--database', database], {
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

    // The request lines are buffered, yet reach stdout while the server runs, not only at exit.
    const requestId = refused.headers.get('x-request-id');
    await expect.poll(() => output.includes(`"req_id":"${requestId}"`), { timeout: 5_000 }).toBe(true);
    expect(server.exitCode).toBeNull();

    // …and the last lines are written out when SIGTERM stops it.
    const last = (await fetch(`${base}/v1/me`, { headers: { authorization: `Bearer ${token}` } })).headers.get('x-request-id');
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
    expect(output).toContain(`"req_id":"${last}"`);
    // The stop leaves its lines too: when it began, and when everything was closed.
    const lines = output.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { msg: string; ms?: number });
    const stopping = lines.findIndex((l) => l.msg === 'server stopping');
    const stopped = lines.findIndex((l) => l.msg === 'server stopped');
    expect(stopping).toBeGreaterThan(-1);
    expect(stopped).toBeGreaterThan(stopping);
    expect(lines[stopped].ms).toEqual(expect.any(Number));
  }, CLI_TEST_MS);

  it('says in words what each admin command did, the token on a line of its own', async () => {
    const team = await cli(['admin', '--database', database, 'create-team', '--slug', 'words', '--name', 'Words']);
    expect(team.code, team.stderr).toBe(0);
    expect(team.stdout).toMatch(/^Created team words \("Words"\) on plan pro, id [0-9a-f-]{36}\n$/);

    const member = await cli(['admin', '--database', database, 'add-member', '--team', 'words', '--email', 'w@words.test', '--name', 'W']);
    expect(member.stdout).toMatch(/^Added w@words.test to team words as member/);

    const created = await cli(['admin', '--database', database, 'create-token', '--team', 'words', '--member', 'w@words.test', '--name', 'ci', '--days', '30']);
    expect(created.code, created.stderr).toBe(0);
    const lines = created.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^Created token "ci" for w@words.test in team words, expires \d{4}-\d{2}-\d{2}/);
    expect(lines.at(-1)).toMatch(/^sa_[A-Za-z0-9_-]+$/);

    const removed = await cli(['admin', '--database', database, 'remove-member', '--team', 'words', '--email', 'w@words.test']);
    expect(removed.stdout).toContain('Removed w@words.test from team words');
    const removedJson = await cli(['admin', '--database', database, '--json', 'remove-member', '--team', 'words', '--email', 'w@words.test']);
    expect(removedJson.code).not.toBe(0); // already removed
    expect(removedJson.stderr.trim()).toBe('w@words.test is not a member of words');
  }, CLI_TEST_MS);

  it('set-plan says what changed, and --json gives the plan before and after', async () => {
    await cli(['admin', '--database', database, 'create-team', '--slug', 'planned', '--name', 'Planned', '--plan', 'starter']);
    const moved = await cli(['admin', '--database', database, 'set-plan', '--team', 'planned', '--plan', 'agency']);
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stdout.trim()).toBe('Team planned moved from plan starter to agency');

    const again = await cli(['admin', '--database', database, 'set-plan', '--team', 'planned', '--plan', 'free', '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({ team: 'planned', plan: 'free', previous_plan: 'agency' });

    const unknown = await cli(['admin', '--database', database, 'set-plan', '--team', 'planned', '--plan', 'gold']);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('No plan "gold"');
  }, CLI_TEST_MS);

  it('refuses a taken port in one line on stderr, with a non-zero exit code and no stack', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    try {
      const res = await cli(['start', '--port', String(port), '--database', database]);
      expect(res.code).not.toBe(0);
      expect(res.stderr.trim()).toBe(`Port ${port} is already in use: choose another with --port or PORT`);
      expect(res.stdout).not.toMatch(/listening/i);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  }, CLI_TEST_MS);

  it('leaves no new database file behind when the port is taken, and keeps an existing one', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    try {
      const fresh = path.join(dir, 'never-served.db');
      const res = await cli(['start', '--port', String(port), '--database', fresh]);
      expect(res.code).not.toBe(0);
      expect(res.stderr.trim()).toBe(`Port ${port} is already in use: choose another with --port or PORT`);
      expect(readdirSync(dir).filter((name) => name.startsWith('never-served'))).toEqual([]);
      // The same failure on a database that exists leaves it as it was.
      expect((await cli(['admin', '--database', fresh, 'create-team', '--slug', 'kept', '--name', 'Kept'])).code).toBe(0);
      expect((await cli(['start', '--port', String(port), '--database', fresh])).code).not.toBe(0);
      expect(existsSync(fresh)).toBe(true);
      expect(JSON.parse((await cli(['admin', '--database', fresh, '--json', 'list-teams'])).stdout)).toMatchObject([{ slug: 'kept' }]);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  }, CLI_TEST_MS);

  it('lists every command and admin subcommand with a description in its help', async () => {
    const described = (help: string) =>
      new Map(
        help
          .slice(help.indexOf('Commands:'))
          .split('\n')
          .slice(1)
          .map((line) => line.match(/^  ([a-z-]+)(?: \[options\])?(?: <[a-z-]+>)?(?:\s+(\S.*))?$/))
          .filter((m): m is RegExpMatchArray => m !== null && m[1] !== 'help')
          .map((m) => [m[1], m[2] ?? ''] as const),
      );
    const [top, admin] = await Promise.all([cli(['--help']), cli(['admin', '--help'])]);
    expect(top.code).toBe(0);
    const commands = described(top.stdout);
    expect([...commands.keys()]).toEqual(['start', 'dev', 'admin']);
    const subcommands = described(admin.stdout);
    expect([...subcommands.keys()]).toEqual([
      'create-team', 'add-member', 'create-token', 'remove-member', 'set-plan', 'link-search-console', 'lock-project',
      'list-teams', 'list-members', 'list-tokens', 'revoke-token', 'delete-team',
    ]);
    for (const [name, description] of [...commands, ...subcommands]) expect(description.length, name).toBeGreaterThan(10);
    expect(admin.stdout).toContain('--json');
    // Each command's options say their default once, in words where the value alone would not.
    const helps = await Promise.all(['start', 'dev'].map((command) => cli([command, '--help'])));
    for (const help of helps) {
      expect(help.code).toBe(0);
      const options = help.stdout.replace(/\n {20,}/g, ' ');
      expect(options.match(/^.*\(default: .*\(default: .*$/m)).toBeNull();
    }
    expect(helps[1].stdout).toMatch(/--database <url-or-file>\s+database \(default: in memory\)\n/);
  }, CLI_TEST_MS);

  it('dev says it lets crawls and webhooks reach private addresses', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [BIN, 'dev', '--port', String(port)], { cwd: dir, env: { ...process.env, DATABASE_URL: '' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    started.push(child);
    let output = '';
    child.stdout!.on('data', (c: Buffer) => (output += c));
    child.stderr!.on('data', (c: Buffer) => (output += c));
    await waitForListening(child, () => output);
    await expect.poll(() => output).toMatch(/Token \(shown once\): sa_/);
    expect(output).toMatch(/Crawls and webhooks may reach private and loopback addresses/);
  }, CLI_TEST_MS);

  it('fails with a message and a non-zero exit code on a bad operator request', async () => {
    const res = await cli(['admin', '--database', database, 'create-token', '--team', 'nope', '--member', 'x@y.test', '--name', 'x']);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain('No team "nope"');
    const tooLong = await cli(['admin', '--database', database, 'create-token', '--team', 'ops', '--member', 'ops@ops.test', '--name', 'x', '--days', '366']);
    expect(tooLong.code).not.toBe(0);
    expect(tooLong.stderr).toMatch(/365/);
  }, CLI_TEST_MS);

  it('passes --public-url to the server, which refuses to start on one that is not an http(s) base', async () => {
    const res = await cli(['start', '--port', String(await freePort()), '--database', database, '--public-url', 'ftp://files.example.com']);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(/^--public-url \(or SITEAUDIT_PUBLIC_URL\) must be an (absolute )?http\(s\) URL/);
  }, CLI_TEST_MS);

  it('prints its version, marks required options and shows the scopes default as a word', async () => {
    // Independent commands that read nothing: run side by side.
    const helps = [['start', '--help'], ['admin', '--help'], ['admin', 'create-token', '--help']];
    const [version, help, ...others] = await Promise.all([cli(['--version']), cli(['admin', 'create-token', '--help']), ...helps.map((args) => cli(args))]);
    expect(version.code).toBe(0);
    const { version: expected } = JSON.parse(readFileSync(path.join(ROOT, 'packages/server/package.json'), 'utf8')) as { version: string };
    expect(version.stdout.trim()).toBe(expected);

    expect(help.code).toBe(0);
    const line = (option: string) => help.stdout.split('\n').find((l) => l.trimStart().startsWith(option)) ?? '';
    expect(line('--team')).toContain('(required)');
    expect(line('--member')).toContain('(required)');
    expect(line('--days')).not.toContain('(required)');
    const scopes = help.stdout.slice(help.stdout.indexOf('--scopes'));
    expect(scopes).toMatch(/\(default: all\)/);
    expect(scopes.slice(0, scopes.indexOf('--days'))).not.toContain('["');

    // Readable in an 80-column terminal (the width when not a terminal), without a "(default: false)" per flag.
    for (const [i, args] of helps.entries()) {
      const out = others[i].stdout;
      expect(out.split('\n').filter((l) => l.length > 80), args.join(' ')).toEqual([]);
      expect(out).not.toContain('(default: false)');
    }
  }, CLI_TEST_MS);

  it('lists teams, members and tokens (never a secret), and revokes a token, which then stops working', async () => {
    const db = path.join(dir, 'lists.db');
    const admin = (...args: string[]) => cli(['admin', '--database', db, ...args]);
    expect((await admin('list-teams')).stdout).toMatch(/^No team yet: create one with admin create-team/);
    await admin('create-team', '--slug', 'listed', '--name', 'Listed', '--plan', 'agency');
    await admin('add-member', '--team', 'listed', '--email', 'a@listed.test', '--name', 'A', '--role', 'owner');
    await admin('add-member', '--team', 'listed', '--email', 'b@listed.test', '--name', 'B');
    await admin('remove-member', '--team', 'listed', '--email', 'b@listed.test');
    const created = JSON.parse((await admin('--json', 'create-token', '--team', 'listed', '--member', 'a@listed.test', '--name', 'ci', '--scopes', 'projects:read')).stdout);

    const teams = await admin('list-teams');
    expect(teams.code, teams.stderr).toBe(0);
    expect(teams.stdout).toMatch(/^listed {2}"Listed" {2}plan agency, 1 member, id [0-9a-f-]{36}\n$/);
    expect(JSON.parse((await admin('--json', 'list-teams')).stdout)).toEqual([expect.objectContaining({ slug: 'listed', plan: 'agency', members: 1 })]);

    const members = (await admin('list-members', '--team', 'listed')).stdout.trim().split('\n');
    expect(members).toEqual([expect.stringMatching(/^a@listed\.test {2}"A" {2}owner, id /), expect.stringMatching(/^b@listed\.test {2}"B" {2}member, removed \d{4}-\d{2}-\d{2}, id /)]);

    const tokens = await admin('list-tokens', '--team', 'listed');
    expect(tokens.code, tokens.stderr).toBe(0);
    expect(tokens.stdout).toMatch(new RegExp(`^${created.id} {2}"ci" {2}a@listed\\.test, expires \\d{4}-\\d{2}-\\d{2}, last used never, scopes projects:read\n$`));
    const listed = await admin('--json', 'list-tokens', '--team', 'listed');
    expect(listed.stdout).not.toContain(created.token);
    expect(listed.stdout).not.toMatch(/sa_[A-Za-z0-9_-]{10,}|token_hash/);
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ id: created.id, name: 'ci', member: 'a@listed.test', scopes: ['projects:read'], active: true })]);

    const port = await freePort();
    const server = spawn(process.execPath, [BIN, 'start', '--port', String(port), '--database', db], { cwd: dir, env: { ...process.env, DATABASE_URL: '' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    started.push(server);
    let output = '';
    server.stdout!.on('data', (c: Buffer) => (output += c));
    server.stderr!.on('data', (c: Buffer) => (output += c));
    await waitForListening(server, () => output);
    const me = () => fetch(`http://127.0.0.1:${port}/v1/me`, { headers: { authorization: `Bearer ${created.token}` } });
    expect((await me()).status).toBe(200);

    const revoked = await admin('revoke-token', '--team', 'listed', '--id', created.id);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout.trim()).toBe(`Revoked token "ci" (${created.id}) of team listed: it no longer works`);
    // The serving process drops its cached token at once (docs/deployment.md, across processes).
    await expect.poll(async () => (await me()).status, { timeout: 10_000 }).toBe(401);
    expect((await admin('list-tokens', '--team', 'listed')).stdout.trim()).toBe('No token in team listed');
    const again = await admin('revoke-token', '--team', 'listed', '--id', created.id);
    expect(again.code).toBe(1);
    expect(again.stderr.trim()).toBe(`No token ${created.id} in team listed (admin list-tokens --team listed shows them)`);
  }, CLI_TEST_MS);

  it('start says how to get a token on a database with no team', async () => {
    const db = path.join(dir, 'empty.db');
    const port = await freePort();
    const server = spawn(process.execPath, [BIN, 'start', '--port', String(port), '--database', db], { cwd: dir, env: { ...process.env, DATABASE_URL: '' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    started.push(server);
    let output = '';
    server.stdout!.on('data', (c: Buffer) => (output += c));
    server.stderr!.on('data', (c: Buffer) => (output += c));
    await waitForListening(server, () => output);
    await expect.poll(() => output).toContain('npm run dev');
    expect(output).toContain('No team yet.');
    // Start-up leaves a line in the log too, with where it listens.
    await expect.poll(() => output, { timeout: 5_000 }).toMatch(new RegExp(`"msg":"server started"`));
    const startLine = output.split('\n').find((l) => l.includes('"msg":"server started"'))!;
    expect(JSON.parse(startLine)).toMatchObject({ level: 30, url: `http://127.0.0.1:${port}`, role: 'all', version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    expect(output).toContain(`npx siteaudit-server admin --database "${db}" create-team --slug acme --name Acme --plan agency`);
    expect(output).toContain(`npx siteaudit-server admin --database "${db}" create-token --team acme --member me@acme.test --name cli --scopes all`);

    // Followed as printed (with this test's database), they give a token the server takes.
    const steps = output.split('\n').filter((l) => l.startsWith('  npx siteaudit-server admin'));
    expect(steps).toHaveLength(3);
    let last = '';
    for (const step of steps) {
      const args = step.trim().replace(/^npx siteaudit-server /, '').split(' ').map((a) => a.replace(/^"(.*)"$/, '$1'));
      const res = await cli(args);
      expect(res.code, res.stderr).toBe(0);
      last = res.stdout;
    }
    const token = last.trim().split('\n').at(-1)!;
    expect((await fetch(`http://127.0.0.1:${port}/v1/me`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);

    // With no documentation URL configured, a problem's type opens on this server.
    const problem = (await (await fetch(`http://127.0.0.1:${port}/v1/me`)).json()) as { type: string };
    expect(problem.type).toBe(`http://127.0.0.1:${port}/docs/errors#unauthenticated`);
    const page = await fetch(problem.type);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<tr id="unauthenticated">');
  }, CLI_TEST_MS);

  // Each case fails on its own (the two that name no database get a file of their own): side by side.
  it.concurrent.each([
    ['an unknown database scheme', ['--database', 'mysql://root:hunter2@db.example/site'], /^Unknown database "mysql:\/\/root:\*\*\*@db\.example\/site": the store is PostgreSQL \(postgres:\/\/user@host:5432\/name\) or SQLite/],
    ['an SQLite file in a folder that does not exist', ['--database', '/nonexistent-folder/site.db'], /^Cannot open the SQLite file "\/nonexistent-folder\/site\.db": its folder must exist and be writable/],
    ['an unreachable PostgreSQL', ['--database', 'postgres://postgres@127.0.0.1:1/site'], /^Cannot reach PostgreSQL at 127\.0\.0\.1:1 \(connection refused\): start it, or fix the host and port/],
    ['a public URL that is not one', ['--public-url', 'foo'], /^--public-url \(or SITEAUDIT_PUBLIC_URL\) must be an absolute http\(s\) URL, got "foo": give the URL clients reach the API at/],
    ['a port out of range', ['--port', '70000'], /^Not a port: .*give --port \(or PORT\) a number from 0 to 65535/],
  ])('ends a start-up mistake (%s) with one line, exit code 1 and no stack', async (what, args, message) => {
    const own = path.join(dir, `mistake-${what.replace(/\W+/g, '-')}.db`);
    const res = await cli(['start', ...(args.includes('--database') ? [] : ['--database', own]), ...(args.includes('--port') ? [] : ['--port', String(await freePort())]), ...args]);
    expect(res.code).toBe(1);
    expect(res.stderr.trim().split('\n'), res.stderr).toHaveLength(1);
    expect(res.stderr.trim()).toMatch(message);
    expect(res.stderr).not.toContain('hunter2');
    expect(res.stdout).not.toMatch(/listening/i);
  }, CLI_TEST_MS);

  it('says a missing PostgreSQL database in one line, and shows the stack at --log-level debug', async () => {
    const name = `siteaudit_missing_${process.pid}`;
    const url = `postgres://postgres@127.0.0.1:5432/${name}`;
    const res = await cli(['start', '--port', String(await freePort()), '--database', url]);
    if (/Cannot reach PostgreSQL/.test(res.stderr)) return; // no PostgreSQL on this machine: the case above covers it
    expect(res.code).toBe(1);
    expect(res.stderr.trim()).toBe(`PostgreSQL database "${name}" does not exist on 127.0.0.1:5432: create it (createdb ${name}), or give another with --database or DATABASE_URL`);
    const debug = await cli(['start', '--port', String(await freePort()), '--database', url, '--log-level', 'debug']);
    expect(debug.code).toBe(1);
    expect(debug.stderr.split('\n')[0]).toContain(`PostgreSQL database "${name}" does not exist`);
    expect(debug.stderr).toMatch(/\n\s+at /);
  }, CLI_TEST_MS);
});
