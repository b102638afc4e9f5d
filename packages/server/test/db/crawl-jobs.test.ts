/**
 * The crawl job's durability and the scheduler, driven by the clock option: queued work resumes
 * after a restart, and due campaigns launch on their own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSiteAuditServer } from '../../src/index.js';
import { sharedDatabase, startHarness, type Harness } from '../../../../tests/support/harness.js';
import { startSite, type Site } from '../../../../tests/support/site.js';
import { CAMPAIGN_SCHEDULE } from '../../src/modules/crawls/jobs.js';
import { reschedule, withJobs } from './support/jobs.js';

let site: Site;
beforeAll(async () => {
  site = await startSite();
});
afterAll(() => site.close());

describe('scheduler', () => {
  let h: Harness;
  let now = new Date('2026-05-04T02:00:00.000Z'); // a Monday
  beforeAll(async () => {
    h = await startHarness({ clock: () => now });
  });
  afterAll(() => h.close());

  it('launches a due campaign with trigger schedule and advances next_run_at; manual and paused never run', async () => {
    const project = (await (await h.call('POST', '/v1/projects', { body: { url: `${site.url}/` } })).json()).data;
    const create = (name: string, schedule: Record<string, unknown>) =>
      h.call('POST', `/v1/projects/${project.id}/campaigns`, { body: { name, start_url: `${site.url}/`, max_depth: 2, max_urls: 20, schedule } }).then((r) => r.json());
    const daily = (await create('daily', { frequency: 'daily', time: '03:00' })).data;
    const paused = (await create('paused', { frequency: 'daily', time: '03:00', paused: true })).data;
    expect(daily.schedule.next_run_at).toBe('2026-05-04T03:00:00.000Z');
    expect(paused.schedule.next_run_at).toBeNull();

    now = new Date('2026-05-04T03:00:30.000Z');
    // The scheduler ticks every minute of the server clock: one tick is due now.
    await reschedule(h.knex, CAMPAIGN_SCHEDULE, now);
    await h.server.jobs.idle();

    const crawls = (await (await h.call('GET', `/v1/projects/${project.id}/crawls`)).json()).data;
    expect(crawls).toHaveLength(1);
    expect(crawls[0]).toMatchObject({ campaign_id: daily.id, trigger: 'schedule' });
    const after = (await (await h.call('GET', `/v1/campaigns/${daily.id}`)).json()).data;
    expect(after.schedule.next_run_at).toBe('2026-05-05T03:00:00.000Z');
  });
});

describe('scheduler across processes', () => {
  it('keeps one scheduler job however many servers start on the database, and fires a due schedule once', async () => {
    const { knex, drop } = await sharedDatabase();
    let now = new Date('2026-05-04T02:00:00.000Z');
    const options = { database: knex, clock: () => now, network: { allowPrivateAddresses: true }, secretKey: 'test-secret-key-0123456789abcdef0123' };
    const servers = [await createSiteAuditServer(options), await createSiteAuditServer(options)];
    try {
      const first = servers[0];
      await first.admin.createTeam({ slug: 'acme', name: 'Acme', plan: 'agency' });
      await first.admin.addMember({ team: 'acme', email: 'o@acme.test', name: 'O', role: 'owner' });
      const { token } = await first.admin.createToken({ team: 'acme', member: 'o@acme.test', name: 't', scopes: ['projects:read', 'projects:write', 'crawls:read'] });
      const { url } = await first.listen(0);
      const call = (method: string, path: string, body?: unknown) =>
        fetch(`${url}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }).then((r) => r.json());
      const project = (await call('POST', '/v1/projects', { url: `${site.url}/` })).data;
      await call('POST', `/v1/projects/${project.id}/campaigns`, { name: 'daily', start_url: `${site.url}/`, max_depth: 1, max_urls: 5, schedule: { frequency: 'daily', time: '03:00' } });

      // A third server starting (and ensuring its scheduler) while the others run adds no chain.
      servers.push(await createSiteAuditServer(options));
      const chains = await withJobs(knex, () => now, (jobs) => jobs.counts());
      expect(chains.filter((c) => c.kind === CAMPAIGN_SCHEDULE.name && c.state !== 'failed').reduce((n, c) => n + c.count, 0)).toBe(1);

      now = new Date('2026-05-04T03:00:30.000Z');
      await reschedule(knex, CAMPAIGN_SCHEDULE, now);
      await Promise.all(servers.map((s) => s.jobs.idle()));
      now = new Date('2026-05-04T03:01:40.000Z'); // the next tick: the schedule is not due again
      await Promise.all(servers.map((s) => s.jobs.idle()));

      const crawls = (await call('GET', `/v1/projects/${project.id}/crawls`)).data as { trigger: string }[];
      expect(crawls.filter((c) => c.trigger === 'schedule')).toHaveLength(1);
    } finally {
      for (const s of servers) await s.close();
      await drop();
    }
  });
});

describe('restart', () => {
  it('resumes a crawl that was running when the server stopped, and settles it', async () => {
    // Two successive servers on one database (a knex instance the servers do not own).
    const { knex, drop } = await sharedDatabase();
    const options = { database: knex, network: { allowPrivateAddresses: true }, secretKey: 'test-secret-key-0123456789abcdef0123' };
    const first = await createSiteAuditServer(options);
    try {
      await first.admin.createTeam({ slug: 'acme', name: 'Acme', plan: 'agency' });
      await first.admin.addMember({ team: 'acme', email: 'o@acme.test', name: 'O', role: 'owner' });
      const { token } = await first.admin.createToken({ team: 'acme', member: 'o@acme.test', name: 't', scopes: ['projects:read', 'projects:write', 'crawls:read', 'crawls:write'] });
      const { url } = await first.listen(0);
      const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
        fetch(`${url}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
      const project = (await (await call('POST', '/v1/projects', { url: `${site.url}/` })).json()).data;
      const campaign = (await (await call('GET', `/v1/projects/${project.id}/campaigns`)).json()).data[0];
      const release = site.hold();
      const crawlId = (await (await call('POST', `/v1/campaigns/${campaign.id}/crawls`, undefined, { 'idempotency-key': 'restart' })).json()).data.id;
      for (let i = 0; i < 200; i++) {
        const c = (await knex('crawls').where({ id: crawlId }).first('status')) as { status: string };
        if (c.status === 'running') break;
        await new Promise((r) => setTimeout(r, 20));
      }
      const stopping = first.close();
      release();
      await stopping;
      const interrupted = await knex('crawls').where({ id: crawlId }).first('status', 'active', 'settled');
      expect(interrupted.settled === true || interrupted.settled === 1).toBe(false);

      const second = await createSiteAuditServer(options);
      try {
        await second.jobs.idle();
        const row = await knex('crawls').where({ id: crawlId }).first('status', 'settled', 'active', 'pages_crawled');
        expect(row.status).toBe('completed');
        expect(row.settled === true || row.settled === 1).toBe(true);
        expect(row.active === false || row.active === 0).toBe(true);
        expect(row.pages_crawled).toBeGreaterThan(0);
      } finally {
        await second.close();
      }
    } finally {
      await drop();
    }
  });
});
