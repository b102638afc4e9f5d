/**
 * A crawl's launch racing its campaign's update or deletion: the outcome is one a serial order
 * gives. Either the crawl exists, with the settings the campaign had when it was created, and
 * goes with the campaign when that is deleted, or the launch answers 404; never a 500, never a
 * crawl row left for a deleted campaign.
 *
 * "Held" tests make the race certain: a transaction of the test deletes or updates the campaign
 * and stays open while the launch arrives, then commits. On PostgreSQL it holds the row (and, for
 * the update, the team's row, as a concurrent launch's quota check does): the launch has read the
 * campaign and waits in its transaction, where a launch that used what it read before crawled the
 * replaced settings. On SQLite it is another connection to the server's file, holding the file's
 * write lock (the in-memory database has one connection, which runs one transaction at a time);
 * there the launch's idempotency claim, written before the handler reads anything, already waits
 * for it, so the test holds the outcome without pinning the window between read and insert.
 */
import knexFactory, { type Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPostgres, startHarness, type Harness } from '../../../../tests/support/harness.js';
import { startSite, type Site } from '../../../../tests/support/site.js';

const ROUNDS = 6;
/** Enough rounds that a launch lands between a deletion's stop and its transaction. */
const DELETE_ROUNDS = 20;
let h: Harness;
let site: Site;

beforeAll(async () => {
  h = await startHarness();
  site = await startSite();
});
afterAll(async () => {
  await h.close();
  await site.close();
});

async function created(on: Harness, path: string, body: unknown): Promise<{ id: string; [key: string]: unknown }> {
  const res = await on.call('POST', path, { body });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()).data;
}

async function campaignOf(on: Harness, maxUrls = 10) {
  const project = await created(on, '/v1/projects', { url: `${site.url}/` });
  return created(on, `/v1/projects/${project.id}/campaigns`, { name: 'race', start_url: `${site.url}/`, max_depth: 1, max_urls: maxUrls });
}

const launch = (on: Harness, campaignId: string) => on.call('POST', `/v1/campaigns/${campaignId}/crawls`, { headers: { 'idempotency-key': crypto.randomUUID() } });

async function crawlRows(on: Harness, campaignId: string): Promise<{ id: string; config: string; pages_budget: number }[]> {
  return on.knex('crawls').where({ campaign_id: campaignId }).select('id', 'config', 'pages_budget');
}

/** The harness to hold a transaction beside, and the knex that holds it: see the file's comment. */
async function heldSetup(): Promise<{ s: Harness; other: Knex; close: () => Promise<void> }> {
  if (onPostgres) return { s: h, other: h.knex, close: async () => undefined };
  const s = await startHarness({}, { sqliteFile: true });
  const file = (s.knex.client.config.connection as { filename: string }).filename;
  const other = knexFactory({ client: 'sqlite3', connection: { filename: file }, useNullAsDefault: true, pool: { min: 1, max: 1 } });
  return {
    s,
    other,
    close: async () => {
      await other.destroy();
      await s.close();
    },
  };
}

/** Until the launch waits on the held transaction: PostgreSQL shows it; SQLite does not (a pause). */
async function launchWaiting(on: Harness): Promise<void> {
  if (!onPostgres) return new Promise((r) => setTimeout(r, 300));
  for (let i = 0; i < 150; i++) {
    const { rows } = await on.knex.raw(`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`);
    if (rows[0].n > 0) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the launch never waited on the held transaction');
}

describe('a launch held behind its campaign’s change', () => {
  it('behind a deletion: 404, and no crawl row', async () => {
    const { s, other, close } = await heldSetup();
    try {
      const campaign = await campaignOf(s);
      const trx = await other.transaction();
      await trx('campaigns').where({ id: campaign.id }).delete();
      const launched = launch(s, campaign.id);
      await launchWaiting(s);
      await trx.commit();
      const res = await launched;
      expect(res.status, await res.clone().text()).toBe(404);
      expect(await crawlRows(s, campaign.id)).toEqual([]);
    } finally {
      await close();
    }
  });

  it('behind an update: the crawl runs with the updated settings', async () => {
    const { s, other, close } = await heldSetup();
    try {
      const campaign = await campaignOf(s, 10);
      const team = await s.knex('campaigns').where({ id: campaign.id }).first('team_id');
      const trx = await other.transaction();
      // PostgreSQL: the team's row as another launch's quota check holds it, so the launch waits after its first read.
      if (onPostgres) await trx('teams').where({ id: team.team_id }).forNoKeyUpdate().select('id');
      await trx('campaigns').where({ id: campaign.id }).update({ max_urls: 17 });
      const launched = launch(s, campaign.id);
      await launchWaiting(s);
      await trx.commit();
      const res = await launched;
      expect(res.status, await res.clone().text()).toBe(202);
      const [row] = await crawlRows(s, campaign.id);
      expect(JSON.parse(row.config).max_urls).toBe(17);
      expect(row.pages_budget).toBe(17);
      await s.server.jobs.idle();
    } finally {
      await close();
    }
  });
});

describe('a launch and a change of its campaign sent together', () => {
  it('launch + DELETE: the launch is 202 or 404, no crawl of the campaign is left, and none went unsettled', async () => {
    // A crawl the deletion took was stopped first (or had ended): it was settled, its event published.
    const settled = new Set<string>();
    h.server.events.subscribe(async (event) => {
      if (['crawl.stopped', 'crawl.completed', 'crawl.failed'].includes(event.type)) settled.add((event.data.crawl as { id: string }).id);
    });
    for (let i = 0; i < DELETE_ROUNDS; i++) {
      const campaign = await campaignOf(h);
      const [launched, deleted] = await Promise.all([launch(h, campaign.id), h.call('DELETE', `/v1/campaigns/${campaign.id}`)]);
      expect(deleted.status, await deleted.clone().text()).toBe(204);
      expect([202, 404], await launched.clone().text()).toContain(launched.status);
      expect(await crawlRows(h, campaign.id)).toEqual([]);
      if (launched.status === 202) {
        const crawl = (await launched.json()).data;
        expect((await h.call('GET', `/v1/crawls/${crawl.id}`)).status).toBe(404);
        expect(settled, `crawl ${crawl.id} of round ${i}`).toContain(crawl.id);
      }
    }
    await h.server.jobs.idle();
  });

  it('launch + PATCH: the crawl has the settings of one version of the campaign, whole', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const campaign = await campaignOf(h, 10);
      const [launched, patched] = await Promise.all([launch(h, campaign.id), h.call('PATCH', `/v1/campaigns/${campaign.id}`, { body: { max_urls: 17, max_depth: 2 } })]);
      expect(patched.status, await patched.clone().text()).toBe(200);
      expect(launched.status, await launched.clone().text()).toBe(202);
      const [row] = await crawlRows(h, campaign.id);
      const config = JSON.parse(row.config);
      expect([{ max_urls: 10, max_depth: 1 }, { max_urls: 17, max_depth: 2 }]).toContainEqual({ max_urls: config.max_urls, max_depth: config.max_depth });
      expect(row.pages_budget).toBe(config.max_urls);
      await h.server.jobs.idle();
    }
  });
});
