/**
 * The same resource deleted by several requests at once: one answers 204, the others 404, as
 * they would one after the other (spec: "404 not_found" for a resource that is not there). Each
 * request found the resource before any deletion ran; the DELETE's own row count decides.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';

const RACERS = 6;
let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

async function created(path: string, body: unknown): Promise<{ id: string }> {
  const res = await h.call('POST', path, { body });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()).data;
}

/** Sends RACERS DELETEs of `path` together: their statuses, sorted. */
async function deletedTogether(path: string): Promise<number[]> {
  const answers = await Promise.all(Array.from({ length: RACERS }, () => h.call('DELETE', path)));
  return answers.map((a) => a.status).sort();
}

const ONE_DELETED = [204, ...Array.from({ length: RACERS - 1 }, () => 404)];

describe('DELETEs of one resource sent together', () => {
  it('a project: one 204, the others 404', async () => {
    for (let i = 0; i < 3; i++) {
      const project = await created('/v1/projects', { url: `https://delete-race-${i}.example.com/` });
      expect(await deletedTogether(`/v1/projects/${project.id}`)).toEqual(ONE_DELETED);
    }
  });

  it('a campaign: one 204, the others 404', async () => {
    const project = await created('/v1/projects', { url: 'https://campaign-race.example.com/' });
    for (let i = 0; i < 3; i++) {
      const campaign = await created(`/v1/projects/${project.id}/campaigns`, { name: `race ${i}`, start_url: 'https://campaign-race.example.com/', max_depth: 1, max_urls: 10 });
      expect(await deletedTogether(`/v1/campaigns/${campaign.id}`)).toEqual(ONE_DELETED);
    }
  });

  it('a webhook: one 204, the others 404', async () => {
    for (let i = 0; i < 3; i++) {
      const hook = await created('/v1/webhooks', { url: `https://hooks-${i}.example.com/in`, events: ['crawl.completed'] });
      expect(await deletedTogether(`/v1/webhooks/${hook.id}`)).toEqual(ONE_DELETED);
    }
  });

  it('a log import: one 204, the others 404', async () => {
    const project = await created('/v1/projects', { url: 'https://logs-race.example.com/' });
    // No crawler's name in it: nothing to verify by DNS.
    const log = gzipSync('192.0.2.46 - - [09/Mar/2026:08:00:00 +0000] "GET / HTTP/1.1" 200 512 "-" "curl/8.0"\n');
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${h.url}/v1/projects/${project.id}/log-imports`, {
        method: 'POST',
        headers: { authorization: `Bearer ${h.token}`, 'content-type': 'application/gzip', 'idempotency-key': `race-${i}` },
        body: log,
      });
      expect(res.status, await res.clone().text()).toBe(202);
      const { id } = (await res.json()).data;
      await h.server.jobs.idle();
      expect(await deletedTogether(`/v1/projects/${project.id}/log-imports/${id}`)).toEqual(ONE_DELETED);
    }
  });
});
