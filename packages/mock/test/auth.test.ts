import { describe, expect, it } from 'vitest';
import { DEFAULT_AUTH_FAILURES_PER_MINUTE } from '@siteaudit/schema/rules';
import { call, useMock } from './helpers.js';

const mock = useMock();

describe('authentication and authorisation', () => {
  it('answers 401 unauthenticated without a token, with an unknown one, or an expired one', async () => {
    for (const token of [null, 'sa_test_not_a_real_token_at_all', mock.tokens.expired]) {
      const res = await call('GET', '/v1/projects', { token });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('unauthenticated');
    }
  });

  it('answers 429 rate_limited with Retry-After past the failed authentications of a minute, as the server; valid tokens still pass', async () => {
    for (let i = 0; i < DEFAULT_AUTH_FAILURES_PER_MINUTE; i++) expect((await call('GET', '/v1/me', { token: `sa_unknown_token_number_${i}` })).status).toBe(401);
    const refused = await call('GET', '/v1/me', { token: 'sa_one_more_unknown_token' });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'rate_limited', window: 'minute', upgrade_to: null });
    expect(refused.headers.get('retry-after')).toBe(String(refused.body.retry_after));
    expect((await call('GET', '/v1/me', { token: mock.tokens.owner })).status).toBe(200);
    mock.advance(refused.body.retry_after * 1000);
    expect((await call('GET', '/v1/me', { token: 'sa_one_more_unknown_token' })).status).toBe(401);
  });

  it('stops a token when its holder leaves the team', async () => {
    const { token } = mock.admin.createToken({ team: 'acme', member: 'member@acme.test', name: 'ci', scopes: ['projects:read'] });
    expect((await call('GET', '/v1/projects', { token })).status).toBe(200);
    mock.admin.removeMember({ team: 'acme', email: 'member@acme.test' });
    expect((await call('GET', '/v1/projects', { token })).body.code).toBe('unauthenticated');
  });

  it('lists teams, members and tokens (never a secret) and revokes a token, which then stops working, as server.admin does', async () => {
    mock.admin.createTeam({ slug: 'listed', name: 'Listed', plan: 'agency' });
    mock.admin.addMember({ team: 'listed', email: 'ann@listed.test', name: 'Ann', role: 'owner' });
    mock.admin.addMember({ team: 'listed', email: 'bob@listed.test', name: 'Bob', role: 'member' });
    const kept = mock.admin.createToken({ team: 'listed', member: 'ann@listed.test', name: 'kept', scopes: ['projects:read'] });
    const revoked = mock.admin.createToken({ team: 'listed', member: 'bob@listed.test', name: 'revoked', scopes: ['projects:read'] });
    mock.admin.removeMember({ team: 'listed', email: 'bob@listed.test' });

    expect(mock.admin.listTeams().find((t) => t.slug === 'listed')).toMatchObject({ name: 'Listed', plan: 'agency', members: 1 });
    expect(mock.admin.listMembers({ team: 'listed' }).map((m) => [m.email, m.role, m.removed_at === null])).toEqual([
      ['ann@listed.test', 'owner', true],
      ['bob@listed.test', 'member', false],
    ]);
    const tokens = mock.admin.listTokens({ team: 'listed' });
    expect(tokens.map((t) => [t.name, t.member, t.active])).toEqual([
      ['kept', 'ann@listed.test', true],
      ['revoked', 'bob@listed.test', false],
    ]);
    expect(JSON.stringify(tokens)).not.toContain(kept.token);
    expect(mock.admin.listTokens({ team: 'listed', member: 'ANN@listed.test' }).map((t) => t.name)).toEqual(['kept']);

    expect((await call('GET', '/v1/projects', { token: kept.token })).status).toBe(200);
    expect(mock.admin.revokeToken({ team: 'listed', id: kept.id })).toEqual({ team: 'listed', id: kept.id, name: 'kept', revoked: true });
    expect((await call('GET', '/v1/projects', { token: kept.token })).body.code).toBe('unauthenticated');
    expect(() => mock.admin.revokeToken({ team: 'listed', id: revoked.id.replace(/.$/, (c) => (c === '0' ? '1' : '0')) })).toThrow(/no token/);
    expect(() => mock.admin.revokeToken({ team: 'acme', id: revoked.id })).toThrow(/no token/);
  });

  it('deletes a team with everything of it, as server.admin.deleteTeam does; other teams keep theirs', async () => {
    mock.admin.createTeam({ slug: 'leaving', name: 'Leaving', plan: 'agency' });
    mock.admin.addMember({ team: 'leaving', email: 'owner@leaving.test', name: 'Owner', role: 'owner' });
    const { token } = mock.admin.createToken({ team: 'leaving', member: 'owner@leaving.test', name: 'ci', scopes: ['projects:read', 'projects:write', 'webhooks:write', 'crawls:write'] });
    const project = (await call('POST', '/v1/projects', { token, body: { url: 'https://leaving.example/' } })).body.data;
    expect((await call('POST', '/v1/webhooks', { token, body: { url: 'https://hooks.example.com/leaving', events: ['crawl.completed'] } })).status).toBe(201);
    const others = (await call('GET', '/v1/projects', { token: mock.tokens.owner })).body.data.length;

    const teamId = [...mock.db.teams.values()].find((t) => t.slug === 'leaving')!.id;
    expect([...mock.db.webhooks.values()].filter((w) => w.team_id === teamId)).toHaveLength(1);
    expect(mock.admin.deleteTeam('leaving')).toEqual({ projects: 1 });
    expect((await call('GET', '/v1/projects', { token })).body.code).toBe('unauthenticated');
    const team = [...mock.db.teams.values()].find((t) => t.slug === 'leaving');
    expect(team).toBeUndefined();
    expect(mock.db.projects.has(project.id)).toBe(false);
    for (const map of [mock.db.tokens, mock.db.members, mock.db.webhooks, mock.db.deliveries, mock.db.projects, mock.db.campaigns, mock.db.crawls]) {
      expect([...map.values()].filter((r) => r.team_id === teamId)).toEqual([]);
    }
    expect((await call('GET', '/v1/projects', { token: mock.tokens.owner })).body.data.length).toBe(others);
    expect(() => mock.admin.deleteTeam('leaving')).toThrow(/no team "leaving"/);
  });

  it('refuses a plan without the API with api.not_in_plan naming the plan that lifts it', async () => {
    const res = await call('GET', '/v1/me', { token: mock.tokens.free });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'api.not_in_plan', upgrade_to: 'starter' });
  });

  it('refuses writes on a read-only plan with api.write_not_in_plan', async () => {
    const res = await call('POST', '/v1/projects', { token: mock.tokens.readOnly, body: { url: 'https://example.org' } });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'api.write_not_in_plan', upgrade_to: 'pro' });
    expect((await call('GET', '/v1/projects', { token: mock.tokens.readOnly })).status).toBe(200);
  });

  it('refuses a missing scope with token.missing_scope and required_scopes; write never implies read', async () => {
    const { token } = mock.admin.createToken({ team: 'acme', member: 'owner@acme.test', name: 'writer', scopes: ['projects:write'] });
    const res = await call('GET', '/v1/projects', { token });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'token.missing_scope', required_scopes: ['projects:read'] });
    expect((await call('GET', '/v1/me', { token })).status).toBe(200); // scope none
  });

  it('reserves webhooks to owners and admins: a member answers 403 role.forbidden', async () => {
    const res = await call('GET', '/v1/webhooks', { token: mock.tokens.member });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('role.forbidden');
    expect((await call('GET', '/v1/projects', { token: mock.tokens.member })).status).toBe(200);
  });

  it("answers 404 for another team's resource, never 403", async () => {
    const { projectId, crawlId } = mock.seed.completedCrawl();
    for (const path of [`/v1/projects/${projectId}`, `/v1/crawls/${crawlId}`, `/v1/projects/${projectId}/campaigns`]) {
      const res = await call('GET', path, { token: mock.tokens.readOnly });
      expect(res.status, path).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
    const del = await call('DELETE', `/v1/projects/${projectId}`, { token: mock.tokens.pro });
    expect(del.status).toBe(404);
    expect((await call('GET', `/v1/projects/${projectId}`, { token: mock.tokens.owner })).status).toBe(200);
  });

  it('answers 404 for a malformed UUID in the path, 404 for an unknown route and 405 for a wrong method', async () => {
    const bad = await call('GET', '/v1/projects/not-a-uuid', { token: mock.tokens.owner });
    expect(bad.status).toBe(404);
    expect(bad.body.code).toBe('not_found');
    const unknown = await call('GET', '/v1/nothing-here', { token: mock.tokens.owner });
    expect(unknown.status).toBe(404);
    const wrong = await call('PUT', '/v1/projects', { token: mock.tokens.owner });
    expect(wrong.status).toBe(405);
    expect(wrong.body.code).toBe('method_not_allowed');
    expect(wrong.headers.get('allow')).toBe('GET, HEAD, POST');
  });
});
