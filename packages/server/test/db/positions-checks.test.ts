/**
 * Measurements over HTTP: live checks and the daily run through the real DataForSEO adapters
 * (against their msw stand-in), the history per day, deltas, summary and visibility, the check
 * quotas, and the honest answer when no SERP provider is configured.
 */
import { randomUUID } from 'node:crypto';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDataForSeoKeywordData, createDataForSeoSerp } from '../../src/providers/index.js';
import { dataForSeoStandIn } from '../../../../tests/support/provider-stand-ins.js';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { POSITIONS_DAILY } from '../../src/modules/positions/jobs.js';
import { reschedule, withJobs } from './support/jobs.js';

const credentials = { login: 'api@example.test', password: 's3cret' };
const stand = dataForSeoStandIn(credentials);
// Requests to the harness itself pass through untouched.
const msw = setupServer(...stand.handlers);

let h: Harness;
let bare: Harness;
let now: Date;
const plans = { pro: { limits: { 'positions.live_checks_per_day': 2, 'positions.monthly_spend': 3 } } };

beforeAll(async () => {
  msw.listen({ onUnhandledRequest: 'bypass' });
  now = new Date('2025-03-10T09:00:00Z');
  h = await startHarness({
    clock: () => now,
    plans,
    providers: { serp: createDataForSeoSerp(credentials), keywordData: createDataForSeoKeywordData(credentials) },
  });
  bare = await startHarness({ clock: () => now, plans });
});
afterAll(async () => {
  await h.close();
  await bare.close();
  msw.close();
});
beforeEach(() => {
  now = new Date('2025-03-10T09:00:00Z');
});

const idem = () => ({ 'idempotency-key': randomUUID() });
async function setup(harness: Harness, team: string, keywords: string[]): Promise<{ token: string; project: string }> {
  const token = await harness.tokenFor({ team, plan: 'pro' });
  const res = await harness.call('POST', '/v1/projects', { token, body: { url: 'https://www.shop.test/' } });
  const project = (await res.json()).data.id;
  expect((await harness.call('POST', `/v1/projects/${project}/tracked-keywords`, { token, body: { keywords }, headers: idem() })).status).toBe(200);
  return { token, project };
}
const check = (harness: Harness, token: string, project: string, keyword: string) =>
  harness.call('POST', `/v1/projects/${project}/tracked-keywords/check`, { token, body: { keyword }, headers: idem() });
const read = async (harness: Harness, token: string, project: string, query = '') => (await (await harness.call('GET', `/v1/projects/${project}/positions${query}`, { token })).json()).data;
const keyword = (data: any, k: string) => data.keywords.find((x: any) => x.keyword === k);
const organic = (position: number, domain = 'www.shop.test', path = '/') =>
  Array.from({ length: position }, (_, i) => (i === position - 1 ? { domain, url: `https://${domain}${path}` } : { domain: `rival${i}.test`, url: `https://rival${i}.test/` }));
/** SERP calls so far, for the given keywords (other tests' projects run their daily jobs too). */
const serpCalls = (keywords: string[]) => stand.calls.filter((c) => c.path.includes('/serp/') && keywords.includes(c.task.keyword)).length;

describe('live check', () => {
  it('queues, measures through DataForSEO and shows the position in the read', async () => {
    stand.serps.set('chaussures running', { features: ['featured_snippet'], organic: organic(3, 'www.shop.test', '/running') });
    stand.overview.set('chaussures running', { search_volume: 12100, keyword_difficulty: 47, main_intent: 'commercial' });
    const { token, project } = await setup(h, 'check-basic', ['Chaussures Running', 'introuvable']);
    const res = await check(h, token, project, '  CHAUSSURES running');
    expect(res.status).toBe(202);
    expect((await res.json()).data).toEqual({ project_id: project, keyword: 'chaussures running', status: 'queued', date: '2025-03-10' });
    await h.server.jobs.idle();

    const data = await read(h, token, project);
    expect(data.status).toBe('active');
    expect(data.tracker.last_tracked_on).toBe('2025-03-10');
    expect(keyword(data, 'chaussures running')).toEqual({
      keyword: 'chaussures running',
      active: true,
      measured: true,
      position: 3,
      url: 'https://www.shop.test/running',
      delta_1d: null,
      delta_7d: null,
      delta_30d: null,
      search_volume: 12100,
      keyword_difficulty: 47,
      search_intent: 'commercial',
      serp_features: ['featured_snippet'],
    });
    // Never checked: measured false; keyword data unknown to the provider stays null.
    expect(keyword(data, 'introuvable')).toMatchObject({ measured: false, position: null, search_volume: null });
    expect(data.summary).toMatchObject({ measured_keywords: 1, ranking_keywords: 1, tracked_keywords: 2, average_position: 3, top3: 1, top10: 1, visibility_percent: 38.6 });
  });

  it('one per keyword per day; a new day allows it again', async () => {
    const { token, project } = await setup(h, 'check-daily', ['a']);
    expect((await check(h, token, project, 'a')).status).toBe(202);
    const again = await check(h, token, project, 'A');
    expect(again.status).toBe(409);
    expect((await again.json()).code).toBe('keywords.already_checked_today');
    await h.server.jobs.idle();
    now = new Date('2025-03-11T08:00:00Z');
    expect((await check(h, token, project, 'a')).status).toBe(202);
    await h.server.jobs.idle();
  });

  it('needs a listed keyword: unknown or untracked answers keywords.not_tracked', async () => {
    const { token, project } = await setup(h, 'check-unknown', ['a']);
    expect((await (await check(h, token, project, 'b')).json()).code).toBe('keywords.not_tracked');
    await h.call('POST', `/v1/projects/${project}/tracked-keywords/untrack`, { token, body: { keywords: ['a'] } });
    expect((await (await check(h, token, project, 'a')).json()).code).toBe('keywords.not_tracked');
  });

  it('within the daily quota and the monthly spend cap', async () => {
    const { token, project } = await setup(h, 'check-quotas', ['k1', 'k2', 'k3', 'k4']);
    expect((await check(h, token, project, 'k1')).status).toBe(202);
    expect((await check(h, token, project, 'k2')).status).toBe(202);
    const daily = await check(h, token, project, 'k3');
    expect(daily.status).toBe(403);
    expect(await daily.json()).toMatchObject({ code: 'plan_limit.positions.live_checks_per_day', upgrade_to: 'agency' });

    now = new Date('2025-03-11T09:00:00Z');
    expect((await check(h, token, project, 'k3')).status).toBe(202);
    const monthly = await check(h, token, project, 'k4');
    expect(monthly.status).toBe(403);
    expect(await monthly.json()).toMatchObject({ code: 'plan_limit.positions.monthly_spend', upgrade_to: 'agency' });
    const usage = (await (await h.call('GET', '/v1/usage', { token })).json()).data.quotas;
    expect(usage).toEqual(
      expect.arrayContaining([
        { entitlement: 'positions.live_checks_per_day', used: 1, limit: 2, remaining: 1 },
        { entitlement: 'positions.monthly_spend', used: 3, limit: 3, remaining: 0 },
      ]),
    );

    // The cap is per calendar month.
    now = new Date('2025-04-01T00:30:00Z');
    expect((await check(h, token, project, 'k4')).status).toBe(202);
    await h.server.jobs.idle();
  });

  it('a provider failure leaves the keyword unmeasured, is recorded, and is not charged', async () => {
    const { token, project } = await setup(h, 'check-failure', ['a']);
    stand.failNext(40200, 'Payment Required.');
    expect((await check(h, token, project, 'a')).status).toBe(202);
    await h.server.jobs.idle();
    expect(keyword(await read(h, token, project), 'a')).toMatchObject({ measured: false, position: null });
    const [failed] = await h.knex('keyword_checks').where({ project_id: project });
    expect(failed).toMatchObject({ status: 'failed', kind: 'live' });
    expect(failed.reason).toContain('Payment Required.');
    expect((await check(h, token, project, 'a')).status).toBe(202);
    await h.server.jobs.idle();
    expect(keyword(await read(h, token, project), 'a').measured).toBe(true);
  });
});

describe('daily run', () => {
  it('checks each active keyword once a day, keeps the history per day and computes deltas', async () => {
    stand.serps.set('trail', { organic: organic(4) });
    stand.serps.set('route', { organic: organic(12) });
    stand.serps.set('absent', { organic: organic(3, 'rival.test') });
    stand.serps.set('en pause', { organic: organic(1) });
    const { token, project } = await setup(h, 'daily', ['trail', 'route', 'absent', 'en pause']);
    await h.call('POST', `/v1/projects/${project}/tracked-keywords/pause`, { token, body: { keywords: ['en pause'] } });

    // Nothing runs the day of tracking.
    await h.server.jobs.idle();
    expect((await read(h, token, project)).status).toBe('pending');

    const mine = ['trail', 'route', 'absent', 'en pause'];
    const before = serpCalls(mine);
    now = new Date('2025-03-11T00:05:00Z');
    await h.server.jobs.idle();
    expect(serpCalls(mine) - before).toBe(3);
    let data = await read(h, token, project);
    expect(data.status).toBe('active');
    expect(data.tracker.last_tracked_on).toBe('2025-03-11');
    expect(keyword(data, 'trail')).toMatchObject({ measured: true, position: 4, delta_1d: null });
    // Checked, outside the top 100: measured with a null position.
    expect(keyword(data, 'absent')).toMatchObject({ measured: true, position: null, url: null });
    // A paused keyword is not checked.
    expect(keyword(data, 'en pause')).toMatchObject({ active: false, measured: false });

    // A second wake-up the same day runs nothing more.
    now = new Date('2025-03-11T13:00:00Z');
    await h.server.jobs.idle();
    expect(serpCalls(mine) - before).toBe(3);

    stand.serps.set('trail', { organic: organic(1) });
    stand.serps.set('route', { organic: organic(15) });
    stand.serps.set('absent', { organic: organic(9) });
    now = new Date('2025-03-12T00:05:00Z');
    await h.server.jobs.idle();
    expect(serpCalls(mine) - before).toBe(6);
    data = await read(h, token, project);
    expect(keyword(data, 'trail')).toMatchObject({ position: 1, delta_1d: 3 });
    expect(keyword(data, 'route')).toMatchObject({ position: 15, delta_1d: -3 });
    expect(keyword(data, 'absent')).toMatchObject({ position: 9, delta_1d: null });
    expect(data.summary).toMatchObject({
      measured_keywords: 3,
      ranking_keywords: 3,
      average_position: 8.3,
      top3: 1,
      top10: 2,
      improved: 1,
      declined: 1,
      entered: 1,
      exited: 0,
    });

    const history = await h.knex('keyword_positions').where({ project_id: project, keyword: 'trail' }).orderBy('date');
    expect(history.map((r: any) => [r.date, r.position])).toEqual([
      ['2025-03-11', 4],
      ['2025-03-12', 1],
    ]);
    // The next run waits for the next day.
    const queued = (await withJobs(h.knex, () => now, (j) => j.pending(POSITIONS_DAILY))).filter((j) => j.payload.projectId === project);
    expect(queued.map((j) => j.runAt.toISOString())).toEqual(['2025-03-13T00:00:00.000Z']);
  });

  it('does not pay twice for a keyword a live check measured that day', async () => {
    stand.serps.set('vélo', { organic: organic(2) });
    const { token, project } = await setup(h, 'daily-live', ['vélo']);
    // Let the daily run of 2025-03-11 be due at noon, after a morning live check.
    await reschedule(h.knex, POSITIONS_DAILY, new Date('2025-03-11T12:00:00.000Z'), (p) => p.projectId === project);
    now = new Date('2025-03-11T08:00:00Z');
    expect((await check(h, token, project, 'vélo')).status).toBe(202);
    await h.server.jobs.idle();
    expect(serpCalls(['vélo'])).toBe(1);
    now = new Date('2025-03-11T12:30:00Z');
    await h.server.jobs.idle();
    expect(serpCalls(['vélo'])).toBe(1);
    expect(await h.knex('position_trackers').where({ project_id: project }).first('last_run_on')).toEqual({ last_run_on: '2025-03-11' });
    expect(keyword(await read(h, token, project), 'vélo')).toMatchObject({ measured: true, position: 2 });
  });

  it('keeps the history of an untracked keyword for when it is tracked again', async () => {
    stand.serps.set('retour', { organic: organic(7) });
    const { token, project } = await setup(h, 'history', ['retour']);
    await check(h, token, project, 'retour');
    await h.server.jobs.idle();
    await h.call('POST', `/v1/projects/${project}/tracked-keywords/untrack`, { token, body: { keywords: ['retour'] } });
    expect((await read(h, token, project)).keywords).toEqual([]);
    await h.call('POST', `/v1/projects/${project}/tracked-keywords`, { token, body: { keywords: ['retour'] }, headers: idem() });
    expect(keyword(await read(h, token, project), 'retour')).toMatchObject({ measured: true, position: 7 });
  });
});

describe('period summary from the history', () => {
  it('compares the latest position to the one at the start of the period, with 1/7/30-day deltas', async () => {
    const { token, project } = await setup(h, 'period', ['up', 'down', 'in', 'out', 'new', 'flat']);
    const rows: [string, string, number | null][] = [
      ['up', '2025-02-01', 30],
      ['up', '2025-02-08', 20],
      ['up', '2025-03-03', 8],
      ['up', '2025-03-09', 6],
      ['up', '2025-03-10', 2],
      ['down', '2025-02-08', 3],
      ['down', '2025-03-10', 11],
      ['in', '2025-02-08', null],
      ['in', '2025-03-10', 40],
      ['out', '2025-02-08', 50],
      ['out', '2025-03-10', null],
      // First measured inside the period: its start is its first measurement.
      ['new', '2025-03-01', 9],
      ['new', '2025-03-10', 5],
      ['flat', '2025-03-10', 1],
    ];
    await h.knex('keyword_positions').insert(
      rows.map(([kw, date, position]) => ({ project_id: project, keyword: kw, date, position, url: position ? 'https://www.shop.test/' : null, serp_features: '[]', checked_at: `${date}T01:00:00.000Z` })),
    );
    const data = await read(h, token, project);
    expect(data.period).toEqual({ preset: '30d', from: '2025-02-09', to: '2025-03-10' });
    expect(keyword(data, 'up')).toMatchObject({ position: 2, delta_1d: 4, delta_7d: 6, delta_30d: 18 });
    expect(keyword(data, 'down')).toMatchObject({ position: 11, delta_1d: null, delta_30d: -8 });
    expect(data.summary).toMatchObject({ improved: 2, declined: 1, entered: 1, exited: 1, measured_keywords: 6, ranking_keywords: 5, top3: 2, top10: 3 });
    // Average over ranking keywords only: (2 + 11 + 40 + 5 + 1) / 5.
    expect(data.summary.average_position).toBe(11.8);
    // Visibility: CTR weights of positions 2, 5 and 1 over the 6 measured keywords.
    expect(data.summary.visibility_percent).toBe(Math.round((10_000 * (15.7 / 28.5 + 7.2 / 28.5 + 1)) / 6) / 100);

    // A 7-day period starts later: "up" started it at 6 (2025-03-03 is the last before 2025-03-04).
    const week = await read(h, token, project, '?period=7d');
    expect(week.period).toEqual({ preset: '7d', from: '2025-03-04', to: '2025-03-10' });
    expect(week.summary).toMatchObject({ improved: 2, declined: 1 });
  });
});

describe('without a SERP provider', () => {
  it('ends checks honestly: measured stays false and the reason is recorded', async () => {
    const { token, project } = await setup(bare, 'no-provider', ['a', 'b']);
    expect((await check(bare, token, project, 'a')).status).toBe(202);
    await bare.server.jobs.idle();
    const data = await read(bare, token, project);
    // Nothing will measure them: the read says so, and does not promise a measurement.
    expect(data.status).toBe('unconfigured');
    expect(data.tracker).toMatchObject({ active: true, last_tracked_on: null });
    expect(data.keywords.every((k: any) => k.measured === false && k.position === null && k.search_volume === null)).toBe(true);
    expect(await bare.knex('keyword_checks').where({ project_id: project }).first('status', 'reason')).toEqual({ status: 'skipped', reason: 'serp_provider_unconfigured' });
    // A check that measured nothing is not charged, and does not stand for the day's check.
    const quotas = (await (await bare.call('GET', '/v1/usage', { token })).json()).data.quotas as { entitlement: string; used: number }[];
    expect(quotas.filter((q) => q.entitlement.startsWith('positions.live') || q.entitlement === 'positions.monthly_spend').map((q) => q.used)).toEqual([0, 0]);
    expect((await check(bare, token, project, 'a')).status).toBe(202);

    now = new Date('2025-03-11T00:00:00Z');
    await bare.server.jobs.idle();
    expect(await bare.knex('position_trackers').where({ project_id: project }).first('last_run_on', 'last_run_error')).toEqual({
      last_run_on: '2025-03-11',
      last_run_error: 'serp_provider_unconfigured',
    });
    expect((await read(bare, token, project)).status).toBe('unconfigured');
    // Paused keywords read as paused, provider or not.
    await bare.call('POST', `/v1/projects/${project}/tracked-keywords/pause`, { token, body: { keywords: ['a', 'b'] } });
    expect((await read(bare, token, project)).status).toBe('paused');
  });
});
