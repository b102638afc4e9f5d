/**
 * The upload folder (docs/decisions/logs.md, "The upload", "Retention"): by default the store's
 * own, `./.siteaudit/logs/<store id>`, the same after a restart, so a queued import's file is
 * parsed by the next process and the start-up sweep finds what a dead process left; an import
 * whose file is gone fails saying so. The folder is 0700 and its files 0600: they hold every
 * address and user agent of a log.
 */
import { mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startHarness } from '../../../../tests/support/harness.js';
import { accessLine, USER_AGENTS } from '../../../../tests/support/access-log.js';
import { childDatabase, freePort, startChild, type ChildDatabase, type ChildServer } from './support/child-server.js';

const LOG = `${[
  accessLine('66.249.66.1', 9, '/', 200, USER_AGENTS.googlebot),
  accessLine('66.249.66.1', 9, '/about', 200, USER_AGENTS.googlebot),
  accessLine('192.0.2.44', 9, '/', 200, USER_AGENTS.browser),
].join('\n')}\n`;

const mode = (path: string) => statSync(path).mode & 0o777;

let db: ChildDatabase;
const children: ChildServer[] = [];

beforeAll(async () => {
  db = await childDatabase();
});
afterEach(async () => {
  for (const child of children.splice(0)) await child.kill('SIGKILL');
});
afterAll(async () => {
  await db?.drop();
});

/** The CLI as an operator starts it: no SITEAUDIT_LOG_DIR, so the default folder. */
async function start(extra: string[] = []): Promise<ChildServer> {
  const child = await startChild(db, await freePort(), extra, { SITEAUDIT_LOG_DIR: '' });
  children.push(child);
  return child;
}

const api = (base: string, method: string, path: string, body?: string, type = 'application/json') =>
  fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${db.token}`, 'content-type': type }, body });

async function uploadTo(base: string, name: string): Promise<{ projectId: string; importId: string }> {
  const project = await api(base, 'POST', '/v1/projects', JSON.stringify({ url: 'https://example.com/', name }));
  expect(project.status).toBe(201);
  const projectId = (await project.json()).data.id;
  const upload = await api(base, 'POST', `/v1/projects/${projectId}/log-imports`, LOG, 'text/plain');
  expect(upload.status).toBe(202);
  return { projectId, importId: (await upload.json()).data.id };
}

async function settled(base: string, projectId: string, importId: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 600; i++) {
    const current = (await (await api(base, 'GET', `/v1/projects/${projectId}/log-imports/${importId}`)).json()).data;
    if (current.status === 'completed' || current.status === 'failed') return current;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the import did not settle');
}

/** The store's folder under the child's working directory: one, named by the store's id. */
function storeFolder(): string {
  const logs = join(db.dir, '.siteaudit', 'logs');
  const stores = readdirSync(logs);
  expect(stores).toHaveLength(1);
  return join(logs, stores[0]);
}

describe('the default upload folder, across a crash', () => {
  it('keeps a queued upload (0600, in a 0700 folder) for the next process, which parses it and sweeps what the dead one left', async () => {
    // The API only: the import stays queued with its file, as when a process dies before its parse.
    const first = await start(['--role', 'api']);
    const { projectId, importId } = await uploadTo(first.url, 'survives');
    const folder = storeFolder();
    expect(readdirSync(folder)).toEqual([`${importId}.log`]);
    expect(mode(folder)).toBe(0o700);
    expect(mode(join(folder, `${importId}.log`))).toBe(0o600);
    // An upload cut by the crash, untouched for 11 minutes.
    const stale = join(folder, `${randomUUID()}.part`);
    writeFileSync(stale, LOG);
    const old = (Date.now() - 11 * 60_000) / 1000;
    utimesSync(stale, old, old);
    await first.kill('SIGKILL');

    const next = await start();
    const done = await settled(next.url, projectId, importId);
    expect(done).toMatchObject({ status: 'completed', bot_hits: 2, human_hits: 1, error: null });
    for (let i = 0; i < 100 && readdirSync(folder).length > 0; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(readdirSync(folder)).toEqual([]);
  });

  it('fails an import whose file is gone with the reason, never as corrupt data', async () => {
    const first = await start(['--role', 'api']);
    const { projectId, importId } = await uploadTo(first.url, 'lost');
    await first.kill('SIGKILL');
    rmSync(join(storeFolder(), `${importId}.log`));

    const next = await start();
    const failed = await settled(next.url, projectId, importId);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/^log_import\.file_missing: /);
  });
});

describe('a configured upload folder', () => {
  it('is created 0700, and an upload in it is 0600', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'siteaudit-log-folder-'));
    const directory = join(parent, 'made', 'logs');
    // No jobs: the upload waits in the folder for a parse.
    const h = await startHarness({ jobs: false, logs: { directory, resolver: null } });
    try {
      expect(mode(directory)).toBe(0o700);
      const project = (await (await h.call('POST', '/v1/projects', { body: { url: 'https://example.com/', name: 'modes' } })).json()).data;
      const upload = await fetch(`${h.url}/v1/projects/${project.id}/log-imports`, { method: 'POST', headers: { authorization: `Bearer ${h.token}`, 'content-type': 'text/plain' }, body: LOG });
      expect(upload.status).toBe(202);
      const files = readdirSync(directory);
      expect(files).toHaveLength(1);
      expect(mode(join(directory, files[0]))).toBe(0o600);
    } finally {
      await h.close();
      rmSync(parent, { recursive: true, force: true });
    }
  });
});
