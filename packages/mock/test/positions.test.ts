import { Positions } from '@siteaudit/schema';
import { describe, expect, it } from 'vitest';
import { call, key, useMock } from './helpers.js';

const mock = useMock();
const token = () => mock.tokens.owner;
const post = (projectId: string, action: string, body: unknown, idempotent = true) =>
  call('POST', `/v1/projects/${projectId}/tracked-keywords${action}`, { token: token(), headers: idempotent ? { 'Idempotency-Key': key() } : {}, body });
const read = async (projectId: string, query: Record<string, string> = {}) =>
  Positions.parse((await call('GET', `/v1/projects/${projectId}/positions`, { token: token(), query })).body.data);

describe('rank tracking', () => {
  it('is unconfigured until keywords are tracked, then pending, then active once checked', async () => {
    const { projectId } = mock.seed.teamWithProject();
    const empty = await read(projectId);
    expect(empty).toMatchObject({ status: 'unconfigured', tracker: null, keywords: [] });
    expect(empty.period).toEqual({ preset: '30d', from: '2025-12-17', to: '2026-01-15' });

    const tracked = await post(projectId, '', { keywords: ['  Site   Audit ', 'site audit', 'SEO Crawler'] });
    expect(tracked.status).toBe(200);
    expect(tracked.body.data).toEqual({ project_id: projectId, tracked: ['site audit', 'seo crawler'], already_tracked: [] });
    const again = await post(projectId, '', { keywords: ['SITE AUDIT', 'backlinks'] });
    expect(again.body.data).toEqual({ project_id: projectId, tracked: ['backlinks'], already_tracked: ['site audit'] });

    const pending = await read(projectId);
    expect(pending.status).toBe('pending');
    expect(pending.tracker).toMatchObject({ active: true, last_tracked_on: null });
    expect(pending.keywords.map((k) => [k.keyword, k.measured, k.position])).toEqual([
      ['backlinks', false, null],
      ['seo crawler', false, null],
      ['site audit', false, null],
    ]);
    expect(pending.quota).toEqual({ used: 3, limit: 5_000, remaining: 4_997 });

    const check = await post(projectId, '/check', { keyword: ' Site AUDIT' });
    expect(check.status).toBe(202);
    expect(check.body.data).toEqual({ project_id: projectId, keyword: 'site audit', status: 'queued', date: '2026-01-15' });
    const twice = await post(projectId, '/check', { keyword: 'site audit' });
    expect(twice.status).toBe(409);
    expect(twice.body.code).toBe('keywords.already_checked_today');

    mock.advance();
    const active = await read(projectId);
    expect(active.status).toBe('active');
    expect(active.tracker!.last_tracked_on).toBe('2026-01-15');
    expect(active.keywords.find((k) => k.keyword === 'site audit')!.measured).toBe(true);
    expect(active.summary).toMatchObject({ measured_keywords: 1, tracked_keywords: 3 });
  });

  it('pauses, resumes and untracks with the spec codes', async () => {
    const { projectId, keywords } = mock.seed.trackedKeywords();
    expect(keywords).toContain('technical seo checklist');

    const paused = await post(projectId, '/pause', { keywords: ['Site Audit', 'core web vitals'] }, false);
    expect(paused.body.data).toEqual({ project_id: projectId, active: false, changed: ['site audit', 'core web vitals'] });
    const noop = await post(projectId, '/pause', { keywords: ['site audit'] }, false);
    expect(noop.body.data.changed).toEqual([]);
    const unknown = await post(projectId, '/pause', { keywords: ['site audit', 'never tracked'] }, false);
    expect(unknown.status).toBe(409);
    expect(unknown.body.code).toBe('keywords.not_tracked');

    const state = await read(projectId);
    expect(state.keywords.find((k) => k.keyword === 'site audit')!.active).toBe(false);
    expect(state.quota.used).toBe(keywords.length - 2);

    const resumed = await post(projectId, '/resume', { keywords: ['site audit'] });
    expect(resumed.body.data).toEqual({ project_id: projectId, active: true, changed: ['site audit'] });
    expect((await post(projectId, '/resume', { keywords: ['nope'] })).body.code).toBe('keywords.not_tracked');

    const untracked = await post(projectId, '/untrack', { keywords: ['site audit', 'core web vitals', 'unknown'] }, false);
    expect(untracked.body.data).toEqual({ project_id: projectId, untracked: ['site audit', 'core web vitals'] });
    expect((await read(projectId)).keywords.map((k) => k.keyword)).not.toContain('site audit');
    expect((await post(projectId, '/check', { keyword: 'site audit' })).body.code).toBe('keywords.not_tracked');

    // Pausing every keyword pauses the tracker.
    await post(projectId, '/pause', { keywords: keywords.filter((k) => !['site audit', 'core web vitals'].includes(k)) }, false);
    expect((await read(projectId)).status).toBe('paused');
  });

  it('seeds measured keywords with positions, deltas and a summary', async () => {
    const { projectId, keywords } = mock.seed.trackedKeywords();
    const data = await read(projectId, { period: '7d' });
    expect(data.status).toBe('active');
    expect(data.period).toEqual({ preset: '7d', from: '2026-01-09', to: '2026-01-15' });
    expect(data.keywords).toHaveLength(keywords.length);
    for (const k of data.keywords) {
      expect(k.measured).toBe(true);
      if (k.position === null) expect(k.url).toBeNull();
    }
    const ranking = data.keywords.filter((k) => k.position !== null);
    expect(data.summary.ranking_keywords).toBe(ranking.length);
    expect(data.summary.top10).toBe(ranking.filter((k) => k.position! <= 10).length);
  });

  it('needs a plan with the module, and positions:write to change it', async () => {
    const { projectId } = mock.seed.teamWithProject();
    const readOnly = await call('POST', `/v1/projects/${projectId}/tracked-keywords`, { token: mock.tokens.readOnly, headers: { 'Idempotency-Key': key() }, body: { keywords: ['a'] } });
    expect(readOnly.body.code).toBe('api.write_not_in_plan');
    const missingKey = await call('POST', `/v1/projects/${projectId}/tracked-keywords`, { token: token(), body: { keywords: ['a'] } });
    expect(missingKey.body.code).toBe('idempotency.key_required');
    const tooMany = await post(projectId, '', { keywords: Array.from({ length: 101 }, (_, i) => `k${i}`) });
    expect(tooMany.status).toBe(422);
  });
});

describe('search console', () => {
  it('is unconfigured, over a period ending yesterday', async () => {
    const { projectId } = mock.seed.teamWithProject();
    const res = await call('GET', `/v1/projects/${projectId}/search-console`, { token: token() });
    expect(res.body.data).toEqual({
      project_id: projectId,
      status: 'unconfigured',
      property: null,
      synced_at: null,
      // The mock stands for a server with a Search Console provider.
      sync: { available: true, reason: null },
      performance: { period: { preset: '28d', from: '2025-12-18', to: '2026-01-14' }, totals: null, daily: [] },
      indexation: null,
    });
    expect((await call('GET', `/v1/projects/${projectId}/search-console`, { token: token(), query: { period: '2d' } })).status).toBe(422);
  });
});
