/**
 * Quota-checked keyword writes under concurrency: parallel calls never exceed the plan pool, the
 * per-project ceiling, the daily check quota, nor check a keyword twice a day.
 */
import { randomUUID } from 'node:crypto';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { dataForSeoStandIn } from '../../../../tests/support/provider-stand-ins.js';
import { createDataForSeoSerp } from '../../src/providers/index.js';

// A SERP provider (its stand-in): a check that measured nothing is not charged, so the quotas
// are raced with checks that measure.
const credentials = { login: 'api@example.test', password: 's3cret' };
const msw = setupServer(...dataForSeoStandIn(credentials).handlers);

let h: Harness;
const now = new Date('2025-03-10T09:00:00Z');

beforeAll(async () => {
  msw.listen({ onUnhandledRequest: 'bypass' });
  h = await startHarness({
    clock: () => now,
    plans: { pro: { limits: { 'positions.tracked_keywords': 5, 'keywords.project_limit': 5, 'positions.live_checks_per_day': 2 } } },
    providers: { serp: createDataForSeoSerp(credentials) },
  });
});
afterAll(async () => {
  await h.close();
  msw.close();
});

async function newProject(token: string): Promise<string> {
  const res = await h.call('POST', '/v1/projects', { token, body: { url: 'https://www.shop.test/' } });
  return (await res.json()).data.id;
}
const post = (token: string, project: string, op: string, body: unknown) =>
  h.call('POST', `/v1/projects/${project}/tracked-keywords${op}`, { token, body, headers: { 'idempotency-key': randomUUID() } });
const activeCount = async (project: string | string[]) =>
  (await h.knex('tracked_keywords').whereIn('project_id', [project].flat()).andWhere({ state: 'tracked' })).length;

describe('parallel track calls', () => {
  it('two calls that each fit but not together: one succeeds, one is refused', async () => {
    const token = await h.tokenFor({ team: 'race-two', plan: 'pro' });
    const a = await newProject(token);
    const b = await newProject(token);
    const [x, y] = await Promise.all([post(token, a, '', { keywords: ['a1', 'a2', 'a3'] }), post(token, b, '', { keywords: ['b1', 'b2', 'b3'] })]);
    expect([x.status, y.status].sort()).toEqual([200, 403]);
    const refused = x.status === 403 ? await x.json() : await y.json();
    expect(refused.code).toBe('plan_limit.positions.tracked_keywords');
    expect(await activeCount([a, b])).toBe(3);
  });

  it('many calls at once: the pool is filled exactly and never exceeded', async () => {
    const token = await h.tokenFor({ team: 'race-many', plan: 'pro' });
    const projects = await Promise.all([newProject(token), newProject(token), newProject(token)]);
    const calls = Array.from({ length: 8 }, (_, i) => post(token, projects[i % 3], '', { keywords: [`k${i}-a`, `k${i}-b`] }));
    const results = await Promise.all(calls);
    const ok = results.filter((r) => r.status === 200).length;
    expect(results.every((r) => r.status === 200 || r.status === 403)).toBe(true);
    expect(ok).toBe(2);
    expect(await activeCount(projects)).toBe(4);
  });

  it('the same keywords twice at once: tracked once, reported already tracked once', async () => {
    const token = await h.tokenFor({ team: 'race-same', plan: 'pro' });
    const project = await newProject(token);
    const results = await Promise.all([post(token, project, '', { keywords: ['same', 'Same '] }), post(token, project, '', { keywords: ['same'] })]);
    const bodies = await Promise.all(results.map((r) => r.json()));
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    expect(bodies.flatMap((b) => b.data.tracked)).toEqual(['same']);
    expect(bodies.flatMap((b) => b.data.already_tracked)).toEqual(['same']);
    expect(await h.knex('tracked_keywords').where({ project_id: project })).toHaveLength(1);
    expect(await h.knex('position_trackers').where({ project_id: project })).toHaveLength(1);
  });

  it('parallel resumes and tracks never exceed the pool', async () => {
    const token = await h.tokenFor({ team: 'race-resume', plan: 'pro' });
    const a = await newProject(token);
    const b = await newProject(token);
    await post(token, a, '', { keywords: ['a1', 'a2', 'a3'] });
    await post(token, a, '/pause', { keywords: ['a1', 'a2', 'a3'] });
    const results = await Promise.all([
      post(token, a, '/resume', { keywords: ['a1', 'a2', 'a3'] }),
      post(token, b, '', { keywords: ['b1', 'b2', 'b3'] }),
      post(token, b, '', { keywords: ['b4'] }),
    ]);
    expect(results.every((r) => r.status === 200 || r.status === 403)).toBe(true);
    expect(await activeCount([a, b])).toBeLessThanOrEqual(5);
    const expected = (await Promise.all(results.map(async (r) => (r.status === 200 ? (await r.json()).data : null))))
      .filter(Boolean)
      .reduce((n: number, d: any) => n + (d.tracked ?? d.changed).length, 0);
    expect(await activeCount([a, b])).toBe(expected);
  });
});

describe('parallel checks', () => {
  it('one immediate check per keyword per day, whoever asks first', async () => {
    const token = await h.tokenFor({ team: 'race-check', plan: 'pro' });
    const project = await newProject(token);
    await post(token, project, '', { keywords: ['one'] });
    const results = await Promise.all(Array.from({ length: 4 }, () => post(token, project, '/check', { keyword: 'one' })));
    expect(results.map((r) => r.status).sort()).toEqual([202, 409, 409, 409]);
    const codes = await Promise.all(results.filter((r) => r.status === 409).map(async (r) => (await r.json()).code));
    expect(new Set(codes)).toEqual(new Set(['keywords.already_checked_today']));
    await h.server.jobs.idle();
  });

  it('the daily quota holds under parallel checks of different keywords', async () => {
    const token = await h.tokenFor({ team: 'race-quota', plan: 'pro' });
    const project = await newProject(token);
    await post(token, project, '', { keywords: ['k1', 'k2', 'k3', 'k4'] });
    const results = await Promise.all(['k1', 'k2', 'k3', 'k4'].map((keyword) => post(token, project, '/check', { keyword })));
    expect(results.map((r) => r.status).sort()).toEqual([202, 202, 403, 403]);
    expect(await h.knex('keyword_checks').where({ project_id: project, kind: 'live' })).toHaveLength(2);
    await h.server.jobs.idle();
  });
});
