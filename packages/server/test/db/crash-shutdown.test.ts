/**
 * Crashes and shutdown, with the server in a child process as an operator runs it (docs/
 * reliability.md, "Crashes and shutdown"): a SIGKILL mid-crawl, an admin command during a crawl,
 * a SIGTERM with requests in flight.
 */
import { request } from 'node:http';
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

async function until(done: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (await done()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`waited 30 s for ${what}`);
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

  it('SIGTERM with requests in flight: every request is answered, and no idempotency key stays claimed', async () => {
    const metricsPort = await freePort();
    const server = await start(['--shutdown-grace', '30', '--metrics', '--metrics-port', String(metricsPort)]);
    const inFlight = async () => Number(/^siteaudit_http_requests_in_flight (\d+)$/m.exec(await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text())?.[1]);
    const { port } = new URL(server.url);
    const keys = Array.from({ length: 20 }, (_, i) => `term-${i}`);
    const bodies = keys.map((_, i) => JSON.stringify({ url: `${site.url}/p/${i + 1}` }));
    const send = (base: string, i: number) =>
      fetch(`${base}/v1/projects`, { method: 'POST', headers: { authorization: `Bearer ${db.token}`, 'content-type': 'application/json', 'idempotency-key': keys[i] }, body: bodies[i] });

    // Half the requests are still sending their body when SIGTERM comes: they are in flight.
    const posted = keys.map((key, i) => {
      const slow = i % 2 === 1;
      let finish = () => undefined as void;
      const answer = new Promise<{ status: number; connection?: string; contentType?: string; body: string }>((resolve, reject) => {
        const req = request(
          { host: '127.0.0.1', port, method: 'POST', path: '/v1/projects', headers: { authorization: `Bearer ${db.token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(bodies[i]), 'idempotency-key': key } },
          (res) => {
            let body = '';
            res.on('data', (c: Buffer) => (body += c));
            res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, contentType: res.headers['content-type'], body }));
          },
        );
        req.on('error', reject);
        if (slow) {
          req.write(bodies[i].slice(0, 10));
          finish = () => void req.end(bodies[i].slice(10));
        } else req.end(bodies[i]);
      });
      return { slow, answer, finish: () => finish() };
    });
    // Every request has reached the server: the quick ones are answered, the slow ones in flight
    // (read from the server, not waited for: a loaded machine may take seconds).
    await Promise.all(posted.filter((p) => !p.slow).map((p) => p.answer));
    await until(async () => (await inFlight()) === keys.length / 2, 'the slow requests in flight');
    const exited = server.kill('SIGTERM');
    await until(async () => /server stopping/.test(server.output()), 'shutdown begun');
    for (const p of posted) p.finish();
    const answers = await Promise.all(posted.map((p) => p.answer));
    expect(await exited).toBe(0);

    for (const [i, answer] of answers.entries()) {
      if (answer.status === 503) {
        expect(answer.contentType).toMatch(/^application\/problem\+json/);
        expect(JSON.parse(answer.body).code).toBe('service_unavailable');
      } else expect(answer.status, answer.body).toBe(201);
      // Those still in flight when shutdown began were answered, and told the connection closes.
      if (posted[i].slow) expect(answer).toMatchObject({ status: 201, connection: 'close' });
    }

    // After a restart, each key's retry replays the answer or runs: never 409 key_in_use.
    const again = await start();
    for (const [i, answer] of answers.entries()) {
      const retry = await send(again.url, i);
      expect(retry.status, await retry.clone().text()).toBe(201);
      if (answer.status === 201) expect(retry.headers.get('idempotent-replayed')).toBe('true');
    }
    // One project per key, whatever was answered before the restart.
    expect(await db.knex('projects').count({ n: '*' }).then(([{ n }]) => Number(n))).toBe(keys.length);
  }, 120_000);
});
