/**
 * Reads beside the writes (store/database.ts): a request that writes nothing reads on connections
 * of its own, so it is answered while another request's transaction holds the writing connection
 * (on SQLite, its one connection), and sees what was committed, never what is not yet.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPostgres, startHarness, type Harness } from '../../../../tests/support/harness.js';
import { startSite, type Site } from '../../../../tests/support/site.js';
import { closeDatabase, migrate, openDatabase, refreshPlannerStatistics } from '../../src/store/database.js';

let h: Harness;
let site: Site;
beforeAll(async () => {
  h = await startHarness({}, { sqliteFile: true });
  site = await startSite();
});
afterAll(async () => {
  await h.close();
  await site.close();
});

/**
 * Runs `reads` while an open transaction holds the server's writing connection (on SQLite, its
 * only one): a read waiting for it would never be answered, since the transaction ends after.
 */
async function whileWriterHeld(reads: () => Promise<void>): Promise<void> {
  const trx = await h.server.knex.transaction();
  try {
    await trx.raw('select 1');
    await reads();
    await trx.commit();
  } catch (error) {
    await trx.rollback();
    throw error;
  }
}

describe('reads beside the writes', () => {
  it('answers a read while a write transaction holds the writing connection, with what was committed', async () => {
    const project = (await (await h.call('POST', '/v1/projects', { body: { url: 'https://reads.example/', name: 'Before' } })).json()).data;
    // Another team's token, never used yet: its first request looks it up in the store.
    const other = await h.tokenFor({ team: 'reads-other' });
    // The server's own writing connection (on SQLite, its only one), held by an open transaction
    // that renamed the project: a read waiting for that connection would never be answered, since
    // the transaction ends only after the read.
    const trx = await h.server.knex.transaction();
    try {
      await trx('projects').where({ id: project.id }).update({ name: 'During' });
      const read = await h.call('GET', `/v1/projects/${project.id}`);
      expect(read.status).toBe(200);
      expect((await read.json()).data.name).toBe('Before');
      const list = await (await h.call('GET', '/v1/projects')).json();
      expect(list.data.map((p: { name: string }) => p.name)).toContain('Before');
      const crawls = await h.call('GET', `/v1/projects/${project.id}/crawls`);
      expect(crawls.status).toBe(200);
      const me = await h.call('GET', '/v1/me', { token: other });
      expect(me.status).toBe(200);
      expect((await me.json()).data.team.slug).toBe('reads-other');
      await trx.commit();
    } catch (error) {
      await trx.rollback();
      throw error;
    }
    // Committed: the next read sees it.
    expect((await (await h.call('GET', `/v1/projects/${project.id}`)).json()).data.name).toBe('During');
  });

  it('answers the reads of exports, positions and Search Console beside a held write', async () => {
    const project = (await (await h.call('POST', '/v1/projects', { body: { url: `${site.url}/` } })).json()).data;
    const campaign = (await (await h.call('GET', `/v1/projects/${project.id}/campaigns`)).json()).data[0];
    const crawl = (await (await h.call('POST', `/v1/campaigns/${campaign.id}/crawls`, { headers: { 'idempotency-key': 'reads-crawl' } })).json()).data;
    await h.server.jobs.idle();
    const queued = (await (await h.call('POST', `/v1/crawls/${crawl.id}/exports`, { body: { format: 'pdf' } })).json()).data;
    await h.server.jobs.idle();
    await whileWriterHeld(async () => {
      const exported = await h.call('GET', `/v1/exports/${queued.id}`);
      expect([exported.status, (await exported.json()).data.status]).toEqual([200, 'ready']);
      const file = await h.call('GET', `/v1/exports/${queued.id}/download`);
      expect([file.status, file.headers.get('content-type')]).toEqual([200, 'application/pdf']);
      expect((await file.arrayBuffer()).byteLength).toBeGreaterThan(1000);
      const positions = await h.call('GET', `/v1/projects/${project.id}/positions`);
      expect(positions.status).toBe(200);
      expect((await positions.json()).data.project_id).toBe(project.id);
      const console = await h.call('GET', `/v1/projects/${project.id}/search-console`);
      expect(console.status).toBe(200);
      expect((await console.json()).data.status).toBe('unconfigured');
    });
  });

  it.skipIf(onPostgres)('SQLite: the read connections plan with the statistics the settlement refreshed, even when opened before', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'siteaudit-reads-'));
    const db = openDatabase(`sqlite:${path.join(dir, 'a.db')}`);
    try {
      // Two indexes a read can take; with statistics, the planner knows `a` has two values only.
      await db.knex.raw('create table probe (a integer, b integer, c integer)');
      await db.knex.raw('create index probe_a on probe (a, c)');
      await db.knex.raw('create index probe_b on probe (b, c)');
      await db.knex.raw('with recursive n(i) as (select 0 union all select i + 1 from n where i < 20000) insert into probe select i % 2, i, i from n');
      const plan = async () => JSON.stringify(await db.reads.raw('explain query plan select * from probe where a = 1 and b = 5 order by c'));
      const unanalysed = await plan();
      // PRAGMA optimize analyses the tables the connection read (as the settlement's has).
      await db.knex.raw('select * from probe where a = 1 and b = 5 order by c');
      await refreshPlannerStatistics(db.knex);
      const writer = JSON.stringify(await db.knex.raw('explain query plan select * from probe where a = 1 and b = 5 order by c'));
      expect(writer).not.toBe(unanalysed);
      // The read connection that planned before the statistics plans as the writing one now.
      expect(await plan()).toBe(writer);
    } finally {
      await closeDatabase(db);
      await rm(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(onPostgres)('SQLite: the read connections refuse a write, and an in-memory store reads on its one connection', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'siteaudit-reads-'));
    const db = openDatabase(`sqlite:${path.join(dir, 'a.db')}`);
    try {
      await migrate(db);
      expect(db.reads).not.toBe(db.knex);
      await expect(db.reads('projects').insert({ id: 'x' })).rejects.toThrow(/readonly|query_only|read-only|attempt to write/i);
      expect(await db.reads('projects').count({ n: '*' })).toEqual([{ n: 0 }]);
    } finally {
      await closeDatabase(db);
      await rm(dir, { recursive: true, force: true });
    }
    const memory = openDatabase('sqlite::memory:');
    expect(memory.reads).toBe(memory.knex);
    await closeDatabase(memory);
  });
});
