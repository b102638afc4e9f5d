import type { Knex } from 'knex';
import type { Dialect } from '../store/database.js';

/**
 * Serialises a team's quota-checked writes (project count, crawl quota, keyword pool) inside a
 * transaction. PostgreSQL locks the team row; SQLite already runs one transaction at a time on
 * its single connection.
 */
export async function lockTeam(trx: Knex.Transaction, dialect: Dialect, teamId: string): Promise<void> {
  if (dialect === 'postgres') await trx('teams').where({ id: teamId }).forUpdate().select('id');
}
