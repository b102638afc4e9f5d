import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMockApi } from '../src/index.js';

// Another base URL with a path, work finished before each request, and no SERP provider.
const BASE = 'https://mock.test/api';
const mock = createMockApi({ baseUrl: `${BASE}/`, autoAdvance: true, serp: false, seed: 42 });
const server = setupServer(...mock.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => mock.reset());
afterAll(() => server.close());

const send = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(`${BASE}${path}`, {
    method,
    headers: { Authorization: `Bearer ${mock.tokens.owner}`, ...(body ? { 'Content-Type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, headers: res.headers, body: res.status === 204 ? null : await res.json() };
};

describe('options', () => {
  it('answers under another base URL, with Location headers under its path', async () => {
    const { campaignId } = mock.seed.teamWithProject();
    const launched = await send('POST', `/v1/campaigns/${campaignId}/crawls`, undefined, { 'Idempotency-Key': 'k1' });
    expect(launched.status).toBe(202);
    expect(launched.headers.get('location')).toBe(`/api/v1/crawls/${launched.body.data.id}`);
  });

  it('autoAdvance: pending work is finished before the next request, so polling ends', async () => {
    const { campaignId } = mock.seed.teamWithProject();
    const launched = await send('POST', `/v1/campaigns/${campaignId}/crawls`, undefined, { 'Idempotency-Key': 'k2' });
    expect(launched.body.data.status).toBe('queued');
    const polled = await send('GET', `/v1/crawls/${launched.body.data.id}`);
    expect(polled.body.data).toMatchObject({ status: 'completed', active: false, stage_plan: { settled: true } });
  });

  it('serp: false behaves like a server without a SERP provider: checks measure nothing', async () => {
    const { projectId } = mock.seed.trackedKeywords({ keywords: ['alpha'] });
    const check = await send('POST', `/v1/projects/${projectId}/tracked-keywords/check`, { keyword: 'alpha' }, { 'Idempotency-Key': 'k3' });
    expect(check.status).toBe(202);
    const positions = await send('GET', `/v1/projects/${projectId}/positions`);
    expect(positions.body.data.status).toBe('pending');
    expect(positions.body.data.keywords[0]).toMatchObject({ keyword: 'alpha', measured: false, position: null });
  });
});
