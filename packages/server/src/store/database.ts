/**
 * The store: knex over SQLite (embedded default) or PostgreSQL (production). Both run the same
 * migrations. Timestamps are stored as ISO 8601 text with milliseconds, so that keyset cursors
 * compare exactly on both (PostgreSQL timestamps keep microseconds, JS dates do not).
 */
import knexFactory, { type Knex } from 'knex';
import { migrationSource } from './migrations/index.js';
import { Client_SQLite3, SqliteClientWithStatements } from './sqlite-client.js';
import { immediateTransactions } from './sqlite-writer.js';
import { DatabaseOptionError, redactedDatabase } from '../startup-errors.js';

/** SITEAUDIT_SQLITE_STATEMENTS=off falls back to knex's own client (benchmarks compare the two). */
const SQLITE_CLIENT_CLASS = process.env.SITEAUDIT_SQLITE_STATEMENTS === 'off' ? Client_SQLite3 : SqliteClientWithStatements;
const SQLITE_CLIENT = SQLITE_CLIENT_CLASS as unknown as typeof knexFactory.Client;
/** The writing connection's client: its transactions take the write lock first (sqlite-writer.ts). */
const SQLITE_WRITER_CLIENT = immediateTransactions(SQLITE_CLIENT_CLASS) as unknown as typeof knexFactory.Client;

export type DatabaseOption = string | Knex;
export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  knex: Knex;
  /**
   * Where a request that writes nothing reads: on an SQLite file, read-only connections of their
   * own (WAL lets them read beside the one writing connection, each seeing what was committed
   * when its read began), so a read no longer waits behind another request's query or a crawl's
   * writes on the one connection; elsewhere `knex` itself (PostgreSQL's pool already reads side
   * by side; ':memory:' is one connection's). docs/decisions/store.md.
   */
  reads: Knex;
  dialect: Dialect;
  /** True when this module created the knex instances and must destroy them (`closeDatabase`). */
  owned: boolean;
}

/** Read connections beside SQLite's writing one: two (libuv runs four threads; the writer and the crawl's work keep the rest). */
const SQLITE_READERS = 2;

/** Destroys the knex instances `openDatabase` created (an embedder's own is left to it). */
export async function closeDatabase(db: Database): Promise<void> {
  if (!db.owned) return;
  if (db.reads !== db.knex) await db.reads.destroy();
  await db.knex.destroy();
}

export function sqliteFile(option: string): string | null {
  if (option === 'sqlite::memory:' || option === ':memory:') return ':memory:';
  if (option.startsWith('sqlite:')) return option.slice('sqlite:'.length).replace(/^\/\//, '');
  if (/^(postgres|postgresql):\/\//i.test(option)) return null;
  // `mysql://…` is not a file name: say so rather than create (or fail to open) an SQLite file by that name.
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(option);
  if (scheme) {
    throw new DatabaseOptionError(
      `Unknown database "${redactedDatabase(option)}": the store is PostgreSQL (postgres://user@host:5432/name) or SQLite (sqlite:./file.db, or a file path), not ${scheme[1]}`,
    );
  }
  return option; // a bare file path
}

/**
 * knex prints every failed connection attempt with its stack ("Acquire connection error: …") on
 * stderr; the same error rejects the query that asked, which says it in one line (startup-errors.ts)
 * or logs it. Other warnings are printed as knex prints them.
 */
function quietAcquireErrors(message: string): void {
  if (!message.startsWith('Acquire connection error')) console.warn(message);
}

/** Whether a knex instance (or one of its transactions) speaks to PostgreSQL; else it is SQLite. */
export function isPostgres(knex: Knex | Knex.Transaction): boolean {
  return /pg|postgres/.test(String(knex.client.config.client ?? knex.client.dialect ?? ''));
}

/**
 * After a large write (a crawl settled), lets SQLite's query planner know the tables' new shape:
 * `PRAGMA optimize` runs ANALYZE on the tables that grew (25× since their last statistics) or have
 * none, sampling a few hundred rows an index (`analysis_limit`). Without statistics the planner
 * read a page's issues (`crawl_id` and `url_hash` given, ordered by severity) through the
 * severity index, scanning the whole crawl: 377 ms for a 200,000-page crawl, against 1 ms on the
 * by-page index once analysed (3 ms to analyse). PostgreSQL's autovacuum keeps its own statistics.
 */
export async function refreshPlannerStatistics(knex: Knex): Promise<void> {
  if (isPostgres(knex)) return;
  // One transaction: both pragmas on the same connection, whatever the pool (an embedding app's may have several).
  await knex.transaction(async (trx) => {
    await trx.raw('PRAGMA analysis_limit = 400');
    await trx.raw('PRAGMA optimize');
  });
  // An SQLite connection reads the statistics once, when it opens: the read connections opened
  // before are opened anew when next taken (sqliteReads), or they would plan without them.
  const file = (knex.client.config.connection as { filename?: string } | undefined)?.filename;
  if (file) statisticsGeneration.set(file, (statisticsGeneration.get(file) ?? 0) + 1);
}

/** By SQLite file: how many times its statistics were refreshed in this process. */
const statisticsGeneration = new Map<string, number>();

export function openDatabase(option: DatabaseOption): Database {
  if (typeof option !== 'string') {
    return { knex: option, reads: option, dialect: isPostgres(option) ? 'postgres' : 'sqlite', owned: false };
  }
  const file = sqliteFile(option);
  if (file === null) {
    const knex = knexFactory({ client: 'pg', connection: option, pool: { min: 0, max: 10 }, log: { warn: quietAcquireErrors } });
    return { knex, reads: knex, dialect: 'postgres', owned: true };
  }
  const knex = knexFactory({
    client: SQLITE_WRITER_CLIENT,
    connection: { filename: file },
    useNullAsDefault: true,
    // One connection: SQLite serialises writers anyway, and ':memory:' is per connection.
    pool: {
      min: 1,
      max: 1,
      afterCreate(conn: { run(sql: string, cb: (err: Error | null) => void): void }, done: (err: Error | null, conn: unknown) => void) {
        // secure_delete: a deleted row's bytes are overwritten, not left readable in free pages
        // (uploaded logs' paths, a deleted project's pages; docs/decisions/logs.md, "Retention").
        // busy_timeout: another process writing the same file (an admin command) is waited for,
        // up to 5 s, instead of failing this one's statement with SQLITE_BUSY.
        conn.run('PRAGMA foreign_keys = ON', (err) => {
          if (err) return done(err, conn);
          conn.run('PRAGMA secure_delete = ON', (e) => {
            if (e || file === ':memory:') return done(e, conn);
            conn.run('PRAGMA busy_timeout = 5000', (e1) => {
              if (e1) return done(e1, conn);
              conn.run('PRAGMA journal_mode = WAL', (e2) => done(e2, conn));
            });
          });
        });
      },
    },
  });
  return { knex, reads: file === ':memory:' ? knex : sqliteReads(file), dialect: 'sqlite', owned: true };
}

type RawConnection = { run(sql: string, cb: (err: Error | null) => void): void; statistics?: number };

/**
 * The read-only connections of an SQLite file (`PRAGMA query_only`: a write through them fails
 * instead of taking the file's write lock). Opened when first needed; a reader waits up to 5 s
 * where SQLite asks it to (a checkpoint truncating the WAL, a recovery) instead of failing, and is
 * opened anew once the planner's statistics were refreshed (refreshPlannerStatistics).
 */
function sqliteReads(file: string): Knex {
  return knexFactory({
    client: SQLITE_CLIENT,
    connection: { filename: file },
    useNullAsDefault: true,
    pool: {
      min: 0,
      max: SQLITE_READERS,
      afterCreate(conn: RawConnection, done: (err: Error | null, conn: unknown) => void) {
        conn.statistics = statisticsGeneration.get(file) ?? 0;
        conn.run('PRAGMA query_only = ON', (err) => {
          if (err) return done(err, conn);
          conn.run('PRAGMA busy_timeout = 5000', (e) => done(e, conn));
        });
      },
      // A connection opened before the statistics were last refreshed is closed and opened again.
      validate: (conn: RawConnection) => conn.statistics === (statisticsGeneration.get(file) ?? 0),
    },
  });
}

export async function migrate(db: Database): Promise<void> {
  // Cascading deletes rely on foreign keys, which SQLite enforces per connection and only when
  // asked; a knex instance we did not create may not have asked (give it a pool of one).
  if (db.dialect === 'sqlite' && !db.owned) {
    await db.knex.raw('PRAGMA foreign_keys = ON');
    await db.knex.raw('PRAGMA secure_delete = ON');
  }
  const latest = () => db.knex.migrate.latest({ migrationSource, tableName: 'siteaudit_migrations' });
  if (db.dialect === 'postgres') await withMigrationLock(db.knex, latest);
  else await latest();
}

/**
 * Runs `work` holding a PostgreSQL advisory lock, so processes starting together on one database
 * migrate one after the other: knex's own lock lives in a table it creates first, and two
 * processes creating it at once collide. The lock is per schema (several deployments may share a
 * database) and taken on a connection of its own, outside the pool the migrations use, so a pool
 * of one still works; it ends with the transaction holding it, or with the session if the
 * process dies.
 */
async function withMigrationLock(knex: Knex, work: () => Promise<unknown>): Promise<void> {
  const lockHolder = knexFactory({ ...knex.client.config, pool: { min: 0, max: 1 } });
  try {
    // Held by an open transaction, so the connection stays checked out until the work is done.
    await lockHolder.transaction(async (trx) => {
      await trx.raw("select pg_advisory_xact_lock(hashtext('siteaudit_migrations:' || current_schema()))");
      await work();
    });
  } finally {
    await lockHolder.destroy();
  }
}

/** ISO 8601 UTC with milliseconds: the one timestamp format we store and return. */
export function iso(date: Date): string {
  return date.toISOString();
}

/** Booleans come back from SQLite as 0/1. */
export function bool(value: unknown): boolean {
  return value === true || value === 1 || value === '1';
}

/** JSON columns are text on both databases. */
export function json<T>(value: unknown, fallback: T): T {
  if (value === null || value === undefined) return fallback;
  if (typeof value !== 'string') return value as T;
  return JSON.parse(value) as T;
}
