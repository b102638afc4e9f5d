/** `failNext`: the mock's way to force an answer (the rate-limit rules themselves are in tests/rules). */
import { describe, expect, it } from 'vitest';
import { call, useMock } from './helpers.js';

const mock = useMock();

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
