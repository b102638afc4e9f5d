/**
 * An operator deletes a team (`server.admin.deleteTeam`, `siteaudit-server admin delete-team`):
 * its token is refused at once, its running crawl stopped first, every row of it gone from every
 * table and its export files from disk, and another team's data untouched.
 *
 * "Every table": every table of the store whose `id` or `*_id` columns could name one of the
 * team's rows (its own, its members', tokens', projects', campaigns', crawls', exports',
 * webhooks', log imports'). The job engine's records (`jobs`, pg-boss's schema) are not the
 * team's data: a job left for a deleted row finds it gone and ends.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import { SCOPES } from '@siteaudit/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSiteAuditServer, type SiteAuditServer } from '../../src/index.js';
import { onPostgres, startHarness, type Harness } from '../../../../tests/support/harness.js';
import { caller } from '../../../../tests/support/http.js';
import { startSite, type Site } from '../../../../tests/support/site.js';
import { childDatabase, runCli, startSlowSite, type ChildDatabase, type SlowSite } from './support/child-server.js';

/** Each CLI run starts a node process (tsx): seconds on a loaded 2-core machine. */
const CLI_TEST_MS = 240_000;
const EXPORT_DIR = process.env.SITEAUDIT_EXPORT_DIR!;
const LOG = '192.0.2.46 - - [09/Mar/2026:08:00:00 +0000] "GET / HTTP/1.1" 200 512 "-" "curl/8.0"\n';

interface Server {
  url: string;
  knex: Knex;
  idle(): Promise<void>;
}

async function data(res: Promise<Response>, status: number) {
  const answer = await res;
  expect(answer.status, await answer.clone().text()).toBe(status);
  return (await answer.json()).data;
}

/** A team's data made over HTTP: a crawled project with a ready export, a webhook, a completed log import, and a second campaign. */
async function populate(server: Server, token: string, siteUrl: string) {
  const call = caller(server.url, token);
  const project = await data(call('POST', '/v1/projects', { body: { url: `${siteUrl}/` } }), 201);
  const [campaign] = (await (await call('GET', `/v1/projects/${project.id}/campaigns`)).json()).data;
  const crawl = await data(call('POST', `/v1/campaigns/${campaign.id}/crawls`, { headers: { 'idempotency-key': randomUUID() } }), 202);
  await server.idle();
  const exported = await data(call('POST', `/v1/crawls/${crawl.id}/exports`, { body: { format: 'pdf' } }), 202);
  const webhook = await data(call('POST', '/v1/webhooks', { body: { url: 'https://127.0.0.1:9/hook', events: ['crawl.completed'] } }), 201);
  const upload = await fetch(`${server.url}/v1/projects/${project.id}/log-imports`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain', 'idempotency-key': randomUUID() },
    body: LOG,
  });
  expect(upload.status, await upload.clone().text()).toBe(202);
  const logImport = (await upload.json()).data;
  const second = await data(call('POST', `/v1/projects/${project.id}/campaigns`, { body: { name: 'second', start_url: `${siteUrl}/`, max_depth: 3, max_urls: 30 } }), 201);
  await server.idle();
  expect((await (await call('GET', `/v1/exports/${exported.id}`)).json()).data.status).toBe('ready');
  expect(existsSync(path.join(EXPORT_DIR, `${exported.id}.pdf`))).toBe(true);
  return { call, project, campaign, crawl, exported, webhook, logImport, second };
}

/** Every id of the team's rows that other rows reference: the team, its members and tokens, and what the API made. */
async function idsOfTeam(knex: Knex, slug: string): Promise<string[]> {
  const { id } = await knex('teams').where({ slug }).first('id');
  const of = (table: string) => knex(table).where({ team_id: id }).pluck('id') as Promise<string[]>;
  const lists = await Promise.all(['members', 'tokens', 'projects', 'campaigns', 'crawls', 'exports', 'webhooks', 'log_imports'].map(of));
  return [id, ...lists.flat()];
}

const ENGINE_TABLES = new Set(['jobs', 'siteaudit_migrations', 'siteaudit_migrations_lock']);

/** The store's tables and their `id`/`*_id` columns that hold text or uuids. */
async function idColumns(knex: Knex): Promise<Map<string, string[]>> {
  const columns = new Map<string, string[]>();
  if (onPostgres) {
    const { rows } = await knex.raw(
      `select table_name, column_name from information_schema.columns where table_schema = current_schema() and (column_name = 'id' or column_name like '%\\_id') and data_type in ('uuid', 'text', 'character varying', 'character')`,
    );
    for (const r of rows as { table_name: string; column_name: string }[]) columns.set(r.table_name, [...(columns.get(r.table_name) ?? []), r.column_name]);
  } else {
    const tables = (await knex.raw(`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`)) as { name: string }[];
    for (const { name } of tables) {
      const info = (await knex.raw(`pragma table_info("${name}")`)) as { name: string }[];
      const ids = info.map((c) => c.name).filter((c) => c === 'id' || c.endsWith('_id'));
      if (ids.length) columns.set(name, ids);
    }
  }
  for (const table of ENGINE_TABLES) columns.delete(table);
  return columns;
}

/** Rows naming any of `ids`, by table (tables with none left out). */
async function rowsNaming(knex: Knex, ids: string[]): Promise<Record<string, number>> {
  const found: Record<string, number> = {};
  for (const [table, columns] of await idColumns(knex)) {
    const [{ n }] = await knex(table)
      .where((q) => {
        for (const column of columns) q.orWhereIn(column, ids);
      })
      .count({ n: '*' });
    if (Number(n) > 0) found[table] = Number(n);
  }
  return found;
}

/** The ids of the crawls the server settles `stopped` from now on (crawl.stopped, published as it settles). */
function stoppedCrawls(server: SiteAuditServer): string[] {
  const ids: string[] = [];
  server.events.subscribe(async (event) => {
    if (event.type === 'crawl.stopped') ids.push((event.data.crawl as { id: string }).id);
  });
  return ids;
}

/** Until the crawl fetches (its status `running`). */
async function running(call: ReturnType<typeof caller>, crawlId: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if ((await (await call('GET', `/v1/crawls/${crawlId}`)).json()).data.status === 'running') return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`crawl ${crawlId} never ran`);
}

describe('server.admin.deleteTeam', () => {
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

  it('stops its running crawl, refuses its token at once, leaves no row and no export file of it, and leaves another team as it was', async () => {
    expect(EXPORT_DIR).toBeTruthy();
    const server = { url: h.url, knex: h.knex, idle: () => h.server.jobs.idle() };
    const doomedToken = await h.tokenFor({ team: 'doomed' });
    const keptToken = await h.tokenFor({ team: 'kept' });
    const doomed = await populate(server, doomedToken, site.url);
    const kept = await populate(server, keptToken, site.url);
    const doomedIds = await idsOfTeam(h.knex, 'doomed');
    const keptIds = await idsOfTeam(h.knex, 'kept');
    const keptRows = await rowsNaming(h.knex, keptIds);
    expect(Object.keys(await rowsNaming(h.knex, doomedIds))).toEqual(expect.arrayContaining(['teams', 'tokens', 'projects', 'campaigns', 'crawls', 'crawl_pages', 'exports', 'webhooks', 'log_imports']));

    // The site holds its answers: the crawl is provably fetching when the deletion asks for its
    // stop. Settled `stopped` (its crawl.stopped published) while its row was still there.
    const stopped = stoppedCrawls(h.server);
    const release = site.hold();
    let crawlId: string;
    try {
      crawlId = (await data(doomed.call('POST', `/v1/campaigns/${doomed.second.id}/crawls`, { headers: { 'idempotency-key': randomUUID() } }), 202)).id;
      await running(doomed.call, crawlId);
      expect(await h.server.admin.deleteTeam('doomed')).toEqual({ team: 'doomed', id: doomedIds[0], projects: 1, deleted: true });
    } finally {
      release();
    }
    expect(stopped).toEqual([crawlId]);
    expect((await doomed.call('GET', '/v1/me')).status).toBe(401);
    await h.server.jobs.idle();

    expect(await rowsNaming(h.knex, doomedIds)).toEqual({});
    expect(existsSync(path.join(EXPORT_DIR, `${doomed.exported.id}.pdf`))).toBe(false);
    expect(await rowsNaming(h.knex, keptIds)).toEqual(keptRows);
    expect(existsSync(path.join(EXPORT_DIR, `${kept.exported.id}.pdf`))).toBe(true);
    for (const p of [`/v1/projects/${kept.project.id}`, `/v1/crawls/${kept.crawl.id}`, `/v1/webhooks/${kept.webhook.id}`, `/v1/projects/${kept.project.id}/log-imports/${kept.logImport.id}`]) {
      expect((await kept.call('GET', p)).status, p).toBe(200);
    }
    expect((await kept.call('GET', `/v1/exports/${kept.exported.id}/download`)).status).toBe(200);
    await expect(h.server.admin.deleteTeam('doomed')).rejects.toThrow('No team "doomed"');
  });

  it('deletes a team once when two deletions of it run at the same time: one reports it, the other finds no team', async () => {
    const token = await h.tokenFor({ team: 'twice' });
    expect((await fetch(`${h.url}/v1/projects`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ url: `${site.url}/` }) })).status).toBe(201);
    const outcomes = await Promise.allSettled([h.server.admin.deleteTeam('twice'), h.server.admin.deleteTeam('twice')]);
    expect(outcomes.filter((o) => o.status === 'fulfilled').map((o) => (o as PromiseFulfilledResult<{ projects: number }>).value.projects)).toEqual([1]);
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(refused.map((o) => String(o.reason))).toEqual([expect.stringContaining('No team "twice"')]);
    expect(await h.knex('teams').where({ slug: 'twice' }).first()).toBeUndefined();
  });
});

describe('siteaudit-server admin delete-team', () => {
  let db: ChildDatabase;
  let server: SiteAuditServer;
  let url: string;
  let slow: SlowSite;
  let site: Site;
  beforeAll(async () => {
    // A database the CLI reaches as well: an SQLite file, or a PostgreSQL database of its own.
    db = await childDatabase();
    server = await createSiteAuditServer({ database: db.url, network: { allowPrivateAddresses: true }, logger: false });
    url = (await server.listen(0)).url;
    site = await startSite();
    slow = await startSlowSite(2000, 200);
  }, CLI_TEST_MS);
  afterAll(async () => {
    await server?.close();
    await db?.drop();
    await site?.close();
    await slow?.close();
  });

  async function tokenOf(team: string): Promise<string> {
    await server.admin.createTeam({ slug: team, name: team, plan: 'agency' });
    await server.admin.addMember({ team, email: `owner@${team}.test`, name: 'Owner', role: 'owner' });
    return (await server.admin.createToken({ team, member: `owner@${team}.test`, name: 'cli', scopes: [...SCOPES] })).token;
  }

  it(
    'asks for --yes, then stops the running crawl a serving process runs and deletes everything of the team',
    async () => {
      const on = { url, knex: db.knex, idle: () => server.jobs.idle() };
      const doomedToken = await tokenOf('gone');
      const doomed = await populate(on, doomedToken, site.url);
      const kept = await populate(on, db.token, site.url);
      const doomedIds = await idsOfTeam(db.knex, 'gone');
      const keptIds = await idsOfTeam(db.knex, 'acme');
      const keptRows = await rowsNaming(db.knex, keptIds);

      const refused = await runCli(db, ['admin', '--database', db.url, 'delete-team', 'gone']);
      expect(refused.code).toBe(1);
      expect(refused.stderr.trim()).toBe('Deleting team gone removes its projects, crawls, webhooks, log imports and export files for good: run again with --yes');
      expect((await doomed.call('GET', '/v1/me')).status).toBe(200);

      // A crawl of a slow site (2,000 pages, 200 ms each) that the serving process is running.
      const project = await data(doomed.call('POST', '/v1/projects', { body: { url: `${slow.url}/` } }), 201);
      const [campaign] = (await (await doomed.call('GET', `/v1/projects/${project.id}/campaigns`)).json()).data;
      const stopped = stoppedCrawls(server);
      const crawl = await data(doomed.call('POST', `/v1/campaigns/${campaign.id}/crawls`, { headers: { 'idempotency-key': randomUUID() } }), 202);
      await running(doomed.call, crawl.id);
      const ids = [...doomedIds, project.id, campaign.id, crawl.id];

      const deleted = await runCli(db, ['admin', '--database', db.url, '--json', 'delete-team', 'gone', '--yes']);
      expect(deleted.code, deleted.stderr).toBe(0);
      expect(JSON.parse(deleted.stdout)).toEqual({ team: 'gone', id: doomedIds[0], projects: 2, deleted: true });
      // The serving process settled it stopped (its row still there) before the rows went, long before its last page.
      expect(stopped).toEqual([crawl.id]);
      expect(slow.served()).toBeLessThan(slow.pages);
      // Another process's token cache drops it at once on PostgreSQL, within its 2-second lifetime on SQLite (http/auth.ts).
      await expect.poll(async () => (await doomed.call('GET', '/v1/me')).status, { timeout: 10_000 }).toBe(401);
      await server.jobs.idle();

      expect(await rowsNaming(db.knex, ids)).toEqual({});
      expect(existsSync(path.join(EXPORT_DIR, `${doomed.exported.id}.pdf`))).toBe(false);
      expect(await rowsNaming(db.knex, keptIds)).toEqual(keptRows);
      expect(existsSync(path.join(EXPORT_DIR, `${kept.exported.id}.pdf`))).toBe(true);
      expect((await kept.call('GET', `/v1/exports/${kept.exported.id}/download`)).status).toBe(200);
      expect((await kept.call('GET', `/v1/crawls/${kept.crawl.id}`)).status).toBe(200);

      const again = await runCli(db, ['admin', '--database', db.url, 'delete-team', 'gone', '--yes']);
      expect(again.code).toBe(1);
      expect(again.stderr.trim()).toBe('No team "gone"');
    },
    CLI_TEST_MS,
  );
});
