import type { Knex } from 'knex';

/**
 * Log exploration (docs/decisions/logs.md). An import row per uploaded file; what its parsing
 * kept, aggregated: bot hits per URL and family, and hits per day, family and status class
 * (human traffic only there, as counts). No client address and no raw line is ever stored. All of
 * it goes with the project (ON DELETE CASCADE).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('log_imports', (t) => {
    t.uuid('id').primary();
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.uuid('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.string('status', 20).notNullable();
    t.string('format', 20).nullable();
    t.bigInteger('size_bytes').notNullable().defaultTo(0);
    t.bigInteger('lines_read').notNullable().defaultTo(0);
    t.bigInteger('lines_kept').notNullable().defaultTo(0);
    t.bigInteger('lines_refused').notNullable().defaultTo(0);
    t.text('refusals').notNullable().defaultTo('[]');
    t.bigInteger('human_hits').notNullable().defaultTo(0);
    t.bigInteger('bot_hits').notNullable().defaultTo(0);
    t.string('period_from', 30).nullable();
    t.string('period_to', 30).nullable();
    /** The uploaded file while it waits for parsing; removed once parsed or failed. */
    t.text('file_key').nullable();
    t.text('error').nullable();
    t.string('created_at', 30).notNullable();
    t.string('finished_at', 30).nullable();
    t.index(['project_id', 'created_at', 'id']);
  });
  await knex.schema.createTable('log_url_stats', (t) => {
    t.uuid('import_id').notNullable().references('log_imports.id').onDelete('CASCADE');
    t.uuid('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.text('path').notNullable();
    t.string('path_hash', 64).notNullable();
    t.string('family', 30).notNullable();
    t.string('verification', 20).notNullable();
    t.bigInteger('hits').notNullable();
    t.string('last_visit', 30).notNullable();
    t.text('status_codes').notNullable();
    t.bigInteger('bytes').notNullable();
    t.primary(['import_id', 'family', 'verification', 'path_hash']);
    t.index(['project_id', 'path', 'family', 'verification']);
  });
  await knex.schema.createTable('log_day_stats', (t) => {
    t.uuid('import_id').notNullable().references('log_imports.id').onDelete('CASCADE');
    t.uuid('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.string('date', 10).notNullable();
    t.string('family', 30).notNullable();
    t.string('verification', 20).notNullable();
    t.string('status_class', 10).notNullable();
    t.bigInteger('hits').notNullable();
    t.primary(['import_id', 'date', 'family', 'verification', 'status_class']);
    t.index(['project_id', 'date']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['log_day_stats', 'log_url_stats', 'log_imports']) await knex.schema.dropTableIfExists(table);
}
