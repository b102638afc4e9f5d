import { describe, expect, it } from 'vitest';
import { createClient, type EtagCacheEntry } from '../src/index.js';
import { fakeFetch, ids, json, page } from './fake-fetch.js';

const project = { id: ids.project, name: 'Example', locked: false };

describe('ETag cache', () => {
  it('sends If-None-Match on the next GET and reuses the cached body on 304', async () => {
    const fake = fakeFetch(json(200, { data: project }, { etag: 'W/"v1"' }), json(304, undefined, { etag: 'W/"v1"' }));
    const client = createClient({ baseUrl: 'https://api.test', token: 't', language: 'en', fetch: fake.fetch, etagCache: true });
    const first = await client.projects.get({ project: ids.project });
    first.name = 'mutated by the caller';
    const second = await client.projects.get({ project: ids.project });
    expect(second).toEqual(project);
    expect(fake.requests[0]!.headers['if-none-match']).toBeUndefined();
    expect(fake.requests[1]!.headers['if-none-match']).toBe('W/"v1"');
  });

  it('accepts a Map-like store, shared between clients', async () => {
    const store = new Map<string, EtagCacheEntry>();
    const fake = fakeFetch(json(200, page([project], null), { etag: '"list-1"' }), json(304));
    const a = createClient({ baseUrl: 'https://api.test', token: 't', fetch: fake.fetch, etagCache: store });
    const b = createClient({ baseUrl: 'https://api.test', token: 't', fetch: fake.fetch, etagCache: store });
    await a.projects.list({ limit: 5 });
    expect([...store.values()]).toEqual([{ etag: '"list-1"', body: JSON.stringify(page([project], null)) }]);
    await expect(b.projects.list({ limit: 5 })).resolves.toEqual(page([project], null));
    expect(fake.requests[1]!.headers['if-none-match']).toBe('"list-1"');
  });

  it('refreshes the entry when the resource changed', async () => {
    const fake = fakeFetch(
      json(200, { data: project }, { etag: '"v1"' }),
      json(200, { data: { ...project, name: 'New' } }, { etag: '"v2"' }),
      json(304),
    );
    const client = createClient({ baseUrl: 'https://api.test', token: 't', fetch: fake.fetch, etagCache: true });
    await client.projects.get({ project: ids.project });
    await client.projects.get({ project: ids.project });
    await expect(client.projects.get({ project: ids.project })).resolves.toMatchObject({ name: 'New' });
    expect(fake.requests.map((r) => r.headers['if-none-match'])).toEqual([undefined, '"v1"', '"v2"']);
  });

  it('keys entries by URL and language, and leaves writes alone', async () => {
    const fake = fakeFetch(json(200, { data: project }, { etag: '"v1"' }));
    const client = createClient({ baseUrl: 'https://api.test', token: 't', fetch: fake.fetch, etagCache: true });
    await client.projects.get({ project: ids.project });
    await client.projects.get({ project: ids.project }, { headers: { 'accept-language': 'en' } });
    await client.projects.get({ project: ids.campaign });
    await client.projects.update({ project: ids.project, name: 'x' });
    expect(fake.requests.map((r) => r.headers['if-none-match'])).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('is off by default', async () => {
    const fake = fakeFetch(json(200, { data: project }, { etag: '"v1"' }));
    const client = createClient({ baseUrl: 'https://api.test', token: 't', fetch: fake.fetch });
    await client.projects.get({ project: ids.project });
    await client.projects.get({ project: ids.project });
    expect(fake.requests[1]!.headers['if-none-match']).toBeUndefined();
  });
});
