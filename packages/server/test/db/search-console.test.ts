/**
 * Search Console over HTTP: unconfigured, linked by the operator, pending until the first sync
 * through the Google adapter (against its msw stand-in), then ready with performance totals, the
 * daily series and indexation totals; refusals recorded as `error`; the plan entitlement.
 */
import { randomUUID } from 'node:crypto';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AdminError } from '../../src/index.js';
import { googleStandIn, serviceAccountKey } from '../../../../tests/support/provider-stand-ins.js';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';

const google = googleStandIn();
const msw = setupServer(...google.handlers);
const key = serviceAccountKey();
google.grant(key, ['sc-domain:shop.test', 'https://www.shop.test/']);

let h: Harness;
let now = new Date('2025-03-10T09:00:00Z');

beforeAll(async () => {
  msw.listen({ onUnhandledRequest: 'bypass' });
  h = await startHarness({
    clock: () => now,
    plans: { starter: { limits: { search_console: 0 } } },
  });
});
afterAll(async () => {
  await h.close();
  msw.close();
});
beforeEach(() => {
  now = new Date('2025-03-10T09:00:00Z');
});

/** 40 days of data ending 2025-03-09: day i has i clicks, 100 impressions, position 10 − i/10. */
function seedAnalytics(property: string) {
  const days = new Map<string, { clicks: number; impressions: number; position: number }>();
  for (let i = 1; i <= 40; i++) {
    const date = new Date(Date.UTC(2025, 2, 9) - (40 - i) * 86_400_000).toISOString().slice(0, 10);
    days.set(date, { clicks: i, impressions: 100, position: 10 - i / 10 });
  }
  google.analytics.set(property, days);
}
seedAnalytics('sc-domain:shop.test');

async function newProject(token?: string, url = 'https://www.shop.test/'): Promise<string> {
  const res = await h.call('POST', '/v1/projects', { token, body: { url } });
  return (await res.json()).data.id;
}
const read = (project: string, query = '', token?: string) => h.call('GET', `/v1/projects/${project}/search-console${query}`, { token });

describe('search console read', () => {
  it('is unconfigured without a linked property, over 28 days ending yesterday', async () => {
    const project = await newProject();
    const res = await read(project);
    expect(res.status).toBe(200);
    expect((await res.json()).data).toEqual({
      project_id: project,
      status: 'unconfigured',
      property: null,
      synced_at: null,
      sync: { available: true, reason: null },
      performance: { period: { preset: '28d', from: '2025-02-10', to: '2025-03-09' }, totals: null, daily: [] },
      indexation: null,
    });
    expect((await read(project, '?period=1y')).status).toBe(422);
  });

  it('needs the search_console entitlement', async () => {
    // Starter reads through the API only: its project is created as an operator would.
    const token = await h.tokenFor({ team: 'sc-starter', plan: 'starter' });
    const team = await h.knex('teams').where({ slug: 'sc-starter' }).first('id');
    const id = randomUUID();
    await h.knex('projects').insert({ id, team_id: team.id, name: 's', slug: 's', url: 'https://s.test/', domain: 's.test', locked: false, created_at: now.toISOString() });
    const refused = await read(id, '', token);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'plan_limit.search_console', upgrade_to: 'pro' });
  });

  it('answers 404 for another team’s project', async () => {
    const other = await h.tokenFor({ team: 'sc-other' });
    const project = await newProject(other);
    expect((await read(project)).status).toBe(404);
  });
});

describe('linked property', () => {
  it('is pending until synchronised, then ready with totals, the daily series and indexation', async () => {
    google.index.set('https://www.shop.test/', { verdict: 'PASS', coverageState: 'Submitted and indexed' });
    const project = await newProject();
    const release = google.holdNextQuery();
    const linked = await h.server.admin.linkSearchConsole({ projectId: project, property: 'sc-domain:shop.test', credentials: JSON.stringify(key) });
    expect(linked).toEqual({ project_id: project, property: 'sc-domain:shop.test', status: 'pending' });

    const pending = (await (await read(project)).json()).data;
    expect(pending).toMatchObject({ status: 'pending', property: 'sc-domain:shop.test', synced_at: null, indexation: null });
    expect(pending.performance.totals).toBeNull();

    release();
    await h.server.jobs.idle();
    const data = (await (await read(project)).json()).data;
    expect(data.status).toBe('ready');
    expect(data.synced_at).toBe('2025-03-10T09:00:00.000Z');
    expect(data.performance.period).toEqual({ preset: '28d', from: '2025-02-10', to: '2025-03-09' });
    // The 28 days of the period are days 13..40 of the seed.
    expect(data.performance.daily).toHaveLength(28);
    expect(data.performance.daily[0]).toEqual({ date: '2025-02-10', clicks: 13, impressions: 100, ctr: 0.13, position: 8.7 });
    expect(data.performance.daily.at(-1)).toEqual({ date: '2025-03-09', clicks: 40, impressions: 100, ctr: 0.4, position: 6 });
    const clicks = (13 + 40) * 14;
    expect(data.performance.totals).toEqual({ clicks, impressions: 2800, ctr: Math.round((clicks / 2800) * 10_000) / 10_000, position: 7.35 });
    expect(data.indexation).toEqual({ inspected: 1, indexed: 1, not_indexed: 0, as_of: '2025-03-10T09:00:00.000Z' });

    // The sync asked Google for the last 365 days, by date, for the linked property.
    const query = google.calls.filter((c) => c.endpoint === 'searchAnalytics').at(-1)!;
    expect(query.site).toBe('sc-domain:shop.test');
    expect(query.body).toMatchObject({ startDate: '2024-03-10', endDate: '2025-03-09', dimensions: ['date'] });

    const week = (await (await read(project, '?period=7d')).json()).data;
    expect(week.performance.daily.map((d: any) => d.date)).toEqual(['2025-03-03', '2025-03-04', '2025-03-05', '2025-03-06', '2025-03-07', '2025-03-08', '2025-03-09']);
    expect(week.performance.totals.clicks).toBe(34 + 35 + 36 + 37 + 38 + 39 + 40);

    // Credentials are encrypted at rest.
    const stored = await h.knex('search_console_links').where({ project_id: project }).first('credentials_enc');
    expect(stored.credentials_enc).not.toContain('PRIVATE KEY');
    expect(stored.credentials_enc).not.toContain(key.client_email);
  });

  it('synchronises again every day', async () => {
    const project = await newProject();
    google.analytics.set('https://www.shop.test/', new Map([['2025-03-09', { clicks: 5, impressions: 50, position: 3 }]]));
    await h.server.admin.linkSearchConsole({ projectId: project, property: 'https://www.shop.test/', credentials: key });
    await h.server.jobs.idle();
    expect((await (await read(project)).json()).data.performance.totals).toMatchObject({ clicks: 5, impressions: 50 });

    google.analytics.get('https://www.shop.test/')!.set('2025-03-10', { clicks: 7, impressions: 70, position: 2 });
    now = new Date('2025-03-11T00:10:00Z');
    await h.server.jobs.idle();
    const data = (await (await read(project)).json()).data;
    expect(data.synced_at).toBe('2025-03-11T00:10:00.000Z');
    expect(data.performance.period.to).toBe('2025-03-10');
    expect(data.performance.totals).toMatchObject({ clicks: 12, impressions: 120 });
  });

  it('inspects the home page and the shallowest pages of the latest crawl', async () => {
    const project = await newProject();
    const row = await h.knex('projects').where({ id: project }).first();
    const campaign = await h.knex('campaigns').where({ project_id: project }).first('id');
    const crawlId = randomUUID();
    await h.knex('crawls').insert({
      id: crawlId,
      team_id: row.team_id,
      project_id: project,
      campaign_id: campaign.id,
      status: 'completed',
      stage: 'done',
      active: false,
      stage_plan: '{}',
      pages_budget: 10,
      trigger: 'manual',
      config: '{}',
      config_hash: 'x',
      created_at: now.toISOString(),
    });
    const page = (seq: number, url: string, extra: Record<string, unknown> = {}) => ({
      crawl_id: crawlId,
      seq,
      url,
      url_hash: `${seq}`,
      status_code: 200,
      content_type: 'text/html; charset=utf-8',
      is_internal: true,
      depth: 1,
      ...extra,
    });
    await h.knex('crawl_pages').insert([
      page(1, 'https://www.shop.test/', { depth: 0 }),
      page(2, 'https://www.shop.test/a'),
      page(3, 'https://www.shop.test/missing', { status_code: 404 }),
      page(4, 'https://cdn.other.test/x', { is_internal: false }),
      page(5, 'https://www.shop.test/file.pdf', { content_type: 'application/pdf' }),
      page(6, 'https://www.shop.test/b', { depth: 2 }),
    ]);
    await h.knex('projects').where({ id: project }).update({ latest_crawl_id: crawlId, latest_crawl_finished_at: now.toISOString() });
    google.index.set('https://www.shop.test/a', { verdict: 'PASS', coverageState: 'Indexed, not submitted in sitemap' });
    google.index.set('https://www.shop.test/', { verdict: 'PASS', coverageState: 'Submitted and indexed' });

    google.calls.length = 0;
    await h.server.admin.linkSearchConsole({ projectId: project, property: 'sc-domain:shop.test', credentials: key });
    await h.server.jobs.idle();
    expect(google.calls.filter((c) => c.endpoint === 'inspect').map((c) => c.body.inspectionUrl)).toEqual([
      'https://www.shop.test/',
      'https://www.shop.test/a',
      'https://www.shop.test/b',
    ]);
    // /b is unknown to Google: inspected, not indexed.
    expect((await (await read(project)).json()).data.indexation).toMatchObject({ inspected: 3, indexed: 2, not_indexed: 1 });
  });

  it('records Google’s refusal as error, without data', async () => {
    const project = await newProject();
    await h.server.admin.linkSearchConsole({ projectId: project, property: 'sc-domain:not-mine.test', credentials: key });
    await h.server.jobs.idle();
    const data = (await (await read(project)).json()).data;
    expect(data).toMatchObject({ status: 'error', property: 'sc-domain:not-mine.test', synced_at: null, indexation: null });
    expect(data.performance.totals).toBeNull();
    const link = await h.knex('search_console_links').where({ project_id: project }).first('last_error');
    expect(link.last_error).toContain('User does not have sufficient permission');
  });

  it('says synchronisation is available on a server with the Search Console provider', async () => {
    const project = await newProject();
    expect((await (await read(project)).json()).data.sync).toEqual({ available: true, reason: null });
  });

  it('the operator call validates its input', async () => {
    const project = await newProject();
    const link = (input: Partial<Parameters<Harness['server']['admin']['linkSearchConsole']>[0]>) =>
      h.server.admin.linkSearchConsole({ projectId: project, property: 'sc-domain:shop.test', credentials: key, ...input });
    await expect(link({ property: 'shop.test' })).rejects.toThrow(AdminError);
    await expect(link({ property: 'https://www.shop.test' })).rejects.toThrow(/trailing|slash/);
    await expect(link({ credentials: { client_email: 'x@y' } })).rejects.toThrow(AdminError);
    await expect(link({ projectId: randomUUID() })).rejects.toThrow(/No project/);
  });
});

// `providers.searchConsole: null`: the operator turned synchronisation off. A linked property is
// `pending` as the spec says (linked, not synchronised), and `sync` says no synchronisation will
// come, and why, rather than letting `pending` promise one (docs/decisions/search-console.md).
describe('a server whose Search Console provider is off', () => {
  let off: Harness;
  beforeAll(async () => {
    off = await startHarness({ clock: () => now, providers: { searchConsole: null } });
  });
  afterAll(async () => {
    await off?.close();
  });

  it('reads a linked property pending, with synchronisation unavailable for want of a provider, before and after its sync would have run', async () => {
    const project = (await (await off.call('POST', '/v1/projects', { body: { url: 'https://www.shop.test/' } })).json()).data.id;
    const readOff = async () => (await (await off.call('GET', `/v1/projects/${project}/search-console`)).json()).data;
    expect(await readOff()).toMatchObject({ status: 'unconfigured', sync: { available: false, reason: 'no_provider' } });

    await off.server.admin.linkSearchConsole({ projectId: project, property: 'sc-domain:shop.test', credentials: key });
    await off.server.jobs.idle();
    expect(await readOff()).toMatchObject({ status: 'pending', property: 'sc-domain:shop.test', synced_at: null, indexation: null, sync: { available: false, reason: 'no_provider' } });
    // The scorecard does not promise a sync either.
    const pillars = (await (await off.call('GET', `/v1/projects/${project}/scorecard`)).json()).data.pillars;
    expect(pillars.find((p: { key: string }) => p.key === 'acquisition')).toMatchObject({ score: null, blocked_reason: 'search_console_sync_unavailable' });
    // The next day's run changes nothing either.
    now = new Date('2025-03-11T00:00:01Z');
    await off.server.jobs.idle();
    expect(await readOff()).toMatchObject({ status: 'pending', sync: { available: false, reason: 'no_provider' } });
  });
});
