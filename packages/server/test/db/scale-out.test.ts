/**
 * Scale-out on PostgreSQL (docs/reliability.md, "Crawls across workers"): three server processes
 * on one fresh database, jobs on pg-boss. Every crawl, export, scheduled crawl and position check
 * is done once; the worker running a crawl is killed (SIGKILL), and later stopped (SIGTERM), and
 * each time another process completes the same crawl, with distinct pages, never more requests
 * open on the site than the per-host limit, and one `crawl.completed` arriving at a counting
 * receiver. The time to resume is printed, not asserted. Two processes run the API and jobs (`--role all`), the third only jobs (`--role worker`).
 * A member removed by the admin CLI is refused by both API processes at their next request.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '@siteaudit/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRAWL_DEFAULTS } from '../../src/crawler/crawl-config.js';
import { onPostgres } from '../../../../tests/support/harness.js';
import { oneShotFetch } from '../../../../tests/support/one-shot-fetch.js';
import { childDatabase, freePort, runCli, startChild, startSlowSite, type ChildDatabase, type ChildServer, type SlowSite } from './support/child-server.js';

const PAGES = 300;

/** A webhook receiver that counts what arrives, by event id, after checking the signature. */
interface Receiver {
  url: string;
  secret: string | null;
  arrivals: Map<string, { type: string; subject: string | undefined; count: number }>;
  refused: number;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = { url: '', secret: null, arrivals: new Map(), refused: 0, close: async () => undefined };
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    try {
      const event = await verifyWebhook<{ id: string; type: string; data: { crawl?: { id: string }; export?: { id: string } } }>(Buffer.concat(chunks).toString('utf8'), req.headers as Record<string, string>, receiver.secret ?? '');
      const seen = receiver.arrivals.get(event.id);
      if (seen) seen.count++;
      else receiver.arrivals.set(event.id, { type: event.type, subject: event.data.crawl?.id ?? event.data.export?.id, count: 1 });
      res.writeHead(204).end();
    } catch {
      receiver.refused++;
      res.writeHead(400).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}

describe.skipIf(!onPostgres)('three processes on one PostgreSQL database', () => {
  let db: ChildDatabase;
  let site: SlowSite;
  let receiver: Receiver;
  const children: ChildServer[] = [];
  const engine = process.env.SITEAUDIT_JOB_ENGINE;
  // Requests to the children go a connection each: the test waits seconds between some of them
  // on a loaded machine, past a child's 5 s keep-alive (tests/support/one-shot-fetch.ts).
  const client = oneShotFetch();
  const fetch = client.fetch;

  beforeAll(async () => {
    process.env.SITEAUDIT_JOB_ENGINE = 'pg-boss';
    db = await childDatabase();
    site = await startSlowSite(PAGES, 15);
    receiver = await startReceiver();
    for (let i = 0; i < 2; i++) children.push(await startChild(db, await freePort()));
    children.push(await startChild(db, await freePort(), ['--role', 'worker']));
  }, 120_000);

  afterAll(async () => {
    for (const child of children) await child.kill('SIGKILL');
    await site?.close();
    await receiver?.close();
    await db?.drop();
    await client.close();
    if (engine === undefined) delete process.env.SITEAUDIT_JOB_ENGINE;
    else process.env.SITEAUDIT_JOB_ENGINE = engine;
  });

  const alive = () => children.filter((c) => c.child.exitCode === null && c.child.signalCode === null);
  /** The live processes that serve /v1 (the worker answers only health checks). */
  const apiNodes = () => alive().filter((c) => c !== children[2]);
  const call = async (server: ChildServer, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${db.token}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: res.status === 204 ? null : await res.json() };
  };
  async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 150_000): Promise<T> {
    const end = Date.now() + timeoutMs;
    while (Date.now() < end) {
      const value = await probe();
      if (value) return value;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`${what}: never happened\n${children.map((c) => c.output().slice(-3000)).join('\n----\n')}`);
  }

  /** The process whose log says it started or resumed `crawlId`, other than `except`. */
  const runnerOf = (crawlId: string, except?: ChildServer) =>
    until('a process runs the crawl', async () =>
      alive().find((c) => c !== except && logLines(c).some((l) => l.crawl === crawlId && (l.msg === 'crawl started' || l.msg === 'crawl resumed'))),
    );
  const logLines = (c: ChildServer) =>
    c
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { msg?: string; crawl?: string; time?: number });
  /** Starts a process in place of `gone`, with its role. */
  async function replace(gone: ChildServer): Promise<void> {
    const index = children.indexOf(gone);
    children[index] = await startChild(db, await freePort(), index === 2 ? ['--role', 'worker'] : []);
  }
  /** Settles a crawl and returns it; the time from `stoppedAt` to its resumption elsewhere is printed. */
  async function settledElsewhere(crawlId: string, stopped: ChildServer, stoppedAt: number, how: string) {
    const crawl = await until('the crawl settles elsewhere', async () => {
      const data = (await call(apiNodes()[0], 'GET', `/v1/crawls/${crawlId}`)).body.data;
      return data.stage_plan.settled ? data : null;
    });
    const resumed = alive()
      .filter((c) => c !== stopped)
      .flatMap(logLines)
      .find((l) => l.msg === 'crawl resumed' && l.crawl === crawlId);
    console.log(`scale-out: crawl resumed ${resumed?.time ? `${((resumed.time - stoppedAt) / 1000).toFixed(1)} s` : '(time not logged)'} after ${how} of its worker; settled ${((Date.now() - stoppedAt) / 1000).toFixed(1)} s after`);
    expect(resumed, 'another process resumed the crawl').toBeDefined();
    expect(crawl).toMatchObject({ status: 'completed', error: null, pages: { crawled: PAGES } });
    const pages = (await db.knex('crawl_pages').where({ crawl_id: crawlId, is_internal: true }).pluck('url')) as string[];
    expect({ rows: pages.length, distinct: new Set(pages).size }).toEqual({ rows: PAGES, distinct: PAGES });
    // Politeness across processes: never more requests open on the site than one crawl may have.
    const open = site.takeMaxInFlight();
    console.log(`scale-out: at most ${open} requests open at once on the site (limit ${CRAWL_DEFAULTS.perHostConcurrency})`);
    expect(open).toBeGreaterThan(0);
    expect(open).toBeLessThanOrEqual(CRAWL_DEFAULTS.perHostConcurrency);
    return crawl;
  }

  it('completes crawls whose worker was killed or stopped in another process, once, and does every other job once', async () => {
    const [a, b] = children;
    const project = (await call(a, 'POST', '/v1/projects', { url: `${site.url}/` })).body.data;
    const hook = await call(b, 'POST', '/v1/webhooks', { url: receiver.url, events: ['crawl.completed', 'crawl.failed', 'crawl.stopped', 'export.ready'] });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    receiver.secret = hook.body.data.secret;
    const campaign = (await call(a, 'GET', `/v1/projects/${project.id}/campaigns`)).body.data[0];

    // A crawl whose process is killed while it waits on page answers.
    site.takeMaxInFlight();
    const hold = site.holdAfter(60);
    const launched = await call(a, 'POST', `/v1/campaigns/${campaign.id}/crawls`);
    expect(launched.status).toBe(202);
    const killedId = launched.body.data.id as string;
    await hold.reached;
    const killed = await runnerOf(killedId);
    const killedAt = Date.now();
    await killed.kill('SIGKILL');
    hold.release();
    await settledElsewhere(killedId, killed, killedAt, 'SIGKILL');
    await replace(killed);

    // A crawl whose process is stopped (SIGTERM) with requests open: handed over at once, and the
    // next process's requests never overlap the stopped one's beyond the per-host limit.
    const held = site.holdAfter(site.served() + 60);
    const relaunched = await call(apiNodes()[0], 'POST', `/v1/campaigns/${campaign.id}/crawls`);
    expect(relaunched.status).toBe(202);
    const stoppedId = relaunched.body.data.id as string;
    await held.reached;
    const stopped = await runnerOf(stoppedId);
    const stoppedAt = Date.now();
    await stopped.kill('SIGTERM');
    held.release();
    await settledElsewhere(stoppedId, stopped, stoppedAt, 'SIGTERM');
    await replace(stopped);

    // An export, asked through one process, generated once by whichever runs it.
    const survivor = apiNodes()[0];
    const requested = await call(survivor, 'POST', `/v1/crawls/${stoppedId}/exports`, { format: 'pdf' });
    expect(requested.status).toBe(202);
    await until('the export is ready', async () => (await call(survivor, 'GET', `/v1/exports/${requested.body.data.id}`)).body.data.status === 'ready');

    // Every event reached the receiver once, signed: the arrivals, not only the delivery rows.
    await until('every delivery is settled', async () => (await db.knex('webhook_deliveries').whereNot({ status: 'succeeded' }).first()) === undefined);
    const sent = (await db.knex('webhook_deliveries').select('event_id', 'event_type')) as { event_id: string; event_type: string }[];
    expect(receiver.refused).toBe(0);
    expect([...receiver.arrivals.values()].filter((a) => a.count !== 1)).toEqual([]);
    expect(new Set(receiver.arrivals.keys())).toEqual(new Set(sent.map((d) => d.event_id)));
    const arrived = [...receiver.arrivals.values()];
    const completed = arrived.filter((a) => a.type === 'crawl.completed').map((a) => a.subject);
    expect(completed.sort()).toEqual([killedId, stoppedId].sort());
    expect(arrived.filter((a) => a.type === 'export.ready').map((a) => a.subject)).toEqual([requested.body.data.id]);
    expect(arrived.filter((a) => a.type !== 'crawl.completed' && a.type !== 'export.ready')).toEqual([]);

    // A position check: measured (here: skipped, no SERP provider) once.
    expect((await call(survivor, 'POST', `/v1/projects/${project.id}/tracked-keywords`, { keywords: ['trail'] })).status).toBe(200);
    expect((await call(survivor, 'POST', `/v1/projects/${project.id}/tracked-keywords/check`, { keyword: 'trail' })).status).toBe(202);
    const checks = await until('the check is done', async () => {
      const rows = await db.knex('keyword_checks').where({ project_id: project.id });
      return rows.length > 0 && rows.every((r: { status: string }) => r.status !== 'queued') ? rows : null;
    });
    expect(checks).toHaveLength(1);

    // A scheduled crawl: the slot is made due; one process fires it, once.
    expect((await call(survivor, 'PATCH', `/v1/campaigns/${campaign.id}`, { schedule: { frequency: 'daily', time: '03:00' } })).status).toBe(200);
    await db.knex('campaigns').where({ id: campaign.id }).update({ next_run_at: new Date(Date.now() - 1000).toISOString() });
    const scheduled = await until('the schedule fires', async () => {
      const rows = await db.knex('crawls').where({ campaign_id: campaign.id, trigger: 'schedule' });
      return rows.length > 0 ? rows : null;
    }, 180_000);
    await new Promise((r) => setTimeout(r, 3000)); // another process's late firing would show by now
    expect(await db.knex('crawls').where({ campaign_id: campaign.id, trigger: 'schedule' })).toHaveLength(scheduled.length);
    expect(scheduled).toHaveLength(1);
  }, 480_000);

  it('refuses a removed member on every API process at its next request', async () => {
    const cli = async (args: string[]) => {
      const res = await runCli(db, ['admin', '--database', db.url, '--json', ...args]);
      expect(res.code, res.stderr).toBe(0);
      return JSON.parse(res.stdout);
    };
    await cli(['add-member', '--team', 'acme', '--email', 'leaving@acme.test', '--name', 'Leaving']);
    const { token } = await cli(['create-token', '--team', 'acme', '--member', 'leaving@acme.test', '--name', 'leaving', '--scopes', 'all']);
    const me = (server: ChildServer) => fetch(`${server.url}/v1/me`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);
    // Before the rate-limit test, which spends the team's minute. Each API process has the token
    // in its cache before the removal.
    for (const server of apiNodes()) expect(await me(server)).toBe(200);
    await cli(['remove-member', '--team', 'acme', '--email', 'leaving@acme.test']);
    for (const server of apiNodes()) expect(await me(server)).toBe(401);
  }, 180_000);

  it('keeps idempotency keys and plan limits exact across processes', async () => {
    const servers = apiNodes();
    const post = (server: ChildServer, token: string, body: unknown, key: string) =>
      fetch(`${server.url}/v1/projects`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify(body),
      }).then(async (res) => ({ status: res.status, replayed: res.headers.get('idempotent-replayed'), body: await res.json() }));

    // One key sent to both processes at once: one project, every other answer its replay or "in use".
    const key = randomUUID();
    const url = `${site.url}/same-key/`;
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => post(servers[i % servers.length], db.token, { url }, key)));
    const created = answers.filter((a) => a.status === 201);
    expect(created.length).toBeGreaterThan(0);
    expect(new Set(created.map((a) => a.body.data.id)).size).toBe(1);
    expect(created.filter((a) => a.replayed !== 'true')).toHaveLength(1);
    expect(answers.filter((a) => a.status !== 201).map((a) => a.body.code)).toEqual(answers.filter((a) => a.status !== 201).map(() => 'idempotency.key_in_use'));
    expect(await db.knex('projects').where({ url })).toHaveLength(1);

    // A new team on the pro plan (ten projects; the API writes from pro on) asking for fourteen through both processes at once.
    const cli = async (args: string[]) => {
      const res = await runCli(db, ['admin', '--database', db.url, '--json', ...args]);
      expect(res.code, res.stderr).toBe(0);
      return JSON.parse(res.stdout);
    };
    await cli(['create-team', '--slug', 'tiny', '--name', 'Tiny', '--plan', 'pro']);
    await cli(['add-member', '--team', 'tiny', '--email', 'owner@tiny.test', '--name', 'Owner', '--role', 'owner']);
    const { token } = await cli(['create-token', '--team', 'tiny', '--member', 'owner@tiny.test', '--name', 'tiny', '--scopes', 'all']);
    const tries = await Promise.all(Array.from({ length: 14 }, (_, i) => post(servers[i % servers.length], token, { url: `${site.url}/tiny-${i}/` }, randomUUID())));
    expect(tries.filter((t) => t.status === 201)).toHaveLength(10);
    expect(tries.filter((t) => t.status !== 201).map((t) => t.body.code)).toEqual(Array(4).fill('plan_limit.projects'));
  }, 180_000);

  it('holds a team’s rate limit exactly across processes', async () => {
    const servers = apiNodes();
    const first = await fetch(`${servers[0].url}/v1/projects`, { headers: { authorization: `Bearer ${db.token}` } });
    const remaining = Number(first.headers.get('x-ratelimit-remaining'));
    const reset = Number(first.headers.get('x-ratelimit-reset'));
    // Within one minute window: wait for the next one if this one is nearly over.
    if (reset < 30) await new Promise((r) => setTimeout(r, (reset + 1) * 1000));
    const start = await fetch(`${servers[0].url}/v1/projects`, { headers: { authorization: `Bearer ${db.token}` } });
    const left = Number(start.headers.get('x-ratelimit-remaining'));
    expect(left).toBeGreaterThan(0);
    expect(remaining).toBeGreaterThan(0);
    const statuses = await Promise.all(
      Array.from({ length: left + 20 }, (_, i) => fetch(`${servers[i % servers.length].url}/v1/projects`, { headers: { authorization: `Bearer ${db.token}` } }).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(left);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
  }, 120_000);

});
