/**
 * A log import spills its aggregate to the store as it parses (docs/decisions/logs.md, "Memory"):
 * the same file imported by a server that spills every few statistics and by one that holds them
 * all reads the same over HTTP, imports, URL statistics, days, insights and findings alike.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DnsResolver } from '../../src/modules/logs/reverse-dns.js';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { startSite, type Site } from '../../../../tests/support/site.js';
import { accessLine, USER_AGENTS } from '../../../../tests/support/access-log.js';

const { googlebot, bingbot, gptbot, browser } = USER_AGENTS;

/** Addresses outside the ranges ending in 3 pass reverse DNS. */
const resolver: DnsResolver = {
  reverse: async (ip) => (ip.endsWith('3') ? [`crawl-${ip.replaceAll('.', '-')}.googlebot.com.`] : Promise.reject(Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' }))),
  lookup: async (host) => [host.slice('crawl-'.length, host.indexOf('.')).replaceAll('-', '.')],
};

/** 1,200 lines: URLs that come back all along the file, with several families, statuses and days. */
const LOG = Array.from({ length: 1200 }, (_, i) => {
  const path = i % 9 === 0 ? `/produits/${i % 60}?couleur=${i % 3}` : `/produits/${(i * 13) % 80}`;
  const day = 1 + (i % 9);
  const status = [200, 200, 301, 404, 200, 500][i % 6];
  const who = i % 5;
  if (who === 0) return accessLine('192.0.2.44', day, path, status, browser);
  if (who === 1) return accessLine('66.249.66.1', day, path, status, googlebot);
  if (who === 2) return accessLine(`203.0.113.${i % 30}`, day, path, status, googlebot);
  if (who === 3) return accessLine('157.55.39.10', day, path, status, bingbot);
  return accessLine('20.171.207.1', day, path, status, gptbot);
}).join('\n');

interface Side {
  h: Harness;
  project: string;
  /** Statements that wrote URL statistics. */
  urlWrites: number;
}

let site: Site;
const sides: Record<'spilling' | 'whole', Side> = {} as never;

async function importInto(spillAt: number | undefined): Promise<Side> {
  const h = await startHarness({ logs: { resolver, spillAt } });
  const project = (await (await h.call('POST', '/v1/projects', { body: { url: `${site.url}/`, name: 'Logged Site' } })).json()).data.id;
  const campaign = (await (await h.call('GET', `/v1/projects/${project}/campaigns`)).json()).data[0];
  await h.call('POST', `/v1/campaigns/${campaign.id}/crawls`, { headers: { 'idempotency-key': 'crawl' } });
  await h.server.jobs.idle();
  const side: Side = { h, project, urlWrites: 0 };
  h.knex.on('query', (query: { sql: string }) => {
    if (/^insert into "?log_url_stats"?/i.test(query.sql)) side.urlWrites++;
  });
  const res = await fetch(`${h.url}/v1/projects/${project}/log-imports`, { method: 'POST', headers: { authorization: `Bearer ${h.token}`, 'content-type': 'application/gzip' }, body: gzipSync(LOG) });
  expect(res.status).toBe(202);
  await h.server.jobs.idle();
  return side;
}

/** Every page of a list, following the cursors. */
async function all(side: Side, path: string): Promise<unknown[]> {
  const items: unknown[] = [];
  let cursor: string | null = null;
  do {
    const body = (await (await side.h.call('GET', `/v1/projects/${side.project}/${path}${path.includes('?') ? '&' : '?'}limit=25${cursor ? `&cursor=${cursor}` : ''}`)).json()) as { data: unknown[]; meta: { next_cursor: string | null } };
    items.push(...body.data);
    cursor = body.meta.next_cursor;
  } while (cursor);
  return items;
}

beforeAll(async () => {
  site = await startSite();
  sides.spilling = await importInto(7);
  sides.whole = await importInto(undefined);
}, 60_000);
afterAll(async () => {
  for (const side of Object.values(sides)) await side?.h.close();
  await site?.close();
});

describe('a log import spilled to the store as it parses', () => {
  it('was written in many parts, the whole one in one statement', () => {
    expect(sides.whole.urlWrites).toBe(1);
    expect(sides.spilling.urlWrites).toBeGreaterThan(20);
  });

  it('reads the same import, URL statistics and days as the import that held everything', async () => {
    const [spilled, whole] = await Promise.all([sides.spilling, sides.whole].map(async (side) => (await (await side.h.call('GET', `/v1/projects/${side.project}/log-imports`)).json()).data[0]));
    const { id: _a, project_id: _b, created_at: _c, finished_at: _d, ...spilledImport } = spilled;
    const { id: _e, project_id: _f, created_at: _g, finished_at: _h, ...wholeImport } = whole;
    expect(spilledImport).toEqual(wholeImport);
    expect(spilledImport).toMatchObject({ status: 'completed', lines: { read: 1200, kept: 1200, refused: 0 }, human_hits: 240, bot_hits: 960 });

    const urls = await all(sides.spilling, 'logs/urls');
    expect(urls).toEqual(await all(sides.whole, 'logs/urls'));
    // One row per URL, family and verification, however many parts it came in.
    const keys = (urls as { path: string; family: string; verification: string }[]).map((u) => `${u.family} ${u.verification} ${u.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    const hits = (urls as { hits: number }[]).reduce((sum, u) => sum + u.hits, 0);
    // The bot hits, less the claims that failed (counted per day only, in the insights).
    const insights = (await (await sides.spilling.h.call('GET', `/v1/projects/${sides.spilling.project}/logs/insights`)).json()).data;
    expect(insights.hits.unverified_claims).toBeGreaterThan(0);
    expect(hits + insights.hits.unverified_claims).toBe(960);
    expect(urls).toContainEqual(expect.objectContaining({ family: 'googlebot', verification: 'verified', status_codes: expect.objectContaining({ '200': expect.any(Number), '301': expect.any(Number) }) }));
    // Claims that failed reverse DNS are counted per day only, never per URL.
    expect(keys.some((k) => k.includes(' unverified '))).toBe(false);
    const days = (await all(sides.spilling, 'logs/days')) as { family: string; verification: string; hits: number }[];
    expect(days.some((d) => d.family === 'googlebot' && d.verification === 'unverified')).toBe(true);

    expect(await all(sides.spilling, 'logs/days')).toEqual(await all(sides.whole, 'logs/days'));
  });

  it('gives the same insights, findings and pillar', async () => {
    for (const path of ['logs/insights', 'logs/findings?kind=not_in_crawl', 'logs/findings?kind=indexable_not_visited', 'scorecard']) {
      const [spilled, whole] = await Promise.all([sides.spilling, sides.whole].map(async (side) => (await (await side.h.call('GET', `/v1/projects/${side.project}/${path}`)).json()).data));
      const strip = (value: unknown) => JSON.parse(JSON.stringify(value).replaceAll(sides.spilling.project, 'P').replaceAll(sides.whole.project, 'P').replace(/"(crawl_id|computed_at|as_of|generated_at)":"[^"]*"/g, '"$1":"-"'));
      expect(strip(spilled), path).toEqual(strip(whole));
    }
  });
});
