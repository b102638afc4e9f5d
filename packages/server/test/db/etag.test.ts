/**
 * Conditional requests (the spec's "Caching"): every 200 GET carries an ETag;
 * If-None-Match with a matching tag (weak comparison, lists, `*`) answers 304 with the ETag and
 * no body; a 304 costs nothing; a change of the resource changes the ETag.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { manualClock } from '../../../../tests/support/http.js';

const time = manualClock('2025-03-12T10:00:10.000Z');
let h: Harness;
let project: { id: string };
let campaignId: string;

beforeAll(async () => {
  h = await startHarness({ clock: time.clock });
  project = (await (await h.call('POST', '/v1/projects', { body: { url: 'https://etag.example/', name: 'Tagged' } })).json()).data;
  campaignId = (await (await h.call('GET', `/v1/projects/${project.id}/campaigns`)).json()).data[0].id;
});
afterAll(() => h.close());

async function etagOf(path: string): Promise<string> {
  const res = await h.call('GET', path);
  expect(res.status).toBe(200);
  const etag = res.headers.get('etag');
  expect(etag).toBeTruthy();
  return etag!;
}

async function expectNotModified(path: string, ifNoneMatch: string, etag: string): Promise<Response> {
  const res = await h.call('GET', path, { headers: { 'if-none-match': ifNoneMatch } });
  expect(res.status).toBe(304);
  expect(res.headers.get('etag')).toBe(etag);
  expect(await res.text()).toBe('');
  return res;
}

describe('ETag', () => {
  it('is on every 200 GET', async () => {
    for (const path of ['/v1/projects', `/v1/projects/${project.id}`, `/v1/projects/${project.id}/campaigns`, `/v1/campaigns/${campaignId}`, '/v1/me', '/v1/usage', '/v1/operations']) {
      const res = await h.call('GET', path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('etag'), path).toMatch(/^(W\/)?"[^"]+"$/);
    }
  });

  it('is stable while the resource is unchanged', async () => {
    expect(await etagOf(`/v1/projects/${project.id}`)).toBe(await etagOf(`/v1/projects/${project.id}`));
    expect(await etagOf('/v1/projects')).toBe(await etagOf('/v1/projects'));
  });

  it('is not on refusals', async () => {
    const res = await h.call('GET', `/v1/projects/${project.id}`, { token: null });
    expect(res.status).toBe(401);
    expect(res.headers.get('etag')).toBeNull();
  });
});

describe('If-None-Match', () => {
  const path = () => `/v1/projects/${project.id}`;

  it('answers 304 to the ETag sent back as is', async () => {
    const etag = await etagOf(path());
    const res = await expectNotModified(path(), etag, etag);
    expect(res.headers.get('cache-control')).toBe((await h.call('GET', path())).headers.get('cache-control'));
    expect(res.headers.get('vary')).toMatch(/Authorization/);
  });

  it('compares weakly: the strong and W/ forms of the tag both match', async () => {
    const etag = await etagOf(path());
    const opaque = etag.replace(/^W\//, '');
    await expectNotModified(path(), opaque, etag);
    await expectNotModified(path(), `W/${opaque}`, etag);
  });

  it('matches one tag of a list, and *', async () => {
    const etag = await etagOf(path());
    await expectNotModified(path(), `"nope", ${etag}, W/"other"`, etag);
    await expectNotModified(path(), `"nope",${etag}`, etag);
    await expectNotModified(path(), '*', etag);
  });

  it('answers 200 with the body when no tag matches', async () => {
    for (const header of ['"nope"', 'W/"nope"', '"a", "b"']) {
      const res = await h.call('GET', path(), { headers: { 'if-none-match': header } });
      expect(res.status).toBe(200);
      expect((await res.json()).data.id).toBe(project.id);
    }
  });

  it('works on lists', async () => {
    const etag = await etagOf('/v1/projects');
    await expectNotModified('/v1/projects', etag, etag);
  });

  it('is evaluated after authentication and lookup: * on nothing is still 401 or 404', async () => {
    expect((await h.call('GET', path(), { token: null, headers: { 'if-none-match': '*' } })).status).toBe(401);
    const other = await h.tokenFor({ team: 'elsewhere' });
    expect((await h.call('GET', path(), { token: other, headers: { 'if-none-match': '*' } })).status).toBe(404);
    expect((await h.call('GET', '/v1/projects/00000000-0000-4000-8000-000000000000', { headers: { 'if-none-match': '*' } })).status).toBe(404);
  });
});

describe('a 304 costs nothing', () => {
  it('reports cost 0 and leaves the remaining units unchanged', async () => {
    const first = await h.call('GET', `/v1/projects/${project.id}`);
    const etag = first.headers.get('etag')!;
    const remaining = Number(first.headers.get('x-ratelimit-remaining'));
    expect(first.headers.get('x-request-cost')).toBe('1');

    for (let i = 0; i < 3; i++) {
      const res = await expectNotModified(`/v1/projects/${project.id}`, etag, etag);
      expect(res.headers.get('x-request-cost')).toBe('0');
      expect(Number(res.headers.get('x-ratelimit-remaining'))).toBe(remaining);
    }

    const next = await h.call('GET', `/v1/projects/${project.id}`);
    expect(Number(next.headers.get('x-ratelimit-remaining'))).toBe(remaining - 1);
    const usage = (await (await h.call('GET', '/v1/usage')).json()).data;
    const minute = usage.rate_limits.find((w: { window: string }) => w.window === 'minute');
    expect(minute.remaining).toBe(remaining - 2);
  });
});

describe('a change of the resource', () => {
  it('changes the ETag, and the old tag no longer matches', async () => {
    const before = await etagOf(`/v1/projects/${project.id}`);
    const listBefore = await etagOf('/v1/projects');
    const patch = await h.call('PATCH', `/v1/projects/${project.id}`, { body: { name: 'Renamed' } });
    expect(patch.status).toBe(200);

    const after = await etagOf(`/v1/projects/${project.id}`);
    expect(after).not.toBe(before);
    expect(await etagOf('/v1/projects')).not.toBe(listBefore);

    const res = await h.call('GET', `/v1/projects/${project.id}`, { headers: { 'if-none-match': before } });
    expect(res.status).toBe(200);
    expect((await res.json()).data.name).toBe('Renamed');
  });

  it('changes the campaign ETag on a campaign update', async () => {
    const before = await etagOf(`/v1/campaigns/${campaignId}`);
    expect((await h.call('PATCH', `/v1/campaigns/${campaignId}`, { body: { max_depth: 2 } })).status).toBe(200);
    expect(await etagOf(`/v1/campaigns/${campaignId}`)).not.toBe(before);
  });
});
