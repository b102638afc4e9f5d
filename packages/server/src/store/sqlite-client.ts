/**
 * knex's SQLite client with prepared SELECT statements kept per connection. node-sqlite3 runs a
 * one-off query as three thread-pool round trips (prepare, step, finalize); a kept statement
 * needs one, which roughly doubles what a hot read (a token, a project) costs the single
 * SQLite connection (docs/benchmarks.md). Writes and DDL keep knex's own path.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
// knex ships its dialects as CommonJS without an exports map; this is its SQLite client class.
export const Client_SQLite3 = require('knex/lib/dialects/sqlite3/index.js') as new (config: object) => object;

interface Statement {
  all(bindings: unknown[], callback: (this: unknown, err: Error | null, rows: unknown[]) => void): void;
  finalize(callback?: () => void): void;
}
interface Connection {
  prepare(sql: string, callback: (err: Error | null) => void): Statement;
}
interface QueryObject {
  sql: string;
  bindings?: unknown[];
  method?: string;
  returning?: unknown;
  response?: unknown;
  context?: unknown;
}

const MAX_STATEMENTS = 256;
const SELECT = /^\s*select\s/i;
/** Statement texts (not SELECTs) kept prepared too; a handful, each issued many times. */
const kept = new Set<string>();

/** Marks a write statement's text to be kept prepared on SQLite (a no-op elsewhere); returns it. */
export function keptStatement(sql: string): string {
  kept.add(sql);
  return sql;
}
const caches = new WeakMap<Connection, Map<string, Promise<Statement>>>();

function statementFor(connection: Connection, sql: string): Promise<Statement> {
  let cache = caches.get(connection);
  if (!cache) caches.set(connection, (cache = new Map()));
  const hit = cache.get(sql);
  if (hit) {
    // Map order is insertion order: re-inserting keeps the most recently used last.
    cache.delete(sql);
    cache.set(sql, hit);
    return hit;
  }
  const prepared = new Promise<Statement>((resolve, reject) => {
    const statement = connection.prepare(sql, (err) => (err ? reject(err) : resolve(statement)));
  });
  // The caller awaiting `prepared` gets the error; here it only must not stay cached.
  prepared.catch(() => cache.delete(sql));
  cache.set(sql, prepared);
  if (cache.size > MAX_STATEMENTS) {
    const [oldest, evicted] = cache.entries().next().value as [string, Promise<Statement>];
    cache.delete(oldest);
    // A statement that failed to prepare has nothing to finalize (its caller got the error).
    void evicted.then((s) => s.finalize()).catch(() => undefined);
  }
  return prepared;
}

export class SqliteClientWithStatements extends (Client_SQLite3 as unknown as new (config: object) => { _query(connection: unknown, obj: QueryObject): Promise<QueryObject> }) {
  override _query(connection: unknown, obj: QueryObject): Promise<QueryObject> {
    const isRead = (obj.method === 'select' || obj.method === 'first' || obj.method === 'pluck' || obj.method === undefined) && SELECT.test(obj.sql);
    if (!isRead && !(obj.method === 'raw' && kept.has(obj.sql))) return super._query(connection, obj);
    return statementFor(connection as Connection, obj.sql).then(
      (statement) =>
        new Promise<QueryObject>((resolve, reject) => {
          statement.all(obj.bindings ?? [], function (this: unknown, err, rows) {
            if (err) return reject(err);
            obj.response = rows;
            obj.context = this;
            resolve(obj);
          });
        }),
    );
  }
}
