import type { Knex } from 'knex';

/** Exports of a crawl and where their file is kept. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('exports', (t) => {
    t.uuid('id').primary();
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.uuid('crawl_id').notNullable().references('crawls.id').onDelete('CASCADE');
    t.string('format', 10).notNullable();
    t.string('language', 5).notNullable();
    t.string('status', 20).notNullable();
    t.bigInteger('size_bytes').nullable();
    t.string('blob_key', 200).nullable();
    t.text('error').nullable();
    t.string('created_at', 30).notNullable();
    t.string('finished_at', 30).nullable();
    t.string('expires_at', 30).nullable();
    t.index(['crawl_id', 'format', 'language', 'status']);
    t.index(['status', 'expires_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('exports');
}
