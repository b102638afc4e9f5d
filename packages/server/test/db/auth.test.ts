/**
 * Authentication at the HTTP boundary (spec: Authentication): a missing, malformed, unknown or
 * expired token, or one whose holder left the team, answers 401 `unauthenticated`; tokens are
 * stored as hashes only; lifetime 90 days by default, 365 at most; `last_used_at` in /v1/me.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminError } from '../../src/index.js';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { DAY_MS, expectProblem, manualClock } from '../../../../tests/support/http.js';

const START = '2025-03-12T10:30:00.000Z';
const time = manualClock(START);
let h: Harness;

beforeAll(async () => {
  h = await startHarness({ clock: time.clock });
});
afterAll(() => h.close());

async function expectUnauthenticated(res: Response): Promise<void> {
  await expectProblem(res, 401, 'unauthenticated');
  expect(res.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
}

async function newMemberToken(email: string, days?: number) {
  await h.server.admin.addMember({ team: 'acme', email, name: 'Member', role: 'member' });
  return h.server.admin.createToken({ team: 'acme', member: email, name: 'ci', scopes: ['projects:read'], days });
}

describe('401 unauthenticated', () => {
  it('answers a request without Authorization', async () => {
    await expectUnauthenticated(await h.call('GET', '/v1/projects', { token: null }));
    await expectUnauthenticated(await h.call('GET', '/v1/me', { token: null }));
  });

  it('answers malformed Authorization headers', async () => {
    for (const authorization of ['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer ', `Token ${h.token}`, `Bearer ${h.token} extra`, 'Bearer not-a-token', `${h.token}`]) {
      await expectUnauthenticated(await h.call('GET', '/v1/projects', { token: null, headers: { authorization } }));
    }
  });

  it('answers a well-formed token that was never issued', async () => {
    const forged = `sa_${'A'.repeat(43)}`;
    await expectUnauthenticated(await h.call('GET', '/v1/projects', { token: forged }));
    // A real token with one character changed is just as unknown.
    const last = h.token.at(-1) === 'A' ? 'B' : 'A';
    await expectUnauthenticated(await h.call('GET', '/v1/projects', { token: `${h.token.slice(0, -1)}${last}` }));
  });

  it('accepts the scheme name in any case', async () => {
    const res = await h.call('GET', '/v1/me', { token: null, headers: { authorization: `bearer ${h.token}` } });
    expect(res.status).toBe(200);
  });

  it('answers an expired token, and only once it has expired', async () => {
    time.set(START);
    const { token, expires_at } = await newMemberToken('expiring@acme.test', 1);
    expect(expires_at).toBe(new Date(time.now().getTime() + DAY_MS).toISOString());

    time.advance(DAY_MS - 1000);
    expect((await h.call('GET', '/v1/projects', { token })).status).toBe(200);

    time.set(expires_at);
    await expectUnauthenticated(await h.call('GET', '/v1/projects', { token }));
    time.advance(1000);
    await expectUnauthenticated(await h.call('GET', '/v1/projects', { token }));
    time.set(START);
  });

  it("answers a removed member's token, even after the member joins again", async () => {
    const { token } = await newMemberToken('leaver@acme.test');
    expect((await h.call('GET', '/v1/projects', { token })).status).toBe(200);

    await h.server.admin.removeMember({ team: 'acme', email: 'leaver@acme.test' });
    await expectUnauthenticated(await h.call('GET', '/v1/projects', { token }));

    await h.server.admin.addMember({ team: 'acme', email: 'leaver@acme.test', name: 'Back', role: 'member' });
    await expectUnauthenticated(await h.call('GET', '/v1/projects', { token }));
  });

  it('answers the same way whatever the reason, so nothing can be probed', async () => {
    const { token } = await newMemberToken('probe@acme.test');
    await h.server.admin.removeMember({ team: 'acme', email: 'probe@acme.test' });
    const removed = await (await h.call('GET', '/v1/projects', { token })).json();
    const unknown = await (await h.call('GET', '/v1/projects', { token: `sa_${'z'.repeat(43)}` })).json();
    const missing = await (await h.call('GET', '/v1/projects', { token: null })).json();
    for (const body of [removed, unknown, missing]) delete body.request_id;
    expect(removed).toEqual(unknown);
    expect(missing).toEqual(unknown);
  });
});

describe('token storage and lifetime', () => {
  it('stores tokens only as hashes: no column holds the plaintext', async () => {
    const { token, id } = await newMemberToken('hashed@acme.test');
    const secretPart = token.slice(3);
    const rows = await h.knex('tokens').select('*');
    expect(rows.length).toBeGreaterThan(1);
    const own = rows.find((r: { id: string }) => r.id === id);
    expect(own).toBeDefined();
    for (const row of rows) {
      for (const [column, value] of Object.entries(row)) {
        if (value === null || value === undefined) continue;
        const text = String(value);
        expect(text, `tokens.${column}`).not.toContain(secretPart);
        expect(text, `tokens.${column}`).not.toContain(h.token.slice(3));
      }
    }
    // The stored token still authenticates: the hash is what it is checked against.
    expect((await h.call('GET', '/v1/me', { token })).status).toBe(200);
  });

  it('lives 90 days by default and 365 days at most', async () => {
    time.set(START);
    const byDefault = await newMemberToken('default-life@acme.test');
    expect(byDefault.expires_at).toBe(new Date(Date.parse(START) + 90 * DAY_MS).toISOString());
    const me = await (await h.call('GET', '/v1/me', { token: byDefault.token })).json();
    expect(me.data.token.expires_at).toBe(byDefault.expires_at);
    expect(me.data.token.created_at).toBe(START);

    await h.server.admin.addMember({ team: 'acme', email: 'long-life@acme.test', name: 'Long', role: 'member' });
    const longest = await h.server.admin.createToken({ team: 'acme', member: 'long-life@acme.test', name: 'year', scopes: [], days: 365 });
    expect(longest.expires_at).toBe(new Date(Date.parse(START) + 365 * DAY_MS).toISOString());

    for (const days of [366, 0, -1, 1.5]) {
      await expect(h.server.admin.createToken({ team: 'acme', member: 'long-life@acme.test', name: 'x', scopes: [], days })).rejects.toBeInstanceOf(AdminError);
    }
  });

  it('reports last_used_at in /v1/me, moving with each use', async () => {
    time.set(START);
    const { token } = await newMemberToken('user@acme.test');
    time.set('2025-03-13T08:00:00.000Z');
    const first = await (await h.call('GET', '/v1/me', { token })).json();
    expect(first.data.token.last_used_at).toBe('2025-03-13T08:00:00.000Z');
    expect(first.data.token.created_at).toBe(START);

    time.set('2025-03-14T09:15:00.000Z');
    await h.call('GET', '/v1/projects', { token });
    time.set('2025-03-14T09:16:00.000Z');
    const second = await (await h.call('GET', '/v1/me', { token })).json();
    expect(second.data.token.last_used_at).toBe('2025-03-14T09:16:00.000Z');
    time.set(START);
  });
});
