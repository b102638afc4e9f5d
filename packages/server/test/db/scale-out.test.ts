/**
 * Scale-out on PostgreSQL (docs/reliability.md, "Crawls across workers"): three server processes
 * on one fresh database, jobs on pg-boss. Every crawl, export, scheduled crawl and position check
 * is done once; the worker running a crawl is killed (SIGKILL) and another process completes the
 * same crawl, with distinct pages and one `crawl.completed`. The time to resume is printed, not
 * asserted. Two processes run the API and jobs (`--role all`), the third only jobs (`--role worker`).
 * A member removed by the admin CLI is refused by both API processes at their next request.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPostgres } from './harness.js';
import { childDatabase, freePort, runCli, startChild, startSlowSite, type ChildDatabase, type ChildServer, type SlowSite } from './support/child-server.js';

const PAGES = 300;

describe.skipIf(!onPostgres)('three processes on one PostgreSQL database', () => {
  let db: ChildDatabase;
  let site: SlowSite;
  const children: ChildServer[] = [];
  const engine = process.env.SITEAUDIT_JOB_ENGINE;

  beforeAll(async () => {
    process.env.SITEAUDIT_JOB_ENGINE = 'pg-boss';
    db = await childDatabase();
    site = await startSlowSite(PAGES, 15);
    for (let i = 0; i < 2; i++) children.push(await startChild(db, await freePort()));
    children.push(await startChild(db, await freePort(), ['--role', 'worker']));
  }, 120_000);

  afterAll(async () => {
    for (const child of children) await child.kill('SIGKILL');
    await site?.close();
    await db?.drop();
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
  const events = async (type: string) => (await db.knex('webhook_deliveries').where({ event_type: type }).select('event_id')).map((r: { event_id: string }) => r.event_id);

  it('completes a crawl whose worker was killed in another process, once, and does every other job once', async () => {
    const [a, b] = children;
    const project = (await call(a, 'POST', '/v1/projects', { url: `${site.url}/` })).body.data;
    const hook = await call(b, 'POST', '/v1/webhooks', { url: 'https://127.0.0.1:9/hook', events: ['crawl.completed', 'crawl.failed', 'crawl.stopped', 'export.ready'] });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    const campaign = (await call(a, 'GET', `/v1/projects/${project.id}/campaigns`)).body.data[0];

    // The crawl: the process that runs it is killed while it waits on page answers.
    const hold = site.holdAfter(60);
    const launched = await call(a, 'POST', `/v1/campaigns/${campaign.id}/crawls`);
    expect(launched.status).toBe(202);
    const crawlId = launched.body.data.id as string;
    await hold.reached;
    const runner = await until('a process runs the crawl', async () => children.find((c) => c.output().includes(crawlId) && /crawl started/.test(c.output())));
    const killedAt = Date.now();
    await runner.kill('SIGKILL');
    hold.release();

    const survivor = apiNodes()[0];
    const crawl = await until('the crawl settles elsewhere', async () => {
      const data = (await call(survivor, 'GET', `/v1/crawls/${crawlId}`)).body.data;
      return data.stage_plan.settled ? data : null;
    });
    const resumedBy = alive().find((c) => c.output().includes('crawl resumed'));
    const resumedLine = resumedBy?.output().split('\n').find((l) => l.includes('crawl resumed') && l.includes(crawlId));
    const resumedAt = resumedLine ? Number(JSON.parse(resumedLine).time) : NaN;
    console.log(`scale-out: crawl resumed ${Number.isNaN(resumedAt) ? '(time not logged)' : `${((resumedAt - killedAt) / 1000).toFixed(1)} s`} after SIGKILL of its worker; settled ${((Date.now() - killedAt) / 1000).toFixed(1)} s after`);
    expect(crawl).toMatchObject({ status: 'completed', error: null, pages: { crawled: PAGES } });
    const pages = (await db.knex('crawl_pages').where({ crawl_id: crawlId, is_internal: true }).pluck('url')) as string[];
    expect({ rows: pages.length, distinct: new Set(pages).size }).toEqual({ rows: PAGES, distinct: PAGES });
    expect(await events('crawl.completed')).toHaveLength(1);

    // An export, asked through one process, generated once by whichever runs it.
    const requested = await call(survivor, 'POST', `/v1/crawls/${crawlId}/exports`, { format: 'pdf' });
    expect(requested.status).toBe(202);
    await until('the export is ready', async () => (await call(survivor, 'GET', `/v1/exports/${requested.body.data.id}`)).body.data.status === 'ready');
    expect(await events('export.ready')).toHaveLength(1);

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
  }, 420_000);

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
  }, 60_000);

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
