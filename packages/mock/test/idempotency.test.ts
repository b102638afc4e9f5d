import { describe, expect, it } from 'vitest';
import { call, key, useMock } from './helpers.js';

const mock = useMock();

describe('Idempotency-Key', () => {
  it('is required on a crawl launch: 400 idempotency.key_required without it', async () => {
    const { campaignId, token } = mock.seed.teamWithProject();
    const res = await call('POST', `/v1/campaigns/${campaignId}/crawls`, { token });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('idempotency.key_required');
  });

  it('replays the first answer to a retry with the same key and request, without repeating it', async () => {
    const { campaignId, projectId, token } = mock.seed.teamWithProject();
    const headers = { 'Idempotency-Key': key() };
    const first = await call('POST', `/v1/campaigns/${campaignId}/crawls`, { token, headers });
    expect(first.status).toBe(202);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const retry = await call('POST', `/v1/campaigns/${campaignId}/crawls`, { token, headers });
    expect(retry.status).toBe(202);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('location')).toBe(first.headers.get('location'));
    const crawls = await call('GET', `/v1/projects/${projectId}/crawls`, { token });
    expect(crawls.body.data).toHaveLength(1);
    const usage = await call('GET', '/v1/usage', { token });
    expect(usage.body.data.quotas.find((q: { entitlement: string }) => q.entitlement === 'crawls.monthly').used).toBe(1);
  });

  it('answers 409 idempotency.key_reused when the same key comes with another request', async () => {
    const { projectId, token } = mock.seed.teamWithProject();
    const headers = { 'Idempotency-Key': key() };
    await call('POST', `/v1/projects/${projectId}/tracked-keywords`, { token, headers, body: { keywords: ['a'] } });
    const other = await call('POST', `/v1/projects/${projectId}/tracked-keywords`, { token, headers, body: { keywords: ['b'] } });
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('idempotency.key_reused');
  });

  it('honours the key when accepted, and runs again without one', async () => {
    const headers = { 'Idempotency-Key': `"${key()}"` };
    const body = { url: 'https://example.org' };
    const a = await call('POST', '/v1/projects', { token: mock.tokens.owner, headers, body });
    const b = await call('POST', '/v1/projects', { token: mock.tokens.owner, headers, body });
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    expect(b.body.data.id).toBe(a.body.data.id);
    const c = await call('POST', '/v1/projects', { token: mock.tokens.owner, body });
    expect(c.body.data.id).not.toBe(a.body.data.id);
  });

  it('replays business errors, but never stores validation failures', async () => {
    const { campaignId, token } = mock.seed.teamWithProject();
    await call('POST', `/v1/campaigns/${campaignId}/crawls`, { token, headers: { 'Idempotency-Key': key() } });
    const busy = { 'Idempotency-Key': key() };
    const conflict = await call('POST', `/v1/campaigns/${campaignId}/crawls`, { token, headers: busy });
    expect(conflict.body.code).toBe('crawl.already_running');
    mock.advance();
    const replayed = await call('POST', `/v1/campaigns/${campaignId}/crawls`, { token, headers: busy });
    expect(replayed.status).toBe(409);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');

    const k = { 'Idempotency-Key': key() };
    const invalid = await call('POST', `/v1/campaigns/${campaignId}/crawls`, { token, headers: k, body: { force: true } });
    expect(invalid.status).toBe(422);
    const valid = await call('POST', `/v1/campaigns/${campaignId}/crawls`, { token, headers: k });
    expect(valid.status).toBe(202);
  });

  it('refuses an invalid key with 400 idempotency.key_invalid', async () => {
    const { campaignId, token } = mock.seed.teamWithProject();
    const res = await call('POST', `/v1/campaigns/${campaignId}/crawls`, { token, headers: { 'Idempotency-Key': 'x'.repeat(256) } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('idempotency.key_invalid');
  });

  it('scopes keys to the team', async () => {
    const shared = { 'Idempotency-Key': key() };
    const a = await call('POST', '/v1/projects', { token: mock.tokens.owner, headers: shared, body: { url: 'https://a.example.org' } });
    const b = await call('POST', '/v1/projects', { token: mock.tokens.pro, headers: shared, body: { url: 'https://b.example.org' } });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.headers.get('idempotent-replayed')).toBeNull();
  });
});
