import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { startSite, type Site } from '../../../../tests/support/site.js';

/** A store that refuses every file the way a full or read-only disk would, with a path in its message. */
const brokenStore = {
  async put() {
    throw new Error("EACCES: permission denied, open '/var/lib/siteaudit/exports/secret-path.pdf'");
  },
  async get(): Promise<never> {
    throw new Error('not stored');
  },
  async delete() {},
};

let h: Harness;
let site: Site;
let now = new Date('2026-03-10T10:00:00.000Z');
const logged: unknown[] = [];

beforeAll(async () => {
  h = await startHarness({ clock: () => now, exports: { store: brokenStore as never }, logger: { error: (_message, error) => logged.push(error) } });
  site = await startSite();
});
afterAll(async () => {
  await h.close();
  await site.close();
});

describe('an export that cannot be generated', () => {
  it('ends failed with a catalogue code and a human message, the cause going to the log only', async () => {
    const project = (await (await h.call('POST', '/v1/projects', { body: { url: `${site.url}/` } })).json()).data;
    const campaign = (await (await h.call('GET', `/v1/projects/${project.id}/campaigns`)).json()).data[0];
    const crawl = (await (await h.call('POST', `/v1/campaigns/${campaign.id}/crawls`, { headers: { 'idempotency-key': 'k1' } })).json()).data;
    await h.server.jobs.idle();

    const queued = (await (await h.call('POST', `/v1/crawls/${crawl.id}/exports`, { body: { format: 'pdf' } })).json()).data;
    await h.server.jobs.idle();
    now = new Date(now.getTime() + 60_000); // past the retry's backoff
    await h.server.jobs.idle();

    const failed = (await (await h.call('GET', `/v1/exports/${queued.id}`)).json()).data;
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/^export\.generation_failed: \S.+/);
    expect(failed.error).not.toMatch(/EACCES|secret-path/);
    expect(failed.download_url).toBeNull();
    expect(String(logged.map((e) => (e instanceof Error ? e.message : e)))).toContain('EACCES');
  });
});
