/**
 * Rank tracking over HTTP: the tracked keyword state table (track, pause, resume, untrack), the
 * plan pool and per-project ceiling, the module gate and the positions read before any check.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { POSITIONS_DAILY } from '../../src/modules/positions/jobs.js';
import { withJobs } from './support/jobs.js';

let h: Harness;
let now = new Date('2025-03-10T09:00:00Z');

beforeAll(async () => {
  h = await startHarness({
    clock: () => now,
    plans: {
      pro: { limits: { 'positions.tracked_keywords': 5, 'keywords.project_limit': 4 } },
      // A plan with write access but without rank tracking nor Search Console.
      starter: { api: 'write', limits: { 'positions.tracked_keywords': 0, 'keywords.project_limit': 0 } },
    },
  });
});
afterAll(() => h.close());

const idem = () => ({ 'idempotency-key': randomUUID() });

async function newProject(token?: string, url = 'https://www.shop.test/'): Promise<string> {
  const res = await h.call('POST', '/v1/projects', { token, body: { url } });
  expect(res.status).toBe(201);
  return (await res.json()).data.id;
}

const post = (token: string | undefined, project: string, op: string, body: unknown, headers: Record<string, string> = idem()) =>
  h.call('POST', `/v1/projects/${project}/tracked-keywords${op}`, { token, body, headers });
const track = (token: string | undefined, project: string, keywords: string[]) => post(token, project, '', { keywords });
const read = async (token: string | undefined, project: string, query = '') => {
  const res = await h.call('GET', `/v1/projects/${project}/positions${query}`, { token });
  expect(res.status).toBe(200);
  return (await res.json()).data;
};

describe('positions read before tracking', () => {
  it('is unconfigured with no tracker, the default 30-day period and an empty summary', async () => {
    const project = await newProject();
    const data = await read(undefined, project);
    expect(data).toEqual({
      project_id: project,
      status: 'unconfigured',
      tracker: null,
      period: { preset: '30d', from: '2025-02-09', to: '2025-03-10' },
      summary: {
        average_position: null,
        ranking_keywords: 0,
        measured_keywords: 0,
        tracked_keywords: 0,
        top3: 0,
        top10: 0,
        visibility_percent: null,
        improved: 0,
        declined: 0,
        entered: 0,
        exited: 0,
      },
      keywords: [],
      quota: { used: 0, limit: 5000, remaining: 5000 },
    });
  });

  it('takes the period presets and refuses others', async () => {
    const project = await newProject();
    expect((await read(undefined, project, '?period=7d')).period).toEqual({ preset: '7d', from: '2025-03-04', to: '2025-03-10' });
    const res = await h.call('GET', `/v1/projects/${project}/positions?period=12d`);
    expect(res.status).toBe(422);
    expect((await res.json()).errors.period).toBeDefined();
  });

  it('answers 404 for another team’s project', async () => {
    const other = await h.tokenFor({ team: 'other-read' });
    const project = await newProject(other);
    expect((await h.call('GET', `/v1/projects/${project}/positions`)).status).toBe(404);
    expect((await track(undefined, project, ['x'])).status).toBe(404);
  });
});

describe('track', () => {
  it('returns canonical keywords, creates the tracker with its defaults and consumes slots', async () => {
    const token = await h.tokenFor({ team: 'track-basic', plan: 'pro' });
    const project = await newProject(token);
    const first = await track(token, project, ['  Chaussures   Running ', 'chaussures running', 'TRAIL']);
    expect(first.status).toBe(200);
    expect((await first.json()).data).toEqual({ project_id: project, tracked: ['chaussures running', 'trail'], already_tracked: [] });

    const second = await track(token, project, ['Trail', 'route']);
    expect((await second.json()).data).toEqual({ project_id: project, tracked: ['route'], already_tracked: ['trail'] });

    const data = await read(token, project);
    // No SERP provider in this harness (positions-checks.test.ts has one): nothing will measure them.
    expect(data.status).toBe('unconfigured');
    expect(data.tracker).toEqual({ location: 'France', country: 'FR', language: 'fr', device: 'desktop', active: true, last_tracked_on: null });
    expect(data.keywords.map((k: any) => k.keyword)).toEqual(['chaussures running', 'route', 'trail']);
    expect(data.keywords[0]).toEqual({
      keyword: 'chaussures running',
      active: true,
      measured: false,
      position: null,
      url: null,
      delta_1d: null,
      delta_7d: null,
      delta_30d: null,
      search_volume: null,
      keyword_difficulty: null,
      search_intent: null,
      serp_features: [],
    });
    expect(data.summary).toMatchObject({ tracked_keywords: 3, measured_keywords: 0, average_position: null });
    expect(data.quota).toEqual({ used: 3, limit: 5, remaining: 2 });

    // The daily run is scheduled for the next day.
    const jobs = (await withJobs(h.knex, () => new Date(), (j) => j.pending(POSITIONS_DAILY))).filter((j) => j.payload.projectId === project);
    expect(jobs).toHaveLength(1);
    expect(jobs[0].runAt.toISOString()).toBe('2025-03-11T00:00:00.000Z');
  });

  it('requires an Idempotency-Key and replays a retry without tracking twice', async () => {
    const token = await h.tokenFor({ team: 'track-idem', plan: 'pro' });
    const project = await newProject(token);
    const without = await post(token, project, '', { keywords: ['a'] }, {});
    expect(without.status).toBe(400);
    expect((await without.json()).code).toBe('idempotency.key_required');

    const headers = idem();
    const a = await post(token, project, '', { keywords: ['a'] }, headers);
    const b = await post(token, project, '', { keywords: ['a'] }, headers);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    expect(await b.json()).toEqual(await a.json());
    expect((await read(token, project)).quota.used).toBe(1);
  });

  it('validates the body: 1 to 100 keywords of 1 to 200 characters', async () => {
    const project = await newProject();
    for (const keywords of [[], Array.from({ length: 101 }, (_, i) => `k${i}`), ['   '], ['x'.repeat(201)]]) {
      const res = await track(undefined, project, keywords);
      expect(res.status).toBe(422);
    }
    expect((await track(undefined, project, Array.from({ length: 100 }, (_, i) => `k${i}`))).status).toBe(200);
  });

  it('refuses past the plan pool, counted over the team’s active keywords, and changes nothing', async () => {
    const token = await h.tokenFor({ team: 'track-pool', plan: 'pro' });
    const a = await newProject(token);
    const b = await newProject(token);
    expect((await track(token, a, ['a1', 'a2', 'a3', 'a4'])).status).toBe(200);
    const refused = await track(token, b, ['b1', 'b2']);
    expect(refused.status).toBe(403);
    const problem = await refused.json();
    expect(problem).toMatchObject({ code: 'plan_limit.positions.tracked_keywords', upgrade_to: 'agency' });
    expect(problem.detail).toContain('6 des 5');
    expect((await read(token, b)).keywords).toEqual([]);
    expect((await read(token, b)).status).toBe('unconfigured');
    expect((await track(token, b, ['b1'])).status).toBe(200);
    expect((await read(token, b)).quota).toEqual({ used: 5, limit: 5, remaining: 0 });
  });

  it('refuses past the per-project ceiling, where paused keywords still count', async () => {
    const token = await h.tokenFor({ team: 'track-ceiling', plan: 'pro' });
    const project = await newProject(token);
    expect((await track(token, project, ['k1', 'k2', 'k3', 'k4'])).status).toBe(200);
    const refused = await track(token, project, ['k5']);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'keywords.project_limit', upgrade_to: 'agency' });

    expect((await post(token, project, '/pause', { keywords: ['k1'] })).status).toBe(200);
    expect((await read(token, project)).quota.used).toBe(3);
    expect((await (await track(token, project, ['k5'])).json()).code).toBe('keywords.project_limit');
    // Untracking frees the project's room as well.
    expect((await post(token, project, '/untrack', { keywords: ['k1'] })).status).toBe(200);
    expect((await (await track(token, project, ['k5'])).json()).data.tracked).toEqual(['k5']);
  });

  it('adopts a candidate keyword', async () => {
    const token = await h.tokenFor({ team: 'track-candidate', plan: 'pro' });
    const project = await newProject(token);
    const me = await (await h.call('GET', '/v1/me', { token })).json();
    const team = await h.knex('teams').where({ slug: me.data.team.slug }).first('id');
    const id = randomUUID();
    await h.knex('tracked_keywords').insert({ id, team_id: team.id, project_id: project, keyword: 'idée cadeau', state: 'candidate', created_at: now.toISOString(), updated_at: now.toISOString() });
    // A candidate is not listed and takes no slot.
    expect((await read(token, project)).keywords).toEqual([]);
    expect((await (await track(token, project, ['Idée  Cadeau'])).json()).data).toEqual({ project_id: project, tracked: ['idée cadeau'], already_tracked: [] });
    expect(await h.knex('tracked_keywords').where({ id }).first('state')).toEqual({ state: 'tracked' });
    expect((await read(token, project)).quota.used).toBe(1);
  });

  it('is refused on a locked project', async () => {
    const token = await h.tokenFor({ team: 'track-locked', plan: 'pro' });
    const project = await newProject(token);
    expect((await track(token, project, ['a', 'b'])).status).toBe(200);
    await h.server.admin.setProjectLocked(project, true);
    expect((await (await track(token, project, ['c'])).json()).code).toBe('project.locked');
    expect((await (await post(token, project, '/resume', { keywords: ['a'] })).json()).code).toBe('project.locked');
    expect((await (await post(token, project, '/check', { keyword: 'a' })).json()).code).toBe('project.locked');
    // Pausing and untracking only free slots: allowed.
    expect((await post(token, project, '/pause', { keywords: ['a'] })).status).toBe(200);
    expect((await post(token, project, '/untrack', { keywords: ['b'] })).status).toBe(200);
  });
});

describe('pause and resume', () => {
  it('pauses: frees slots, reports what changed, and refuses the whole call on one keyword not tracked', async () => {
    const token = await h.tokenFor({ team: 'pause', plan: 'pro' });
    const project = await newProject(token);
    await track(token, project, ['a', 'b', 'c']);

    const refused = await post(token, project, '/pause', { keywords: ['a', 'nope'] });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ code: 'keywords.not_tracked', detail: expect.stringContaining('« nope »') });
    expect((await read(token, project)).keywords.every((k: any) => k.active)).toBe(true);

    const paused = await post(token, project, '/pause', { keywords: ['A', 'b'] }, {});
    expect((await paused.json()).data).toEqual({ project_id: project, active: false, changed: ['a', 'b'] });
    // Pausing a paused keyword is not a change, and not an error.
    expect((await (await post(token, project, '/pause', { keywords: ['a'] })).json()).data.changed).toEqual([]);

    const data = await read(token, project);
    expect(data.keywords.map((k: any) => [k.keyword, k.active])).toEqual([['a', false], ['b', false], ['c', true]]);
    expect(data.quota.used).toBe(1);
    expect(data.summary.tracked_keywords).toBe(3);
    // Tracking a paused keyword leaves it paused: resume is the way back.
    expect((await (await track(token, project, ['a'])).json()).data).toEqual({ project_id: project, tracked: [], already_tracked: ['a'] });

    await post(token, project, '/pause', { keywords: ['c'] });
    const all = await read(token, project);
    expect(all.status).toBe('paused');
    expect(all.tracker.active).toBe(false);
  });

  it('resumes within the pool, else refuses and changes nothing', async () => {
    const token = await h.tokenFor({ team: 'resume', plan: 'pro' });
    const a = await newProject(token);
    const b = await newProject(token);
    await track(token, a, ['a1', 'a2', 'a3']);
    await post(token, a, '/pause', { keywords: ['a1', 'a2', 'a3'] });
    await track(token, b, ['b1', 'b2', 'b3']);

    expect((await post(token, a, '/resume', { keywords: ['a1'] }, {})).status).toBe(400);
    const refused = await post(token, a, '/resume', { keywords: ['a1', 'a2', 'a3'] });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'plan_limit.positions.tracked_keywords', upgrade_to: 'agency' });
    expect((await read(token, a)).keywords.every((k: any) => !k.active)).toBe(true);

    expect((await (await post(token, a, '/resume', { keywords: ['nope'] })).json()).code).toBe('keywords.not_tracked');
    const resumed = await post(token, a, '/resume', { keywords: ['a1', 'a2', 'b-not-here'] });
    expect((await resumed.json()).code).toBe('keywords.not_tracked');
    const ok = await post(token, a, '/resume', { keywords: ['a1', 'a2'] });
    expect((await ok.json()).data).toEqual({ project_id: a, active: true, changed: ['a1', 'a2'] });
    expect((await read(token, a)).quota).toEqual({ used: 5, limit: 5, remaining: 0 });
    expect((await (await post(token, a, '/resume', { keywords: ['a1'] })).json()).data.changed).toEqual([]);
  });
});

describe('untrack', () => {
  it('ignores unknown and untracked keywords, frees the slot and hides the keyword', async () => {
    const token = await h.tokenFor({ team: 'untrack', plan: 'pro' });
    const project = await newProject(token);
    await track(token, project, ['a', 'b']);
    await post(token, project, '/pause', { keywords: ['b'] });
    const res = await post(token, project, '/untrack', { keywords: ['A', 'b', 'unknown'] }, {});
    expect(res.status).toBe(200);
    expect((await res.json()).data).toEqual({ project_id: project, untracked: ['a', 'b'] });
    expect((await (await post(token, project, '/untrack', { keywords: ['a'] })).json()).data.untracked).toEqual([]);
    const data = await read(token, project);
    expect(data.keywords).toEqual([]);
    expect(data.quota.used).toBe(0);
    // Pausing an untracked keyword: it is not tracked.
    expect((await (await post(token, project, '/pause', { keywords: ['a'] })).json()).code).toBe('keywords.not_tracked');
    // Re-tracking is a new track.
    expect((await (await track(token, project, ['a'])).json()).data.tracked).toEqual(['a']);
  });

  it('is never refused by billing, even on a plan without rank tracking', async () => {
    const token = await h.tokenFor({ team: 'downgraded', plan: 'pro' });
    const project = await newProject(token);
    await track(token, project, ['a', 'b']);
    await h.server.admin.setPlan({ team: 'downgraded', plan: 'starter' });

    for (const [op, body] of [
      ['', { keywords: ['c'] }],
      ['/pause', { keywords: ['a'] }],
      ['/resume', { keywords: ['a'] }],
      ['/check', { keyword: 'a' }],
    ] as const) {
      const res = await post(token, project, op, body);
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ code: 'plan_limit.positions', upgrade_to: 'pro' });
    }
    const read403 = await h.call('GET', `/v1/projects/${project}/positions`, { token });
    expect(await read403.json()).toMatchObject({ code: 'plan_limit.positions', upgrade_to: 'pro' });

    const res = await post(token, project, '/untrack', { keywords: ['a', 'b'] });
    expect(res.status).toBe(200);
    expect((await res.json()).data.untracked).toEqual(['a', 'b']);
    expect(await h.knex('tracked_keywords').where({ project_id: project, state: 'tracked' })).toHaveLength(0);
  });
});

describe('usage', () => {
  it('counts the pool in GET /v1/usage', async () => {
    const token = await h.tokenFor({ team: 'usage', plan: 'pro' });
    const project = await newProject(token);
    await track(token, project, ['a', 'b']);
    const usage = (await (await h.call('GET', '/v1/usage', { token })).json()).data;
    expect(usage.quotas).toEqual(
      expect.arrayContaining([
        { entitlement: 'positions.tracked_keywords', used: 2, limit: 5, remaining: 3 },
        { entitlement: 'positions.live_checks_per_day', used: 0, limit: 50, remaining: 50 },
        { entitlement: 'positions.monthly_spend', used: 0, limit: 1000, remaining: 1000 },
      ]),
    );
  });
});
