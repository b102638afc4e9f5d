/**
 * Full batches of URL statistics (500 rows, store.ts's ROW_BATCH) go to SQLite through a statement
 * prepared once per connection, and a URL met again in a later part is added to its row by that
 * statement: an import with thousands of statistics, spilled in parts of 600 so full batches meet
 * rows written before, reads the same over HTTP as the same file held whole, on both databases.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { accessLine, USER_AGENTS } from '../../../../tests/support/access-log.js';

const { googlebot, bingbot, gptbot, browser } = USER_AGENTS;
const PATHS = 1500;

/** 6,000 lines: 1,500 paths, each met four times along the file, by bots of several families. */
const LOG = Array.from({ length: 4 * PATHS }, (_, i) => {
  const path = `/produits/${(i * 7) % PATHS}`;
  const status = [200, 200, 301, 404, 200, 500][i % 6];
  const who = i % 4;
  const agent = who === 0 ? googlebot : who === 1 ? bingbot : who === 2 ? gptbot : browser;
  // Google and Bing from inside their published ranges (verified: a claim that fails keeps no URL statistic).
  const ip = who === 0 ? `66.249.66.${i % 50}` : who === 1 ? `157.55.39.${i % 50}` : `203.0.113.${i % 50}`;
  return accessLine(ip, 1 + (i % 9), path, status, agent);
}).join('\n');

interface Side {
  h: Harness;
  project: string;
}
const sides: Partial<Record<'spilling' | 'whole', Side>> = {};

async function importInto(spillAt: number | undefined): Promise<Side> {
  const h = await startHarness({ logs: { resolver: null, spillAt } });
  const project = (await (await h.call('POST', '/v1/projects', { body: { url: 'https://boutique.example/', name: 'Batches' } })).json()).data.id;
  const res = await fetch(`${h.url}/v1/projects/${project}/log-imports`, { method: 'POST', headers: { authorization: `Bearer ${h.token}`, 'content-type': 'application/gzip' }, body: gzipSync(LOG) });
  expect(res.status).toBe(202);
  await h.server.jobs.idle();
  return { h, project };
}

interface UrlRow {
  path: string;
  family: string;
  verification: string;
  hits: number;
  status_codes: Record<string, number>;
}

async function all(side: Side, path: string): Promise<UrlRow[]> {
  const items: UrlRow[] = [];
  let cursor: string | null = null;
  do {
    const body = (await (await side.h.call('GET', `/v1/projects/${side.project}/${path}?limit=100${cursor ? `&cursor=${cursor}` : ''}`)).json()) as { data: UrlRow[]; meta: { next_cursor: string | null } };
    items.push(...body.data);
    cursor = body.meta.next_cursor;
  } while (cursor);
  return items;
}

beforeAll(async () => {
  sides.spilling = await importInto(600);
  sides.whole = await importInto(undefined);
}, 120_000);
afterAll(async () => {
  for (const side of Object.values(sides)) await side?.h.close();
});

describe('full batches of URL statistics', () => {
  it('read the same, one row per URL and family, as the file held whole', async () => {
    const imports = await Promise.all([sides.spilling!, sides.whole!].map(async (side) => (await (await side.h.call('GET', `/v1/projects/${side.project}/log-imports`)).json()).data[0]));
    for (const imported of imports) expect(imported).toMatchObject({ status: 'completed', lines: { read: 4 * PATHS, kept: 4 * PATHS, refused: 0 }, human_hits: PATHS, bot_hits: 3 * PATHS });

    const urls = await all(sides.spilling!, 'logs/urls');
    expect(urls).toEqual(await all(sides.whole!, 'logs/urls'));
    const keys = urls.map((u) => `${u.family} ${u.verification} ${u.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(urls.length).toBeGreaterThan(1000);
    expect(urls.reduce((sum, u) => sum + u.hits, 0)).toBe(3 * PATHS);
    for (const u of urls) expect(Object.values(u.status_codes).reduce((a, b) => a + b, 0)).toBe(u.hits);
  });
});
