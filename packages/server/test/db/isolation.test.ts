/**
 * Every resource belongs to a team; another team's resource answers 404, never 403, exactly
 * like an identifier that names nothing (spec: What the service does). Nothing leaks and
 * nothing changes.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { stable } from '../../../../tests/support/http.js';

let h: Harness;
let intruder: string;
let project: { id: string; name: string };
let campaign: { id: string; name: string };

const campaignBody = { name: 'Theirs', start_url: 'https://acme.example/', max_depth: 3, max_urls: 100 };

beforeAll(async () => {
  h = await startHarness();
  intruder = await h.tokenFor({ team: 'globex' });
  project = (await (await h.call('POST', '/v1/projects', { body: { url: 'https://acme.example/', name: 'Acme site' } })).json()).data;
  campaign = (await (await h.call('POST', `/v1/projects/${project.id}/campaigns`, { body: { ...campaignBody, name: 'Acme campaign' } })).json()).data;
});
afterAll(() => h.close());

/** The intruder's answer on the real id must equal the answer on an id that names nothing. */
async function expectSameAsMissing(method: string, path: (id: string) => string, realId: string, body?: unknown): Promise<void> {
  const theirs = await h.call(method, path(realId), { token: intruder, body });
  const missing = await h.call(method, path(randomUUID()), { token: intruder, body });
  expect(theirs.status).toBe(404);
  expect(missing.status).toBe(404);
  expect(theirs.headers.get('content-type')).toBe(missing.headers.get('content-type'));
  const a = stable(await theirs.json());
  const b = stable(await missing.json());
  expect(a).toEqual(b);
  expect(a.code).toBe('not_found');
}

describe("another team's project", () => {
  it('answers 404 on GET, PATCH, DELETE and its sub-lists, like a missing id', async () => {
    await expectSameAsMissing('GET', (id) => `/v1/projects/${id}`, project.id);
    await expectSameAsMissing('PATCH', (id) => `/v1/projects/${id}`, project.id, { name: 'Hijacked' });
    await expectSameAsMissing('DELETE', (id) => `/v1/projects/${id}`, project.id);
    await expectSameAsMissing('GET', (id) => `/v1/projects/${id}/campaigns`, project.id);
    await expectSameAsMissing('POST', (id) => `/v1/projects/${id}/campaigns`, project.id, campaignBody);
  });

  it('is not listed, and the intruder changed nothing', async () => {
    const list = await (await h.call('GET', '/v1/projects', { token: intruder })).json();
    expect(list.data).toEqual([]);

    const still = await h.call('GET', `/v1/projects/${project.id}`);
    expect(still.status).toBe(200);
    expect((await still.json()).data).toEqual(project);
    const campaigns = (await (await h.call('GET', `/v1/projects/${project.id}/campaigns`)).json()).data;
    expect(campaigns.map((c: { name: string }) => c.name).sort()).toEqual(['Acme campaign', 'Acme site']);
  });
});

describe("another team's campaign", () => {
  it('answers 404 on GET, PATCH and DELETE, like a missing id', async () => {
    await expectSameAsMissing('GET', (id) => `/v1/campaigns/${id}`, campaign.id);
    await expectSameAsMissing('PATCH', (id) => `/v1/campaigns/${id}`, campaign.id, { name: 'Hijacked' });
    await expectSameAsMissing('DELETE', (id) => `/v1/campaigns/${id}`, campaign.id);
  });

  it('is left untouched', async () => {
    const still = await h.call('GET', `/v1/campaigns/${campaign.id}`);
    expect(still.status).toBe(200);
    expect((await still.json()).data).toEqual(campaign);
  });
});

describe('resources of the same team', () => {
  it('are shared by every member of the team', async () => {
    const colleague = await h.tokenFor({ team: 'acme', role: 'member' });
    const res = await h.call('GET', `/v1/campaigns/${campaign.id}`, { token: colleague });
    expect(res.status).toBe(200);
  });
});
