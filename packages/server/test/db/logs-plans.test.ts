/**
 * The plan catalogue and the log import agree (docs/plans.md, docs/decisions/logs.md): a plan
 * whose tokens may not write has no log limit, and its tokens' uploads are refused by the API
 * access, naming the plan that lifts it; a plan that writes takes an upload up to its limit.
 * Over HTTP, on both databases.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ logs: { resolver: null } });
});
afterAll(async () => {
  await h?.close();
});

const LINE = '192.0.2.1 - - [09/Mar/2026:08:00:00 +0000] "GET / HTTP/1.1" 200 1 "-" "Firefox"\n';

async function asPlan(plan: string) {
  const token = await h.tokenFor({ team: `team-${plan}`, plan });
  const call = (method: string, path: string, init: RequestInit = {}) => fetch(`${h.url}${path}`, { ...init, method, headers: { authorization: `Bearer ${token}`, ...(init.headers as Record<string, string>) } });
  return { token, call };
}

describe('log uploads by plan', () => {
  it('free and starter: no log limit, and their uploads are refused by the API access with the plan that lifts it', async () => {
    // A project of the agency team: the plan check comes before the project is looked up.
    const project = (await (await h.call('POST', '/v1/projects', { body: { url: 'https://example.com/', name: 'Plans' } })).json()).data.id;
    for (const [plan, code, upgrade] of [
      ['free', 'api.not_in_plan', 'starter'],
      ['starter', 'api.write_not_in_plan', 'pro'],
    ] as const) {
      const { call } = await asPlan(plan);
      if (plan === 'starter') {
        const me = (await (await call('GET', '/v1/me')).json()).data;
        expect(me.api_access).toEqual(['read']);
      }
      const res = await call('POST', `/v1/projects/${project}/log-imports`, { headers: { 'content-type': 'text/plain' }, body: LINE });
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ code, upgrade_to: upgrade });
    }
  });

  it('pro: an upload within its limit is taken; one announced above it is 413 naming agency, never a read-only plan', async () => {
    const { call, token } = await asPlan('pro');
    const project = (await (await call('POST', '/v1/projects', { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: 'https://example.com/', name: 'Pro' }) })).json()).data.id;
    const ok = await call('POST', `/v1/projects/${project}/log-imports`, { headers: { 'content-type': 'text/plain' }, body: LINE });
    expect(ok.status).toBe(202);
    // 2 GiB announced, none sent: refused on the announced length before a byte is read.
    const tooLarge = await new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
      const req = request(`${h.url}/v1/projects/${project}/log-imports`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain', 'content-length': String(2 * 1024 ** 3) } }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) as Record<string, unknown> }));
      });
      req.on('error', reject);
      req.flushHeaders();
    });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body).toMatchObject({ code: 'log_import.too_large', upgrade_to: 'agency' });
    await h.server.jobs.idle();
  });
});
