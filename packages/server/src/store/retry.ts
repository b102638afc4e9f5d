/**
 * PostgreSQL may abort a transaction that did nothing wrong: a deadlock between row locks (40P01)
 * or a serialization failure (40001). Such an abort is the database's own answer to a race, not
 * the caller's fault, so it is retried here, with a short random pause, and never reaches the
 * client as a 500. Work given to these helpers must be safe to run again: database writes inside
 * the transaction only (they are rolled back), no effect outside it before it commits.
 */
import type { Knex } from 'knex';

const TRANSIENT_CODES = new Set(['40001', '40P01']);
const ATTEMPTS = 8;

export function isTransientConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && TRANSIENT_CODES.has(code);
}

/** Runs `work` again (up to 8 times in all) while it fails with a deadlock or serialization failure. */
export async function retryTransient<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= ATTEMPTS || !isTransientConflict(error)) throw error;
      // Random, growing pauses, so the transactions that collided do not collide again.
      const ceiling = Math.min(200, 5 * 2 ** attempt);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * ceiling));
    }
  }
}

/** `knex.transaction(work)`, retried whole on a deadlock or serialization failure. */
export function transaction<T>(knex: Knex, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return retryTransient(() => knex.transaction(work));
}
