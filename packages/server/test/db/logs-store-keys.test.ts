/**
 * URL statistics keyed by path (migration 027, docs/decisions/logs.md "The store"): a request
 * target longer than a key may hold is stored as its start and a digest of the whole, one
 * statistic however many parts of the parse meet it; and the migration keeps every statistic
 * stored before it, both ways.
 */
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_STORED_PATH, storedPath } from '@siteaudit/schema/rules';
import { migrationSource } from '../../src/store/migrations/index.js';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { accessLine, USER_AGENTS } from '../../../../tests/support/access-log.js';

const { googlebot } = USER_AGENTS;

interface UrlStat {
  path: string;
  family: string;
  hits: number;
  status_codes: Record<string, number>;
}

let h: Harness;
let project: string;

async function upload(lines: string[]): Promise<{ status: string; error: string | null }> {
  const res = await fetch(`${h.url}/v1/projects/${project}/log-imports`, {
    method: 'POST',
    headers: { authorization: `Bearer ${h.token}`, 'content-type': 'application/gzip' },
    body: gzipSync(lines.join('\n')),
  });
  expect(res.status).toBe(202);
  const id = (await res.json()).data.id as string;
  await h.server.jobs.idle();
  return (await (await h.call('GET', `/v1/projects/${project}/log-imports/${id}`)).json()).data;
}

async function urls(): Promise<UrlStat[]> {
  const items: UrlStat[] = [];
  let cursor: string | null = null;
  do {
    const body = (await (await h.call('GET', `/v1/projects/${project}/logs/urls?limit=50${cursor ? `&cursor=${cursor}` : ''}`)).json()) as { data: UrlStat[]; meta: { next_cursor: string | null } };
    items.push(...body.data);
    cursor = body.meta.next_cursor;
  } while (cursor);
  return items;
}

beforeAll(async () => {
  // Parts of two statistics: a path met on several lines is spilled, and stored, several times.
  h = await startHarness({ logs: { spillAt: 2 } });
  project = (await (await h.call('POST', '/v1/projects', { body: { url: 'https://shop.example/', name: 'Shop' } })).json()).data.id;
}, 60_000);
afterAll(async () => {
  await h?.close();
});

describe('long request targets', () => {
  it('keeps a path past the key limit as its start and a digest: one statistic across parts, two paths apart, whole characters', async () => {
    // Incompressible (random), so PostgreSQL cannot squeeze an over-long key into its B-tree.
    const start = `/search?q=${randomBytes(2400).toString('base64url')}`;
    const longA = `${start}&page=1`;
    const longB = `${start}&page=2`;
    // Non-ASCII characters are kept percent-encoded (nine bytes each here).
    const wide = `/${'日本語'.repeat(300)}`;
    const lines: string[] = [];
    for (let i = 0; i < 6; i++) {
      lines.push(accessLine('66.249.66.1', 3, longA, 200, googlebot));
      lines.push(accessLine('66.249.66.1', 3 + (i % 2), `/short/${i}`, 200, googlebot));
      lines.push(accessLine('66.249.66.1', 4, i % 2 ? longB : wide, i % 3 ? 200 : 404, googlebot));
    }
    const done = await upload(lines);
    expect(done.status, done.error ?? '').toBe('completed');

    const stats = (await urls()).filter((u) => u.family === 'googlebot');
    const long = stats.filter((u) => u.path.startsWith('/search?q='));
    // longA and longB share their first 3,200 characters: still two statistics.
    expect(long).toHaveLength(2);
    for (const u of long) {
      expect(Buffer.byteLength(u.path)).toBeLessThanOrEqual(MAX_STORED_PATH);
      expect(u.path).toMatch(/…#[0-9a-f]{16}$/);
      // Cut on a whole character and a whole escape: no `%` or `%X` left dangling before `…#`.
      expect(u.path).not.toMatch(/%[0-9A-F]?…#/);
      expect(start.startsWith(u.path.slice(0, u.path.indexOf('…#')))).toBe(true);
    }
    expect(long.map((u) => u.hits).sort()).toEqual([3, 6]);
    const w = stats.find((u) => u.path.startsWith('/%E6%97%A5'));
    expect(w, JSON.stringify(stats.map((u) => u.path.slice(0, 20)))).toBeDefined();
    expect(Buffer.byteLength(w!.path)).toBeLessThanOrEqual(MAX_STORED_PATH);
    expect(w!.path).toMatch(/(%[0-9A-F]{2})+…#[0-9a-f]{16}$/);
    expect(w!.hits).toBe(3);
    expect(w!.status_codes).toEqual({ '200': 2, '404': 1 });
    // A short path is stored as it came.
    expect((await urls()).filter((u) => u.path.startsWith('/short/')).map((u) => u.path).sort()).toEqual(['/short/0', '/short/1', '/short/2', '/short/3', '/short/4', '/short/5']);
  });
});

describe('storedPath', () => {
  it('cuts a long path between characters, never inside one', () => {
    for (const unit of ['é', '日', '😀', 'a']) {
      for (let pad = 0; pad < 4; pad++) {
        const path = `/${'x'.repeat(pad)}${unit.repeat(3000)}`;
        const stored = storedPath(path);
        expect(Buffer.byteLength(stored)).toBeLessThanOrEqual(MAX_STORED_PATH);
        expect(stored).not.toContain('\uFFFD');
        const head = stored.slice(0, stored.indexOf('…#'));
        expect(path.startsWith(head)).toBe(true);
        expect(Buffer.byteLength(head)).toBeGreaterThan(MAX_STORED_PATH - 24);
      }
    }
    // Never inside a percent-escape, wherever the cut falls.
    for (let pad = 0; pad < 3; pad++) {
      const stored = storedPath(`/${'x'.repeat(pad)}${'%E6%97%A5'.repeat(400)}`);
      expect(stored).toMatch(/^\/x*(%E6%97%A5)*(%E6%97|%E6)?…#[0-9a-f]{16}$/);
    }
    // The same path gives the same string; another (same start) another.
    const long = `/q=${'a'.repeat(3000)}`;
    expect(storedPath(long)).toBe(storedPath(long));
    expect(storedPath(`${long}1`)).not.toBe(storedPath(`${long}2`));
    expect(storedPath('/a'.repeat(999))).toBe('/a'.repeat(999));
  });
});

describe('migration 027', () => {
  it('keeps every statistic down to the hashed key and back up, and imports after it', async () => {
    const before = await urls();
    expect(before.length).toBeGreaterThan(5);
    const options = { migrationSource, tableName: 'siteaudit_migrations' };

    await h.knex.migrate.down({ ...options, name: '027-log-url-stats-by-path' });
    const hashed = (await h.knex('log_url_stats').select('path', 'path_hash')) as { path: string; path_hash: string }[];
    expect(hashed.length).toBeGreaterThan(5);
    for (const row of hashed) expect(row.path_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(await urls()).toEqual(before);

    await h.knex.migrate.latest(options);
    expect(await urls()).toEqual(before);

    // The same lines again: every statistic doubles (two imports), nothing else moves.
    const again = await upload([accessLine('66.249.66.1', 5, '/short/0', 301, googlebot)]);
    expect(again.status).toBe('completed');
    const after = await urls();
    const short0 = after.filter((u) => u.path === '/short/0');
    expect(short0).toHaveLength(1);
    expect(short0[0].hits).toBe(2);
    expect(short0[0].status_codes).toEqual({ '200': 1, '301': 1 });
    expect(after.filter((u) => u.path !== '/short/0')).toEqual(before.filter((u) => u.path !== '/short/0'));
  });
});
