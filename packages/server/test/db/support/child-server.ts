/**
 * The server as an operator runs it: the CLI from source in a child process (like cli.test.ts),
 * on a database of its own (an SQLite file, or a fresh PostgreSQL database), so a test can kill
 * it, restart it, and run admin commands beside it.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import knexFactory, { type Knex } from 'knex';
import type { AddressInfo } from 'node:net';
import { SCOPES } from '@siteaudit/schema';
import { createSiteAuditServer } from '../../../src/index.js';
import { DATABASE, onPostgres } from '../../../../../tests/support/harness.js';
import { databaseFromTemplate } from '../../../../../tests/support/postgres-template.js';

const ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));
const CLI = path.join(ROOT, 'packages/server/src/cli.ts');
/**
 * The CLI from source in one node process, tsx as its loader. Not the `tsx` command: that runs
 * the CLI in a second process and, when the child has not told it of a relayed SIGTERM within
 * 30 ms (a loaded machine), sends SIGKILL, so a graceful stop would reset every connection.
 */
export const FROM_SOURCE = ['--import', pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href, CLI];
export const SOURCE_ENV = { TSX_TSCONFIG_PATH: path.join(ROOT, 'tsconfig.json') };

export interface ChildDatabase {
  /** What `--database` takes. */
  url: string;
  dir: string;
  /** A knex on it for the test's own checks. */
  knex: Knex;
  /** The acme owner's token, with every scope. */
  token: string;
  drop(): Promise<void>;
}

/** A fresh database with the `acme` team (agency plan) and a token, made without running jobs. */
export async function childDatabase(): Promise<ChildDatabase> {
  const dir = await mkdtemp(path.join(tmpdir(), 'siteaudit-crash-'));
  let url = path.join(dir, 'crash.db');
  let dropDatabase: () => Promise<void> = async () => undefined;
  if (onPostgres) {
    const database = await databaseFromTemplate(DATABASE, 'crash');
    url = database.url;
    dropDatabase = database.drop;
  }
  const setup = await createSiteAuditServer({ database: url, jobs: false });
  await setup.admin.createTeam({ slug: 'acme', name: 'Acme', plan: 'agency' });
  await setup.admin.addMember({ team: 'acme', email: 'owner@acme.test', name: 'Owner', role: 'owner' });
  const { token } = await setup.admin.createToken({ team: 'acme', member: 'owner@acme.test', name: 'crash', scopes: [...SCOPES] });
  await setup.close();
  const knex = onPostgres
    ? knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 2 } })
    : knexFactory({ client: 'sqlite3', connection: { filename: url }, useNullAsDefault: true, pool: { min: 1, max: 1 } });
  return {
    url,
    dir,
    knex,
    token,
    async drop() {
      await knex.destroy();
      await dropDatabase();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export interface ChildServer {
  url: string;
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
  kill(signal: NodeJS.Signals): Promise<number | null>;
}

/** `env`: variables to set (or, empty, to unset) over the test process's own. */
export async function startChild(db: ChildDatabase, port: number, extra: string[] = [], env: Record<string, string> = {}): Promise<ChildServer> {
  const child = spawn(process.execPath, [...FROM_SOURCE, 'start', '--database', db.url, '--port', String(port), '--allow-private-addresses', ...extra], {
    cwd: db.dir,
    env: { ...process.env, ...SOURCE_ENV, DATABASE_URL: '', NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c));
  child.stderr!.on('data', (c: Buffer) => (out += c));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))));
  for (let i = 0; i < 600; i++) {
    if (/listening on/i.test(out)) break;
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  if (!/listening on/i.test(out)) throw new Error(`server did not start: ${out}`);
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    output: () => out,
    exited,
    async kill(signal) {
      // SIGKILL goes to the whole process group: the server's own children (a renderer) too.
      if (child.exitCode === null && child.signalCode === null) {
        if (signal === 'SIGKILL') process.kill(-child.pid!, 'SIGKILL');
        else child.kill(signal);
      }
      return exited;
    },
  };
}

/** Runs a command to its end, keeping what it printed. */
export function runToEnd(command: string, args: string[], options: SpawnOptions): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (c: Buffer) => (stdout += c));
    child.stderr!.on('data', (c: Buffer) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs one CLI command to its end. */
export function runCli(db: ChildDatabase, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runToEnd(process.execPath, [...FROM_SOURCE, ...args], { cwd: db.dir, env: { ...process.env, ...SOURCE_ENV, DATABASE_URL: '' } });
}

export interface SlowSite {
  url: string;
  pages: number;
  /** Page answers served. */
  served(): number;
  /**
   * The most page requests open at once since the last call (then reset): a request counts from
   * its arrival until its connection answers or closes, so a crawler that dies or drops a request
   * stops counting at once.
   */
  takeMaxInFlight(): number;
  /** Holds every answer once `after` pages were served, until released. */
  holdAfter(after: number): { reached: Promise<void>; release(): void };
  close(): Promise<void>;
}

/** A site of `pages` pages (a tree: page i links to 3i+1…3i+3), each answered after `delayMs`. */
export async function startSlowSite(pages: number, delayMs: number): Promise<SlowSite> {
  let served = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  let hold: { after: number; gate: Promise<void>; reached: () => void } | null = null;
  const html = (i: number) => {
    const links = [1, 2, 3].map((k) => 3 * i + k).filter((j) => j < pages).map((j) => `<a href="/p/${j}">Page ${j}</a>`).join(' ');
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Page ${i} of the slow test site</title><meta name="description" content="Page ${i} of a test site crawled while its server is killed and restarted, to check resumption."></head><body><h1>Page ${i}</h1>${links}<p>${`Words of page ${i}. `.repeat(40)}</p></body></html>`;
  };
  const server: Server = createHttpServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
    const match = path === '/' ? ['', '0'] : /^\/p\/(\d+)$/.exec(path);
    const i = match ? Number(match[1]) : -1;
    if (i < 0 || i >= pages || (path !== '/' && i === 0)) return void res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>no</body></html>');
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.once('close', () => inFlight--);
    await new Promise((r) => setTimeout(r, delayMs));
    if (hold && served >= hold.after) {
      hold.reached();
      await hold.gate;
    }
    served++;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html(i));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    pages,
    served: () => served,
    takeMaxInFlight() {
      const max = maxInFlight;
      maxInFlight = inFlight;
      return max;
    },
    holdAfter(after) {
      let release!: () => void;
      let reached!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const reachedP = new Promise<void>((r) => (reached = r));
      hold = { after, gate, reached };
      return {
        reached: reachedP,
        release: () => {
          hold = null;
          release();
        },
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
