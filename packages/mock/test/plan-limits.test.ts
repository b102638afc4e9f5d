import { describe, expect, it } from 'vitest';
import { call, key, useMock } from './helpers.js';

// Pro with tiny quotas, so every plan refusal is reached in a few calls.
const mock = useMock({
  plans: {
    pro: {
      limits: {
        'projects.max': 2,
        'crawls.monthly': 2,
        'api.webhooks.max': 1,
        'positions.tracked_keywords': 4,
        'keywords.project_limit': 3,
        'positions.live_checks_per_day': 1,
      },
    },
  },
});
const token = () => mock.tokens.pro;

describe('plan limits (403 plan_limit.* with upgrade_to)', () => {
  it('caps the number of projects', async () => {
    for (const url of ['https://a.example.org', 'https://b.example.org']) expect((await call('POST', '/v1/projects', { token: token(), body: { url } })).status).toBe(201);
    const res = await call('POST', '/v1/projects', { token: token(), body: { url: 'https://c.example.org' } });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'plan_limit.projects', upgrade_to: 'agency' });
  });

  it('consumes one crawl of the monthly quota per launch', async () => {
    const { campaignId } = mock.seed.teamWithProject({ token: token() });
    for (let i = 0; i < 2; i++) {
      expect((await call('POST', `/v1/campaigns/${campaignId}/crawls`, { token: token(), headers: { 'Idempotency-Key': key() } })).status).toBe(202);
      mock.advance();
    }
    const res = await call('POST', `/v1/campaigns/${campaignId}/crawls`, { token: token(), headers: { 'Idempotency-Key': key() } });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'plan_limit.crawls.monthly', upgrade_to: 'agency' });
    const usage = await call('GET', '/v1/usage', { token: token() });
    expect(usage.body.data.quotas.find((q: { entitlement: string }) => q.entitlement === 'crawls.monthly')).toEqual({ entitlement: 'crawls.monthly', used: 2, limit: 2, remaining: 0 });
  });

  it('caps webhooks at api.webhooks.max', async () => {
    const body = { url: 'https://hooks.example.com/a', events: ['crawl.completed'] };
    expect((await call('POST', '/v1/webhooks', { token: token(), body })).status).toBe(201);
    const res = await call('POST', '/v1/webhooks', { token: token(), body });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'plan_limit.api.webhooks.max', upgrade_to: 'agency' });
  });

  it('applies the per-project ceiling and the plan pool to tracked keywords', async () => {
    const a = mock.seed.teamWithProject({ token: token(), url: 'https://a.example.org' });
    const b = mock.seed.teamWithProject({ token: token(), url: 'https://b.example.org' });
    const track = (projectId: string, keywords: string[]) =>
      call('POST', `/v1/projects/${projectId}/tracked-keywords`, { token: token(), headers: { 'Idempotency-Key': key() }, body: { keywords } });

    const ceiling = await track(a.projectId, ['one', 'two', 'three', 'four']);
    expect(ceiling.status).toBe(403);
    expect(ceiling.body.code).toBe('keywords.project_limit');
    expect((await track(a.projectId, ['one', 'two', 'three'])).status).toBe(200);

    const pool = await track(b.projectId, ['five', 'six']);
    expect(pool.status).toBe(403);
    expect(pool.body).toMatchObject({ code: 'plan_limit.positions.tracked_keywords', upgrade_to: 'agency' });

    // Pausing frees a pool slot; resuming needs one back.
    await call('POST', `/v1/projects/${a.projectId}/tracked-keywords/pause`, { token: token(), body: { keywords: ['one'] } });
    expect((await track(b.projectId, ['five', 'six'])).status).toBe(200);
    const resume = await call('POST', `/v1/projects/${a.projectId}/tracked-keywords/resume`, { token: token(), headers: { 'Idempotency-Key': key() }, body: { keywords: ['one'] } });
    expect(resume.status).toBe(403);
    expect(resume.body.code).toBe('plan_limit.positions.tracked_keywords');
  });

  it('limits live checks per day', async () => {
    const { projectId } = mock.seed.trackedKeywords({ token: token(), keywords: ['alpha', 'beta'] });
    const check = (keyword: string) =>
      call('POST', `/v1/projects/${projectId}/tracked-keywords/check`, { token: token(), headers: { 'Idempotency-Key': key() }, body: { keyword } });
    expect((await check('alpha')).status).toBe(202);
    const res = await check('beta');
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'plan_limit.positions.live_checks_per_day', upgrade_to: 'agency' });
  });
});
