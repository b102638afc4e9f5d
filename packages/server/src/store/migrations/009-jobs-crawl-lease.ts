import type { Knex } from 'knex';

/**
 * A crawl's own lease (docs/reliability.md, "Crawls across workers"): the worker running it, a
 * fencing token incremented at every claim, and the end of the lease in epoch milliseconds of
 * real time, renewed by a heartbeat. Every crawl write checks the token, whatever job engine runs it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('crawls', (t) => {
    t.string('lease_owner', 64).nullable();
    t.integer('lease_token').notNullable().defaultTo(0);
    t.bigInteger('lease_until_ms').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('crawls', (t) => {
    t.dropColumn('lease_owner');
    t.dropColumn('lease_token');
    t.dropColumn('lease_until_ms');
  });
}
