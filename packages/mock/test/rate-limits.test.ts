import { describe, expect, it } from 'vitest';
import { call, useMock } from './helpers.js';

// Small envelopes so a test reaches them in a few calls.
const mock = useMock({ plans: { agency: { rateLimits: { minute: 6, day: 1_000 } }, pro: { rateLimits: { minute: 100, day: 12 } } } });

describe('rate limits', () => {
  it('sends the cost and both windows in the draft-10 headers', async () => {
    const res = await call('GET', '/v1/me', { token: mock.tokens.owner });
    expect(res.headers.get('x-request-cost')).toBe('1');
    expect(res.headers.get('ratelimit-policy')).toBe('"minute";q=6;w=60, "day";q=1000;w=86400');
    expect(res.headers.get('ratelimit')).toBe('"minute";r=5;t=60, "day";r=999;t=50400');
    expect(res.headers.get('x-ratelimit-limit')).toBe('6');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('5');
    expect(res.headers.get('x-ratelimit-reset')).toBe('60');
  });

  it('charges each operation its cost', async () => {
    const { projectId, token } = mock.seed.teamWithProject();
    const res = await call('GET', `/v1/projects/${projectId}/scorecard`, { token });
    expect(res.headers.get('x-request-cost')).toBe('5');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('1');
  });

  it('answers 429 rate_limited with Retry-After, window, retry_after and upgrade_to; a 429 costs nothing', async () => {
    for (let i = 0; i < 6; i++) expect((await call('GET', '/v1/me', { token: mock.tokens.owner })).status).toBe(200);
    const refused = await call('GET', '/v1/me', { token: mock.tokens.owner });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'rate_limited', window: 'minute', retry_after: 60, upgrade_to: null });
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(refused.headers.get('x-request-cost')).toBe('0');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');

    // The envelope is per team: another token of the team shares it, another team does not.
    expect((await call('GET', '/v1/me', { token: mock.tokens.member })).status).toBe(429);
    expect((await call('GET', '/v1/me', { token: mock.tokens.pro })).status).toBe(200);

    // The next minute window opens on the clock.
    mock.advance(60_000);
    expect((await call('GET', '/v1/me', { token: mock.tokens.owner })).status).toBe(200);
  });

  it('names the day window when it is the one exhausted, and the plan that lifts it', async () => {
    for (let i = 0; i < 12; i++) await call('GET', '/v1/me', { token: mock.tokens.pro });
    const refused = await call('GET', '/v1/me', { token: mock.tokens.pro });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ window: 'day', retry_after: 50_400, upgrade_to: 'agency' });
  });

  it('reports both windows and the quotas in /v1/usage', async () => {
    const res = await call('GET', '/v1/usage', { token: mock.tokens.owner });
    expect(res.body.data.rate_limits).toEqual([
      { window: 'minute', window_seconds: 60, unit: 'cost', limit: 6, used: 1, remaining: 5, resets_in_seconds: 60 },
      { window: 'day', window_seconds: 86_400, unit: 'cost', limit: 1_000, used: 1, remaining: 999, resets_in_seconds: 50_400 },
    ]);
    const quotas = Object.fromEntries(res.body.data.quotas.map((q: { entitlement: string }) => [q.entitlement, q]));
    expect(quotas['projects.max']).toEqual({ entitlement: 'projects.max', used: 0, limit: null, remaining: null });
    expect(quotas['crawls.monthly']).toEqual({ entitlement: 'crawls.monthly', used: 0, limit: 500, remaining: 500 });
  });
});

describe('failNext', () => {
  it('forces the next answer of an operation to a catalogue error, once by default', async () => {
    mock.failNext('getMe', 'internal_error');
    const forced = await call('GET', '/v1/me', { token: mock.tokens.owner, headers: { 'Accept-Language': 'en' } });
    expect(forced.status).toBe(500);
    expect(forced.body).toMatchObject({ code: 'internal_error', title: 'Internal error' });
    expect((await call('GET', '/v1/me', { token: mock.tokens.owner })).status).toBe(200);
  });

  it('forces a 429 with Retry-After for a number of calls, then answers normally', async () => {
    mock.failNext('listProjects', 'rate_limited', { times: 2, retryAfter: 7 });
    for (let i = 0; i < 2; i++) {
      const res = await call('GET', '/v1/projects', { token: mock.tokens.owner });
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('7');
      expect(res.body).toMatchObject({ code: 'rate_limited', window: 'minute', retry_after: 7 });
    }
    expect((await call('GET', '/v1/projects', { token: mock.tokens.owner })).status).toBe(200);
    // Other operations were never affected.
    expect((await call('GET', '/v1/me', { token: mock.tokens.owner })).status).toBe(200);
  });

  it('is cleared by reset()', async () => {
    mock.failNext('getMe', 'service_unavailable', { times: 5 });
    mock.reset();
    expect((await call('GET', '/v1/me', { token: mock.tokens.owner })).status).toBe(200);
  });
});
