import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('smoke', () => {
  it('answers /v1/me', async () => {
    const res = await h.call('GET', '/v1/me');
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.data.team.slug).toBe('acme');
  });
  it('creates and lists projects', async () => {
    const res = await h.call('POST', '/v1/projects', { body: { url: 'http://127.0.0.1:9/' } });
    expect(res.status).toBe(201);
    const list = await (await h.call('GET', '/v1/projects')).json();
    expect(list.data).toHaveLength(1);
  });
});
