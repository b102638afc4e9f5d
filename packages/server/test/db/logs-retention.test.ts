/**
 * No raw log outlives its use (docs/decisions/logs.md, "Retention"): an upload's file goes when
 * its parse ends, when its project is deleted (a parse under way stops first and closes it), and
 * by the sweep at start-up for files no import holds. On SQLite, a deleted project's log rows are
 * not left readable in the database file or its WAL.
 */
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DnsResolver } from '../../src/modules/logs/reverse-dns.js';
import { createSiteAuditServer } from '../../src/index.js';
import { onPostgres, startHarness, type Harness } from '../../../../tests/support/harness.js';
import { caller } from '../../../../tests/support/http.js';
import { accessLine, USER_AGENTS } from '../../../../tests/support/access-log.js';

const dir = mkdtempSync(join(tmpdir(), 'siteaudit-log-retention-'));
let h: Harness;

/** Reverse DNS that never answers: a parse that meets enough unanswered claims waits mid-file, its file open. */
const asked: string[] = [];
const resolver: DnsResolver = {
  reverse(ip) {
    asked.push(ip);
    return new Promise(() => undefined);
  },
  async lookup() {
    return [];
  },
};

/** Files of this process's open descriptors under `folder` (Linux; elsewhere nothing is known). */
function openFilesUnder(folder: string): string[] {
  if (!existsSync('/proc/self/fd')) return [];
  const open: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (target.startsWith(folder)) open.push(target);
    } catch {
      // closed between the listing and the read
    }
  }
  return open;
}

async function until(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Ten Googlebot claims from an address outside Google's ranges (looked up), then 20,000 human lines: 2.6 MB. */
function longLog(marker: string): string {
  const lines: string[] = [];
  for (let i = 0; i < 10; i++) lines.push(accessLine('198.51.100.9', 9, `/${marker}/claimed-${i}`, 200, USER_AGENTS.googlebot));
  for (let i = 0; i < 20_000; i++) lines.push(accessLine('192.0.2.44', 9, `/${marker}/page-${i}`, 200, USER_AGENTS.browser));
  return `${lines.join('\n')}\n`;
}

const uploadTo = (url: string, token: string, projectId: string, body: string) =>
  fetch(`${url}/v1/projects/${projectId}/log-imports`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' }, body });

async function newProject(call: Harness['call'], name: string): Promise<string> {
  const res = await call('POST', '/v1/projects', { body: { url: 'https://example.com/', name } });
  expect(res.status).toBe(201);
  return (await res.json()).data.id;
}

beforeAll(async () => {
  h = await startHarness({ logs: { directory: dir, resolver, spillAt: 5 } });
});
afterAll(async () => {
  await h?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('log upload retention', () => {
  it('removes the upload once its parse ends', async () => {
    const projectId = await newProject(h.call, 'parsed');
    const res = await uploadTo(h.url, h.token, projectId, `${accessLine('192.0.2.1', 9, '/', 200, USER_AGENTS.browser)}\n`);
    expect(res.status).toBe(202);
    await h.server.jobs.idle();
    expect((await (await h.call('GET', `/v1/projects/${projectId}/log-imports/${(await res.json()).data.id}`)).json()).data.status).toBe('completed');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('deleting a project mid-parse stops the parse at once: no byte of the upload remains, no row either', async () => {
    const projectId = await newProject(h.call, 'mid-parse');
    const res = await uploadTo(h.url, h.token, projectId, longLog('mid-parse'));
    expect(res.status).toBe(202);
    const importId = (await res.json()).data.id as string;
    // The parse waits for reverse-DNS answers that never come, part-way through the file.
    await until(() => asked.includes('198.51.100.9'), 'the reverse-DNS question');
    await until(async () => (await h.knex('log_imports').where({ id: importId }).first())?.status === 'parsing', 'the parse');
    expect(readdirSync(dir)).toEqual([`${importId}.log`]);
    if (existsSync('/proc/self/fd')) expect(openFilesUnder(dir)).toEqual([join(dir, `${importId}.log`)]);

    expect((await h.call('DELETE', `/v1/projects/${projectId}`)).status).toBe(204);
    // At once: the answer came after the parse closed its file and the file was removed.
    expect(readdirSync(dir)).toEqual([]);
    expect(openFilesUnder(dir)).toEqual([]);

    await h.server.jobs.idle();
    expect(readdirSync(dir)).toEqual([]);
    for (const table of ['log_imports', 'log_url_stats', 'log_day_stats']) expect(await h.knex(table).where({ project_id: projectId })).toEqual([]);
  });

  it('the sweep at start-up removes files no import holds, once untouched for ten minutes', async () => {
    const old = (Date.now() - 11 * 60_000) / 1000;
    const orphanLog = join(dir, `${randomUUID()}.log`);
    const orphanPart = join(dir, `${randomUUID()}.part`);
    const receiving = join(dir, `${randomUUID()}.part`);
    const foreign = join(dir, 'README.txt');
    for (const file of [orphanLog, orphanPart, receiving, foreign]) writeFileSync(file, '192.0.2.1 - - [09/Mar/2026:08:15:00 +0000] "GET / HTTP/1.1" 200 1\n');
    for (const file of [orphanLog, orphanPart, foreign]) utimesSync(file, old, old);

    const restarted = await startHarness({ logs: { directory: dir, resolver } });
    try {
      await until(() => !existsSync(orphanLog) && !existsSync(orphanPart), 'the sweep');
      // Being received (written within the grace) by another process sharing the folder, or not ours: kept.
      expect(readdirSync(dir).sort()).toEqual([foreign, receiving].map((f) => f.slice(dir.length + 1)).sort());
    } finally {
      await restarted.close();
      rmSync(receiving);
      rmSync(foreign);
    }
  });
});

describe.skipIf(onPostgres)('SQLite keeps no readable copy of deleted log rows', () => {
  it('a deleted project’s paths are in neither the database file nor its WAL', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'siteaudit-secure-delete-'));
    const file = join(folder, 'siteaudit.db');
    const server = await createSiteAuditServer({ database: file, logger: false, secretKey: 'test-secret-key-0123456789abcdef0123', logs: { directory: join(folder, 'logs'), resolver: null } });
    try {
      const { url } = await server.listen(0);
      await server.admin.createTeam({ slug: 'acme', name: 'Acme', plan: 'agency' });
      await server.admin.addMember({ team: 'acme', email: 'o@acme.test', name: 'O', role: 'owner' });
      const { token } = await server.admin.createToken({ team: 'acme', member: 'o@acme.test', name: 't', scopes: ['projects:read', 'projects:write'] });
      const call = caller(url, token);
      const projectId = await newProject(call, 'secret');
      const marker = `private-path-${randomUUID()}`;
      const lines = Array.from({ length: 300 }, (_, i) => accessLine('66.249.66.1', 9, `/${marker}/${i}`, 200, USER_AGENTS.googlebot));
      expect((await uploadTo(url, token, projectId, lines.join('\n'))).status).toBe(202);
      await server.jobs.idle();
      const stored = () => ['', '-wal'].map((suffix) => (existsSync(file + suffix) ? readFileSync(file + suffix).includes(marker) : false));
      // The paths are there to be found before the deletion (else this test proves nothing).
      expect(stored().some(Boolean)).toBe(true);

      expect((await call('DELETE', `/v1/projects/${projectId}`)).status).toBe(204);
      expect(stored()).toEqual([false, false]);
    } finally {
      await server.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
