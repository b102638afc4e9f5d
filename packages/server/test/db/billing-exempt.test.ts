import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('operations never refused by billing', () => {
  it('lets a team whose plan lost API write access delete its webhook and untrack keywords, and nothing else', async () => {
    const token = await h.tokenFor({ team: 'downgraded', plan: 'pro' });
    const hook = (await (await h.call('POST', '/v1/webhooks', { token, body: { url: 'https://127.0.0.1:9/hook', events: ['crawl.completed'] } })).json()).data;
    const project = (await (await h.call('POST', '/v1/projects', { token, body: { url: 'http://127.0.0.1:9/' } })).json()).data;
    const tracked = await h.call('POST', `/v1/projects/${project.id}/tracked-keywords`, { token, body: { keywords: ['audit'] }, headers: { 'idempotency-key': 'k1' } });
    expect(tracked.status).toBe(200);

    await h.server.admin.setPlan({ team: 'downgraded', plan: 'starter' });

    const refused = await h.call('POST', '/v1/webhooks', { token, body: { url: 'https://127.0.0.1:9/other', events: ['crawl.completed'] } });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'api.write_not_in_plan', upgrade_to: 'pro' });

    const untracked = await h.call('POST', `/v1/projects/${project.id}/tracked-keywords/untrack`, { token, body: { keywords: ['audit'] } });
    expect(untracked.status).toBe(200);
    expect((await untracked.json()).data.untracked).toEqual(['audit']);

    expect((await h.call('DELETE', `/v1/webhooks/${hook.id}`, { token })).status).toBe(204);
    expect((await h.call('GET', `/v1/webhooks/${hook.id}`, { token })).status).toBe(404);
  });
});
