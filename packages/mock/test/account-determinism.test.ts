import { Me } from '@siteaudit/schema';
import { describe, expect, it } from 'vitest';
import { createMockApi } from '../src/index.js';
import { call, useMock } from './helpers.js';

const mock = useMock({ scenarios: ['completedCrawl'] });

describe('account', () => {
  it('describes the current token, its holder, team and plan', async () => {
    const me = Me.parse((await call('GET', '/v1/me', { token: mock.tokens.owner })).body.data);
    expect(me).toMatchObject({ user: { email: 'owner@acme.test' }, team: { slug: 'acme' }, plan: { key: 'agency', label: 'Agency' }, api_access: ['read', 'write'] });
    expect(me.token.last_used_at).toBe('2026-01-15T10:00:00.000Z');
    expect(me.token.scopes).toContain('webhooks:write');
    const starter = Me.parse((await call('GET', '/v1/me', { token: mock.tokens.readOnly })).body.data);
    expect(starter.api_access).toEqual(['read']);
    expect(starter.token.scopes.every((s) => s.endsWith(':read'))).toBe(true);
  });

  it('lists the team running operations with meta { total, shown }', async () => {
    const res = await call('GET', '/v1/operations', { token: mock.tokens.owner });
    expect(res.body).toEqual({ data: [], meta: { total: 0, shown: 0 } });
    expect((await call('GET', '/v1/operations', { token: mock.tokens.owner, query: { limit: 5 } })).status).toBe(422);
  });
});

describe('seed, scenarios and reset', () => {
  it('seeds the scenarios option at creation and again, identical, on every reset', async () => {
    const first = mock.scenarios.completedCrawl!;
    expect((await call('GET', `/v1/crawls/${first.crawlId}`, { token: first.token })).body.data.stage_plan.settled).toBe(true);
    await call('POST', '/v1/projects', { token: mock.tokens.owner, body: { url: 'https://extra.example.org' } });
    mock.advance(3_600_000);
    mock.reset();
    expect(mock.scenarios.completedCrawl).toEqual(first);
    expect(mock.now().toISOString()).toBe('2026-01-15T10:00:00.000Z');
    const projects = await call('GET', '/v1/projects', { token: mock.tokens.owner });
    expect(projects.body.data.map((p: { id: string }) => p.id)).toEqual([first.projectId]);
  });

  it('derives ids and tokens from the seed', () => {
    const a = createMockApi({ seed: 7 });
    const b = createMockApi({ seed: 7 });
    const c = createMockApi({ seed: 8 });
    expect(a.tokens).toEqual(b.tokens);
    expect(a.tokens.owner).not.toBe(c.tokens.owner);
    expect(a.tokens.owner).toMatch(/^sa_[A-Za-z0-9_-]{20,100}$/);
    const ids = [a.seed.completedCrawl(), b.seed.completedCrawl(), c.seed.completedCrawl()];
    expect(ids[0]).toEqual(ids[1]);
    expect(ids[0].crawlId).not.toBe(ids[2].crawlId);
    expect(ids[0].crawlId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('answers on another base URL and with another clock', async () => {
    const other = createMockApi({ baseUrl: 'https://mock.test/api/', now: () => new Date('2030-06-01T00:00:00Z') });
    expect(other.handlers.length).toBe(53); // 52 operations (40 of the spec, 12 extensions) and the catch-all
    expect(other.now().toISOString()).toBe('2030-06-01T00:00:00.000Z');
    expect(other.advance(1_500).toISOString()).toBe('2030-06-01T00:00:01.500Z');
  });
});
