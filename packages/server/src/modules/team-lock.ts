import type { Knex } from 'knex';
import type { Dialect } from '../store/database.js';

/**
 * Serialises a team's quota-checked writes (project count, crawl quota, keyword pool) inside a
 * transaction. PostgreSQL locks the team row; SQLite already runs one transaction at a time on
 * its single connection. `FOR NO KEY UPDATE`, not `FOR UPDATE`: it still serialises these
 * transactions, but lets the team's other requests insert rows referencing the team (their
 * foreign-key check takes `FOR KEY SHARE`) instead of queueing behind a quota check.
 */
export async function lockTeam(trx: Knex.Transaction, dialect: Dialect, teamId: string): Promise<void> {
  if (dialect === 'postgres') await trx('teams').where({ id: teamId }).forNoKeyUpdate().select('id');
}
