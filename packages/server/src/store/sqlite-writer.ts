/**
 * The writing SQLite connection's transactions begin IMMEDIATE: each takes the file's write lock
 * before its first read. In one process the single writing connection already runs them one at a
 * time, but another process may write to the same file (an admin command beside a running
 * server, a second server). A transaction begun DEFERRED reads first and asks for the write lock
 * at its first write; if another connection wrote meanwhile, SQLite refuses the upgrade at once
 * with SQLITE_BUSY (waiting could deadlock, so the busy timeout does not apply), and a
 * read-then-write decided on a stale row (PostgreSQL's `for update` case) answered 500 instead.
 * Begun IMMEDIATE, it waits for the lock (the connection's busy_timeout) and then reads what the
 * other writer committed.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
// knex ships its dialects as CommonJS without an exports map; this is its SQLite transaction class.
const Transaction_Sqlite = require('knex/lib/dialects/sqlite3/execution/sqlite-transaction.js') as new (...args: unknown[]) => {
  query(conn: unknown, sql: string): Promise<unknown>;
};

class ImmediateTransaction extends Transaction_Sqlite {
  begin(conn: unknown): Promise<unknown> {
    return this.query(conn, 'BEGIN IMMEDIATE;');
  }
}

/** A mixin's base class must take `any[]` (TS2545). */
type ClientClass = new (...args: any[]) => object;

/** `Client` (knex's SQLite client or a subclass) whose transactions begin IMMEDIATE; savepoints are unchanged. */
export function immediateTransactions<C extends ClientClass>(Client: C): C {
  return class extends Client {
    transaction(...args: unknown[]) {
      return new ImmediateTransaction(this, ...args);
    }
  };
}
