import type { Knex } from 'knex';

/**
 * Rank tracking (tracker, tracked keywords, daily position history, live and daily checks) and
 * Search Console (linked property, daily performance, URL inspections).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('position_trackers', (t) => {
    t.uuid('project_id').primary().references('projects.id').onDelete('CASCADE');
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.string('location', 100).notNullable();
    t.string('country', 2).notNullable();
    t.string('language', 10).notNullable();
    t.string('device', 10).notNullable();
    /** The day the next daily run is due: a run for any other day is a stale duplicate. */
    t.string('next_run_on', 10).nullable();
    t.string('last_run_on', 10).nullable();
    /** Why the last daily run measured nothing (e.g. serp_provider_unconfigured), else null. */
    t.string('last_run_error', 200).nullable();
    t.string('created_at', 30).notNullable();
  });
  await knex.schema.createTable('tracked_keywords', (t) => {
    t.uuid('id').primary();
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.uuid('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    /** Canonical form (canonicalKeyword): the identity. */
    t.string('keyword', 200).notNullable();
    /** candidate | tracked | paused | untracked */
    t.string('state', 20).notNullable();
    t.integer('search_volume').nullable();
    t.integer('keyword_difficulty').nullable();
    t.string('search_intent', 50).nullable();
    t.string('keyword_data_at', 30).nullable();
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    t.unique(['project_id', 'keyword']);
    t.index(['team_id', 'state']);
  });
  await knex.schema.createTable('keyword_positions', (t) => {
    t.uuid('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.string('keyword', 200).notNullable();
    t.string('date', 10).notNullable();
    /** null: measured and outside the top 100. */
    t.integer('position').nullable();
    t.text('url').nullable();
    t.text('serp_features').notNullable();
    t.string('checked_at', 30).notNullable();
    t.primary(['project_id', 'keyword', 'date']);
    t.index(['project_id', 'date']);
  });
  await knex.schema.createTable('keyword_checks', (t) => {
    t.uuid('id').primary();
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.uuid('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.string('keyword', 200).notNullable();
    t.string('date', 10).notNullable();
    /** live (the check operation) | daily (the daily job) */
    t.string('kind', 10).notNullable();
    /** queued | done | skipped | failed */
    t.string('status', 10).notNullable();
    t.string('reason', 500).nullable();
    t.string('created_at', 30).notNullable();
    t.string('finished_at', 30).nullable();
    t.index(['team_id', 'kind', 'date']);
    t.index(['project_id', 'keyword', 'date']);
  });

  await knex.schema.createTable('search_console_links', (t) => {
    t.uuid('project_id').primary().references('projects.id').onDelete('CASCADE');
    t.string('property', 500).notNullable();
    t.text('credentials_enc').notNullable();
    /** pending | ready | error: the outcome of the latest synchronisation. */
    t.string('status', 10).notNullable();
    t.string('last_error', 1000).nullable();
    t.string('linked_at', 30).notNullable();
    t.string('synced_at', 30).nullable();
    t.string('next_sync_on', 10).nullable();
  });
  await knex.schema.createTable('search_console_daily', (t) => {
    t.uuid('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.string('date', 10).notNullable();
    t.integer('clicks').notNullable();
    t.integer('impressions').notNullable();
    t.double('ctr').notNullable();
    t.double('position').notNullable();
    t.primary(['project_id', 'date']);
  });
  await knex.schema.createTable('search_console_inspections', (t) => {
    t.uuid('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.string('url_hash', 64).notNullable();
    t.text('url').notNullable();
    t.string('verdict', 30).notNullable();
    t.string('coverage_state', 200).nullable();
    t.string('indexing_state', 50).nullable();
    t.string('inspected_at', 30).notNullable();
    t.primary(['project_id', 'url_hash']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'search_console_inspections',
    'search_console_daily',
    'search_console_links',
    'keyword_checks',
    'keyword_positions',
    'tracked_keywords',
    'position_trackers',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
