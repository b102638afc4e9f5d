import type { Knex } from 'knex';

/**
 * A ledger of consumed quota units (one row per crawl launch …): deleting what was launched
 * does not give the quota back, as "consumes one crawl of the monthly quota" means.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('quota_usage', (t) => {
    t.uuid('id').primary();
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.string('entitlement', 50).notNullable();
    t.string('created_at', 30).notNullable();
    t.index(['team_id', 'entitlement', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('quota_usage');
}
