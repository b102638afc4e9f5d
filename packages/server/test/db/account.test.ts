/**
 * Account reads (spec: Account; Current token; Usage; Running operation): /v1/me describes the
 * token, its holder, team and plan with the API access the plan opens; /v1/usage gives both rate
 * windows and the quotas (null = unlimited, 0 = not in the plan); /v1/operations lists what runs.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { DAY_MS, expectProblem, manualClock } from '../../../../tests/support/http.js';

const START = '2025-03-12T10:00:15.000Z';
const time = manualClock(START);
let h: Harness;

beforeAll(async () => {
  h = await startHarness({ clock: time.clock });
});
afterAll(() => h.close());

describe('GET /v1/me', () => {
  it('describes the token, its holder, the team and the plan', async () => {
    await h.server.admin.createTeam({ slug: 'umbrella', name: 'Umbrella Corp', plan: 'pro' });
    await h.server.admin.addMember({ team: 'umbrella', email: 'Alice@Umbrella.test', name: 'Alice Martin', role: 'admin' });
    const created = await h.server.admin.createToken({ team: 'umbrella', member: 'alice@umbrella.test', name: 'deploy bot', scopes: ['projects:read', 'crawls:write'], days: 30 });

    const res = await h.call('GET', '/v1/me', { token: created.token });
    expect(res.status).toBe(200);
    expect((await res.json()).data).toEqual({
      token: {
        id: created.id,
        name: 'deploy bot',
        scopes: ['projects:read', 'crawls:write'],
        expires_at: new Date(Date.parse(START) + 30 * DAY_MS).toISOString(),
        last_used_at: START,
        created_at: START,
      },
      user: { name: 'Alice Martin', email: 'alice@umbrella.test' },
      team: { slug: 'umbrella', name: 'Umbrella Corp' },
      plan: { key: 'pro', label: 'Pro' },
      api_access: ['read', 'write'],
    });
  });

  it('gives read access only on starter, read and write from pro', async () => {
    const access = async (plan: string) => {
      const token = await h.tokenFor({ team: `team-${plan}`, plan });
      const me = (await (await h.call('GET', '/v1/me', { token })).json()).data;
      expect(me.plan.key).toBe(plan);
      return me.api_access;
    };
    expect(await access('starter')).toEqual(['read']);
    expect(await access('pro')).toEqual(['read', 'write']);
    expect(await access('agency')).toEqual(['read', 'write']);
  });

  it('follows a plan change at once', async () => {
    const token = await h.tokenFor({ team: 'changing', plan: 'pro' });
    await h.server.admin.setPlan({ team: 'changing', plan: 'starter' });
    const me = (await (await h.call('GET', '/v1/me', { token })).json()).data;
    expect(me.plan).toEqual({ key: 'starter', label: 'Starter' });
    expect(me.api_access).toEqual(['read']);
  });
});

describe('GET /v1/usage', () => {
  it('reports the minute and day windows in cost units, counting this call', async () => {
    const token = await h.tokenFor({ team: 'usage-pro', plan: 'pro' });
    await h.call('GET', '/v1/projects', { token });
    const usage = (await (await h.call('GET', '/v1/usage', { token })).json()).data;
    expect(usage.rate_limits).toEqual([
      { window: 'minute', window_seconds: 60, unit: 'cost', limit: 120, used: 2, remaining: 118, resets_in_seconds: 45 },
      { window: 'day', window_seconds: 86400, unit: 'cost', limit: 20000, used: 2, remaining: 19998, resets_in_seconds: 14 * 3600 - 15 },
    ]);
  });

  it('reports quotas: used, limit and remaining, null meaning unlimited and 0 not in the plan', async () => {
    const agency = await h.tokenFor({ team: 'usage-agency', plan: 'agency' });
    for (let i = 0; i < 2; i++) await h.call('POST', '/v1/projects', { token: agency, body: { url: `https://q${i}.example/` } });
    const agencyUsage = (await (await h.call('GET', '/v1/usage', { token: agency })).json()).data;
    expect(agencyUsage.quotas.find((q: { entitlement: string }) => q.entitlement === 'projects.max')).toEqual({ entitlement: 'projects.max', used: 2, limit: null, remaining: null });

    const starter = await h.tokenFor({ team: 'usage-starter', plan: 'starter' });
    const starterUsage = (await (await h.call('GET', '/v1/usage', { token: starter })).json()).data;
    expect(starterUsage.quotas.find((q: { entitlement: string }) => q.entitlement === 'projects.max')).toEqual({ entitlement: 'projects.max', used: 0, limit: 3, remaining: 3 });
    const webhooks = starterUsage.quotas.find((q: { entitlement: string }) => q.entitlement === 'api.webhooks.max');
    expect(webhooks).toEqual({ entitlement: 'api.webhooks.max', used: 0, limit: 0, remaining: 0 });
  });

  it('reports an unlimited window with limit and remaining null', async () => {
    const open = await startHarness({ clock: time.clock, plans: { agency: { rateLimits: { minute: null } } } });
    try {
      const usage = (await (await open.call('GET', '/v1/usage')).json()).data;
      const minute = usage.rate_limits.find((w: { window: string }) => w.window === 'minute');
      expect(minute).toMatchObject({ window: 'minute', limit: null, remaining: null, used: 1 });
      const projects = usage.quotas.find((q: { entitlement: string }) => q.entitlement === 'projects.max');
      expect(projects.limit).toBeNull();
    } finally {
      await open.close();
    }
  });

  it('is per team', async () => {
    const a = await h.tokenFor({ team: 'usage-a', plan: 'pro' });
    const b = await h.tokenFor({ team: 'usage-b', plan: 'pro' });
    for (let i = 0; i < 4; i++) await h.call('GET', '/v1/me', { token: a });
    const usage = (await (await h.call('GET', '/v1/usage', { token: b })).json()).data;
    expect(usage.rate_limits[0].used).toBe(1);
  });
});

describe('GET /v1/operations', () => {
  it('is empty without running crawls', async () => {
    const token = await h.tokenFor({ team: 'idle' });
    await h.call('POST', '/v1/projects', { token, body: { url: 'https://idle.example/' } });
    const res = await h.call('GET', '/v1/operations', { token });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: [], meta: { total: 0, shown: 0 } });
  });

  it('lists running crawls of the team only, with total and shown', async () => {
    const token = await h.tokenFor({ team: 'busy' });
    const team = await h.knex('teams').where({ slug: 'busy' }).first('id');
    const campaigns: { id: string; project_id: string }[] = [];
    for (let i = 0; i < 3; i++) {
      const project = (await (await h.call('POST', '/v1/projects', { token, body: { url: `https://busy${i}.example/` } })).json()).data;
      campaigns.push((await (await h.call('GET', `/v1/projects/${project.id}/campaigns`, { token })).json()).data[0]);
    }
    const crawl = (campaign: { id: string; project_id: string }, active: boolean, crawled: number) => ({
      id: randomUUID(),
      team_id: team.id,
      project_id: campaign.project_id,
      campaign_id: campaign.id,
      status: active ? 'running' : 'completed',
      stage: active ? 'fetching' : 'done',
      active,
      stage_plan: '{}',
      pages_crawled: crawled,
      pages_budget: 200,
      trigger: 'manual',
      config: '{}',
      config_hash: 'x',
      started_at: START,
      created_at: START,
    });
    await h.knex('crawls').insert([crawl(campaigns[0], true, 50), crawl(campaigns[1], true, 0), crawl(campaigns[2], false, 200)]);

    const body = await (await h.call('GET', '/v1/operations', { token })).json();
    expect(body.meta).toEqual({ total: 2, shown: 2 });
    expect(body.data).toHaveLength(2);
    const first = body.data.find((op: { project_id: string }) => op.project_id === campaigns[0].project_id);
    expect(first).toMatchObject({ kind: 'crawl', started_at: START, crawl: { stage: 'fetching', progress: 25, pages_crawled: 50, page_budget: 200 } });

    // Another team sees none of them.
    const other = await (await h.call('GET', '/v1/operations')).json();
    expect(other.meta.total).toBe(0);
  });

  it('needs projects:read', async () => {
    const token = await h.tokenFor({ scopes: ['crawls:read'] });
    const body = await expectProblem(await h.call('GET', '/v1/operations', { token }), 403, 'token.missing_scope');
    expect(body.required_scopes).toEqual(['projects:read']);
  });
});
