/**
 * Crashes and shutdown, with the server in a child process as an operator runs it (docs/
 * reliability.md, "Crashes and shutdown"): a SIGKILL mid-crawl, an admin command during a crawl,
 * a SIGTERM with requests in flight.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { childDatabase, freePort, runCli, startChild, startSlowSite, type ChildDatabase, type ChildServer, type SlowSite } from './support/child-server.js';

const PAGES = 300;
/** Repeat the kill test this many times (docs/reliability.md gives the figures of a long run). */
const KILL_RUNS = Number(process.env.CRASH_RUNS ?? 1);

let db: ChildDatabase;
let site: SlowSite;
const children: ChildServer[] = [];

beforeEach(async () => {
  db = await childDatabase();
  site = await startSlowSite(PAGES, 15);
});

afterEach(async () => {
  for (const child of children.splice(0)) await child.kill('SIGKILL');
  await site.close();
  await db.drop();
});

async function start(extra: string[] = []): Promise<ChildServer> {
  const child = await startChild(db, await freePort(), extra);
  children.push(child);
  return child;
}

function api(server: ChildServer) {
  return async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${db.token}`, 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, headers: res.headers, body: res.status === 204 ? null : await res.json() };
  };
}

/** A project on the site, a webhook for crawl.completed, and a launched crawl. */
async function launch(server: ChildServer): Promise<string> {
  const call = api(server);
  const project = (await call('POST', '/v1/projects', { url: `${site.url}/` })).body.data;
  // Webhooks are https only: the deliveries are counted in the store, one row per event.
  const hook = await call('POST', '/v1/webhooks', { url: 'https://127.0.0.1:9/hook', events: ['crawl.completed', 'crawl.failed', 'crawl.stopped'] });
  expect(hook.status, JSON.stringify(hook.body)).toBe(201);
  const campaign = (await call('GET', `/v1/projects/${project.id}/campaigns`)).body.data[0];
  const launched = await call('POST', `/v1/campaigns/${campaign.id}/crawls`, undefined, { 'idempotency-key': `launch-${project.id}` });
  expect(launched.status).toBe(202);
  return launched.body.data.id;
}

async function settled(server: ChildServer, crawlId: string) {
  const call = api(server);
  for (let i = 0; i < 1200; i++) {
    const crawl = (await call('GET', `/v1/crawls/${crawlId}`)).body.data;
    if (crawl.stage_plan.settled) return crawl;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`crawl ${crawlId} never settled: ${server.output()}`);
}

/** The lifecycle events published for the crawl: one delivery row per event. */
async function lifecycleEvents(): Promise<string[]> {
  const rows = (await db.knex('webhook_deliveries').select('event_type', 'event_id')) as { event_type: string; event_id: string }[];
  return rows.map((d) => d.event_type).sort();
}

async function storedPages(crawlId: string) {
  const rows = (await db.knex('crawl_pages').where({ crawl_id: crawlId, is_internal: true }).select('url')) as { url: string }[];
  return { rows: rows.length, distinct: new Set(rows.map((r) => r.url)).size };
}

describe('crashes and shutdown (server in a child process)', () => {
  it.each(Array.from({ length: KILL_RUNS }, (_, i) => i + 1))(
    'SIGKILL mid-crawl, then a restart: the crawl resumes and completes once, with distinct pages (run %i)',
    async () => {
      const first = await start();
      const crawlId = await launch(first);
      // The kill lands while the crawler waits on page answers.
      const hold = site.holdAfter(60);
      await hold.reached;
      await first.kill('SIGKILL');
      hold.release();
      expect((await db.knex('crawls').where({ id: crawlId }).first('status')).status).toBe('running');

      const second = await start();
      const crawl = await settled(second, crawlId);
      expect(crawl).toMatchObject({ status: 'completed', error: null, pages: { crawled: PAGES } });
      expect(await storedPages(crawlId)).toEqual({ rows: PAGES, distinct: PAGES });
      expect(await lifecycleEvents()).toEqual(['crawl.completed']);
    },
    180_000,
  );

  it('an admin command while a crawl runs changes nothing about it', async () => {
    const server = await start();
    const crawlId = await launch(server);
    const hold = site.holdAfter(60);
    await hold.reached;
    const created = await runCli(db, ['admin', '--database', db.url, 'create-token', '--team', 'acme', '--member', 'owner@acme.test', '--name', 'during-crawl']);
    expect(created.code, created.stderr).toBe(0);
    hold.release();

    const crawl = await settled(server, crawlId);
    expect(crawl).toMatchObject({ status: 'completed', error: null, pages: { crawled: PAGES } });
    expect(await storedPages(crawlId)).toEqual({ rows: PAGES, distinct: PAGES });
    expect(await lifecycleEvents()).toEqual(['crawl.completed']);
  }, 120_000);
});
