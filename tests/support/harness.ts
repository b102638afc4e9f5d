/**
 * Starts a real server over HTTP on the database of the vitest project: in-memory SQLite, or a
 * PostgreSQL database of its own per server (a copy of a migrated template, tests/support/postgres-template.ts),
 * so test files can run in parallel on one PostgreSQL server.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import type { Scope } from '@siteaudit/schema';
import { SCOPES } from '@siteaudit/schema';
import { createSiteAuditServer, type SiteAuditServer, type SiteAuditServerOptions } from '../../packages/server/src/index.js';
import { caller } from './http.js';
import { databaseFromTemplate } from './postgres-template.js';

export const DATABASE = process.env.SITEAUDIT_TEST_DB ?? 'sqlite';
export const onPostgres = DATABASE.startsWith('postgres');

export interface Harness {
  server: SiteAuditServer;
  url: string;
  /** A token of the `acme` team owner with every scope, on the agency plan. */
  token: string;
  knex: Knex;
  call: ReturnType<typeof caller>;
  tokenFor(input?: { team?: string; scopes?: readonly Scope[]; role?: 'owner' | 'admin' | 'member'; plan?: string; email?: string }): Promise<string>;
  close(): Promise<void>;
}

async function testDatabase(sqliteFile?: boolean): Promise<{ option: SiteAuditServerOptions['database']; drop: () => Promise<void> }> {
  // `SITEAUDIT_TEST_DB=sqlite-file` (or `sqliteFile`): a file of its own per server, so the read
  // connections beside the writing one are used (store/database.ts); in-memory SQLite has one connection.
  if ((sqliteFile ?? DATABASE === 'sqlite-file') && !onPostgres) {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'siteaudit-test-db-'));
    return { option: `sqlite:${path.join(dir, 'test.db')}`, drop: () => rm(dir, { recursive: true, force: true }) };
  }
  if (!onPostgres) return { option: 'sqlite::memory:', drop: async () => undefined };
  const database = await databaseFromTemplate(DATABASE, 't');
  const knex = knexFactory({ client: 'pg', connection: database.url, pool: { min: 0, max: 10 } });
  return {
    option: knex,
    drop: async () => {
      await knex.destroy();
      await database.drop();
    },
  };
}

/** A knex instance on the project's database that servers use without owning it (restarts). */
export async function sharedDatabase(): Promise<{ knex: Knex; drop: () => Promise<void> }> {
  if (onPostgres) {
    const db = await testDatabase();
    return { knex: db.option as Knex, drop: db.drop };
  }
  const knex = knexFactory({ client: 'sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true, pool: { min: 1, max: 1, idleTimeoutMillis: 3_600_000 } });
  return { knex, drop: () => knex.destroy() };
}

let teams = 0;

/**
 * `sqliteFile`: on the SQLite project, a file database (true) or the in-memory one (false) whatever
 * `SITEAUDIT_TEST_DB` says; PostgreSQL is PostgreSQL.
 */
export async function startHarness(options: Omit<SiteAuditServerOptions, 'database'> = {}, { sqliteFile }: { sqliteFile?: boolean } = {}): Promise<Harness> {
  const db = await testDatabase(sqliteFile);
  // Quiet unless a test captures the log (logger: pino to a stream of its own).
  const server = await createSiteAuditServer({ network: { allowPrivateAddresses: true }, secretKey: 'test-secret-key-0123456789abcdef0123', ...options, logger: options.logger ?? false, database: db.option });
  const { url } = await server.listen(0);
  const created = new Set<string>();
  const tokenFor: Harness['tokenFor'] = async (input = {}) => {
    const team = input.team ?? 'acme';
    if (!created.has(team)) {
      await server.admin.createTeam({ slug: team, name: team.toUpperCase(), plan: input.plan ?? 'agency' });
      created.add(team);
    }
    const email = input.email ?? `${input.role ?? 'owner'}-${++teams}@${team}.test`;
    await server.admin.addMember({ team, email, name: 'Someone', role: input.role ?? 'owner' });
    const { token } = await server.admin.createToken({ team, member: email, name: 'test', scopes: [...(input.scopes ?? SCOPES)] });
    return token;
  };
  const token = await tokenFor();
  const harness: Harness = {
    server,
    url,
    token,
    knex: server.knex,
    tokenFor,
    call: caller(url, token),
    async close() {
      await server.close();
      await db.drop();
    },
  };
  return harness;
}
