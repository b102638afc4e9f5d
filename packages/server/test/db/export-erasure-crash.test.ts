/**
 * A process that dies in the middle of a deletion leaves no export behind for good
 * (modules/exports/eraser.ts): the deletion records what it still has to remove in its own
 * transaction, and the next process finishes it at start-up. Here the first process's file
 * removal never returns (as if it had been killed there), and a second process on the same
 * database and folder plays the restart.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '@siteaudit/schema';
import { createSiteAuditServer, type SiteAuditServer } from '../../src/index.js';
import { createDirectoryBlobStore } from '../../src/modules/exports/blob-store.js';
import { sharedDatabase } from '../../../../tests/support/harness.js';
import { accessLine, USER_AGENTS } from '../../../../tests/support/access-log.js';
import { manualClock } from '../../../../tests/support/http.js';
import { startSite, type Site } from '../../../../tests/support/site.js';

const clock = manualClock('2026-03-10T10:00:00.000Z');
const LOG = [accessLine('66.249.66.1', 9, '/', 200, USER_AGENTS.googlebot), accessLine('66.249.66.1', 9, '/users/jane@example.com/profile', 200, USER_AGENTS.googlebot)].join('\n');

let db: Awaited<ReturnType<typeof sharedDatabase>>;
let directory: string;
let site: Site;
const servers: SiteAuditServer[] = [];
/** While set, the first process's file removals never return: it is stuck there, as if killed. */
let stuck = false;
const stuckRemovals: string[] = [];

/** A process on the shared database and export folder; the first one owns the team and token. */
async function startProcess(store = createDirectoryBlobStore(directory)): Promise<{ server: SiteAuditServer; url: string }> {
  const server = await createSiteAuditServer({ database: db.knex, logger: false, clock: clock.clock, network: { allowPrivateAddresses: true }, secretKey: 'test-secret-key-0123456789abcdef0123', exports: { directory, store }, logs: { resolver: null } });
  servers.push(server);
  return { server, url: (await server.listen(0)).url };
}

let first: { server: SiteAuditServer; url: string };
let token: string;
const call = async (method: string, route: string, body?: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(`${first.url}${route}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: res.status === 204 ? null : await res.json() };
};

async function crawledProject(name: string): Promise<{ project: string; crawl: string }> {
  const project = (await call('POST', '/v1/projects', { url: `${site.url}/`, name })).body.data.id as string;
  const campaign = (await call('GET', `/v1/projects/${project}/campaigns`)).body.data[0].id as string;
  const crawl = (await call('POST', `/v1/campaigns/${campaign}/crawls`, undefined, { 'idempotency-key': `erasure-${name}` })).body.data.id as string;
  await first.server.jobs.idle();
  return { project, crawl };
}

async function readyExport(crawl: string, format: 'pdf' | 'xlsx'): Promise<string> {
  const id = (await call('POST', `/v1/crawls/${crawl}/exports`, { format })).body.data.id as string;
  await first.server.jobs.idle();
  expect((await call('GET', `/v1/exports/${id}`)).body.data.status).toBe('ready');
  return id;
}

const fileOf = (id: string, format: string) => path.join(directory, `${id}.${format}`);
const erasuresLeft = async () => ((await db.knex('export_erasures').select('id')) as unknown[]).length;

/** Sends a deletion through the first process and waits until it is stuck removing a file. */
async function deletionStuckInFileRemoval(route: string): Promise<void> {
  stuck = true;
  const removals = stuckRemovals.length;
  void call('DELETE', route).catch(() => undefined);
  await expect.poll(() => stuckRemovals.length, { timeout: 10_000 }).toBeGreaterThan(removals);
  stuck = false;
}

beforeAll(async () => {
  db = await sharedDatabase();
  directory = await mkdtemp(path.join(tmpdir(), 'siteaudit-erasure-'));
  site = await startSite();
  const files = createDirectoryBlobStore(directory);
  first = await startProcess({
    ...files,
    delete(key: string) {
      if (!stuck) return files.delete(key);
      stuckRemovals.push(key);
      return new Promise<void>(() => undefined);
    },
    put: (key: string, stream: Readable, contentType: string) => files.put(key, stream, contentType),
  });
  await first.server.admin.createTeam({ slug: 'acme', name: 'Acme', plan: 'agency' });
  await first.server.admin.addMember({ team: 'acme', email: 'owner@acme.test', name: 'Owner', role: 'owner' });
  token = (await first.server.admin.createToken({ team: 'acme', member: 'owner@acme.test', name: 'erasure', scopes: [...SCOPES] })).token;
});

afterAll(async () => {
  // The stuck deletions never end: the processes are dropped without a graceful stop.
  await Promise.all(servers.map((server) => Promise.race([server.close(), new Promise((r) => setTimeout(r, 2_000))])));
  await site?.close();
  await db?.drop();
  await rm(directory, { recursive: true, force: true });
});

describe('a process stopped in the middle of a deletion', () => {
  it("leaves a deleted project's export files to the next process, which removes them at start-up", async () => {
    const gone = await crawledProject('Gone');
    const files = [fileOf(await readyExport(gone.crawl, 'pdf'), 'pdf'), fileOf(await readyExport(gone.crawl, 'xlsx'), 'xlsx')];
    const kept = await crawledProject('Kept');
    const keptFile = fileOf(await readyExport(kept.crawl, 'pdf'), 'pdf');

    await deletionStuckInFileRemoval(`/v1/projects/${gone.project}`);
    // The project is gone, its files not yet: what is left to do is recorded.
    expect((await call('GET', `/v1/projects/${gone.project}`)).status).toBe(404);
    expect(files.filter(existsSync).length).toBeGreaterThan(0);
    expect(await erasuresLeft()).toBe(1);

    await startProcess();
    for (const file of files) expect(existsSync(file), file).toBe(false);
    expect(existsSync(keptFile)).toBe(true);
    expect(await erasuresLeft()).toBe(0);
  });

  it('leaves the reports of a deleted log import to the next process; one made after the deletion stays', async () => {
    const { project, crawl } = await crawledProject('Logs');
    const before = await readyExport(crawl, 'pdf');
    clock.advance(60_000);
    const upload = await fetch(`${first.url}/v1/projects/${project}/log-imports`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' }, body: LOG });
    expect(upload.status).toBe(202);
    const importId = (await upload.json()).data.id as string;
    await first.server.jobs.idle();
    expect((await call('GET', `/v1/projects/${project}/log-imports/${importId}`)).body.data.status).toBe('completed');
    clock.advance(60_000);
    const showing = [await readyExport(crawl, 'pdf'), await readyExport(crawl, 'xlsx')];
    clock.advance(60_000);

    await deletionStuckInFileRemoval(`/v1/projects/${project}/log-imports/${importId}`);
    expect((await call('GET', `/v1/projects/${project}/log-imports/${importId}`)).status).toBe(404);
    expect(existsSync(fileOf(showing[0], 'pdf')) || existsSync(fileOf(showing[1], 'xlsx'))).toBe(true);
    // Made after the deletion, without the import: the restart must not take it.
    clock.advance(60_000);
    const after = await readyExport(crawl, 'pdf');

    const restarted = await startProcess();
    const again = async (route: string) => (await fetch(`${restarted.url}${route}`, { headers: { authorization: `Bearer ${token}` } })).status;
    for (const [id, format] of [[showing[0], 'pdf'], [showing[1], 'xlsx']]) {
      expect(existsSync(fileOf(id, format))).toBe(false);
      expect(await again(`/v1/exports/${id}/download`)).toBe(404);
    }
    for (const id of [before, after]) {
      expect(existsSync(fileOf(id, 'pdf'))).toBe(true);
      expect(await again(`/v1/exports/${id}/download`)).toBe(200);
    }
    expect(await erasuresLeft()).toBe(0);
  });

  it('finishes an erasure recorded before the exports it names were removed, rows and files, with two processes starting at once', async () => {
    const { project, crawl } = await crawledProject('Rows');
    const id = await readyExport(crawl, 'xlsx');
    // As a process killed right after the deletion's commit leaves it: the record, and the
    // export's row and file untouched.
    await db.knex('export_erasures').insert({ id: '00000000-0000-4000-8000-000000000032', blob_keys: null, project_id: project, since: new Date(clock.now().getTime() - 1_000).toISOString(), created_at: clock.now().toISOString() });
    clock.advance(60_000);

    await Promise.all([startProcess(), startProcess()]);
    expect(existsSync(fileOf(id, 'xlsx'))).toBe(false);
    expect((await call('GET', `/v1/exports/${id}`)).status).toBe(404);
    expect(await erasuresLeft()).toBe(0);
  });
});
