/**
 * A call must be allowed by the plan, the role and the scope at once (spec: Authentication 5-8):
 * plan refusals name the plan that lifts them in `upgrade_to`; a missing scope lists
 * `required_scopes`; webhooks are reserved to owners and admins.
 */
import { SCOPES } from '@siteaudit/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { expectProblem } from '../../../../tests/support/http.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

async function projectCount(teamSlug: string): Promise<number> {
  const team = await h.knex('teams').where({ slug: teamSlug }).first('id');
  const [{ count }] = await h.knex('projects').where({ team_id: team.id }).count({ count: '*' });
  return Number(count);
}

describe('plan gate', () => {
  it('refuses every call of a team whose plan has no API, naming starter', async () => {
    const token = await h.tokenFor({ team: 'freebie', plan: 'free' });
    for (const [method, path] of [
      ['GET', '/v1/projects'],
      ['GET', '/v1/me'],
      ['GET', '/v1/usage'],
      ['POST', '/v1/projects'],
    ] as const) {
      const body = await expectProblem(await h.call(method, path, { token, body: method === 'POST' ? { url: 'https://free.example/' } : undefined }), 403, 'api.not_in_plan');
      expect(body.upgrade_to).toBe('starter');
    }
    expect(await projectCount('freebie')).toBe(0);
  });

  it('lets a starter team read but not write, naming pro', async () => {
    const token = await h.tokenFor({ team: 'starter-co', plan: 'starter' });
    const list = await h.call('GET', '/v1/projects', { token });
    expect(list.status).toBe(200);
    expect((await list.json()).data).toEqual([]);
    expect((await h.call('GET', '/v1/me', { token })).status).toBe(200);

    const created = await expectProblem(await h.call('POST', '/v1/projects', { token, body: { url: 'https://starter.example/' } }), 403, 'api.write_not_in_plan');
    expect(created.upgrade_to).toBe('pro');
    expect(await projectCount('starter-co')).toBe(0);
  });

  it('refuses a starter write on an existing resource too, and leaves it unchanged', async () => {
    const token = await h.tokenFor({ team: 'downgraded', plan: 'pro' });
    const project = (await (await h.call('POST', '/v1/projects', { token, body: { url: 'https://down.example/', name: 'Before' } })).json()).data;
    await h.server.admin.setPlan({ team: 'downgraded', plan: 'starter' });

    const patch = await expectProblem(await h.call('PATCH', `/v1/projects/${project.id}`, { token, body: { name: 'After' } }), 403, 'api.write_not_in_plan');
    expect(patch.upgrade_to).toBe('pro');
    await expectProblem(await h.call('DELETE', `/v1/projects/${project.id}`, { token }), 403, 'api.write_not_in_plan');

    const read = await h.call('GET', `/v1/projects/${project.id}`, { token });
    expect(read.status).toBe(200);
    expect((await read.json()).data.name).toBe('Before');
  });

  it('checks the plan before the scope', async () => {
    const token = await h.tokenFor({ team: 'free-noscope', plan: 'free', scopes: [] });
    await expectProblem(await h.call('GET', '/v1/projects', { token }), 403, 'api.not_in_plan');
  });
});

describe('scope gate', () => {
  it('refuses a call without its scope and lists the scope needed', async () => {
    const readOnly = await h.tokenFor({ scopes: ['projects:read'] });
    const body = await expectProblem(await h.call('POST', '/v1/projects', { token: readOnly, body: { url: 'https://scoped.example/' } }), 403, 'token.missing_scope');
    expect(body.required_scopes).toEqual(['projects:write']);
    expect((await h.call('GET', '/v1/projects', { token: readOnly })).status).toBe(200);
  });

  it('does not let a write scope read: projects:write alone cannot GET projects', async () => {
    const writeOnly = await h.tokenFor({ scopes: ['projects:write'] });
    const created = await h.call('POST', '/v1/projects', { token: writeOnly, body: { url: 'https://write-only.example/' } });
    expect(created.status).toBe(201);
    const { id } = (await created.json()).data;

    const list = await expectProblem(await h.call('GET', '/v1/projects', { token: writeOnly }), 403, 'token.missing_scope');
    expect(list.required_scopes).toEqual(['projects:read']);
    const one = await expectProblem(await h.call('GET', `/v1/projects/${id}`, { token: writeOnly }), 403, 'token.missing_scope');
    expect(one.required_scopes).toEqual(['projects:read']);
  });

  it('needs no scope for /v1/me and /v1/usage', async () => {
    const bare = await h.tokenFor({ scopes: [] });
    expect((await h.call('GET', '/v1/me', { token: bare })).status).toBe(200);
    expect((await h.call('GET', '/v1/usage', { token: bare })).status).toBe(200);
    await expectProblem(await h.call('GET', '/v1/operations', { token: bare }), 403, 'token.missing_scope');
  });

  it('names the crawl and webhook scopes of their operations', async () => {
    const bare = await h.tokenFor({ scopes: ['projects:read'] });
    const project = (await (await h.call('POST', '/v1/projects', { body: { url: 'https://scopes.example/' } })).json()).data;
    const crawls = await expectProblem(await h.call('GET', `/v1/projects/${project.id}/crawls`, { token: bare }), 403, 'token.missing_scope');
    expect(crawls.required_scopes).toEqual(['crawls:read']);
    const hooks = await expectProblem(await h.call('GET', '/v1/webhooks', { token: bare }), 403, 'token.missing_scope');
    expect(hooks.required_scopes).toEqual(['webhooks:read']);
  });
});

describe('role gate: webhooks are for owners and admins', () => {
  it('refuses a member with every scope', async () => {
    const member = await h.tokenFor({ role: 'member', scopes: SCOPES });
    await expectProblem(await h.call('GET', '/v1/webhooks', { token: member }), 403, 'role.forbidden');
    await expectProblem(await h.call('POST', '/v1/webhooks', { token: member, body: { url: 'https://hooks.example/', events: ['crawl.completed'] } }), 403, 'role.forbidden');
    // The role gates webhooks only: the same member reads projects.
    expect((await h.call('GET', '/v1/projects', { token: member })).status).toBe(200);
  });

  it('lets an admin and an owner past the role gate', async () => {
    for (const role of ['admin', 'owner'] as const) {
      const token = await h.tokenFor({ role, scopes: SCOPES });
      const res = await h.call('GET', '/v1/webhooks', { token });
      const text = await res.text();
      expect(res.status, text).not.toBe(403);
      expect(text).not.toContain('role.forbidden');
    }
  });

  it('still needs the scope for an admin', async () => {
    const admin = await h.tokenFor({ role: 'admin', scopes: ['projects:read'] });
    const body = await expectProblem(await h.call('GET', '/v1/webhooks', { token: admin }), 403, 'token.missing_scope');
    expect(body.required_scopes).toEqual(['webhooks:read']);
  });
});
