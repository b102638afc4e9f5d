import type { Knex } from 'knex';

/** Crawls with their pages and issue occurrences, and the durable jobs table. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('crawls', (t) => {
    t.uuid('id').primary();
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.uuid('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.uuid('campaign_id').notNullable().references('campaigns.id').onDelete('CASCADE');
    t.string('status', 20).notNullable();
    t.string('stage', 20).notNullable();
    t.boolean('active').notNullable();
    t.boolean('settled').notNullable().defaultTo(false);
    t.text('stage_plan').notNullable();
    t.integer('pages_crawled').notNullable().defaultTo(0);
    t.integer('pages_discovered').notNullable().defaultTo(0);
    t.integer('pages_budget').notNullable();
    t.integer('issues_error').notNullable().defaultTo(0);
    t.integer('issues_warning').notNullable().defaultTo(0);
    t.integer('issues_info').notNullable().defaultTo(0);
    t.integer('protection_occurrences').notNullable().defaultTo(0);
    t.boolean('truncated').notNullable().defaultTo(false);
    t.boolean('blocked').notNullable().defaultTo(false);
    t.boolean('comparable').notNullable().defaultTo(false);
    t.string('blocked_reason', 100).nullable();
    t.text('error').nullable();
    t.string('trigger', 20).notNullable();
    t.text('config').notNullable();
    t.string('config_hash', 64).notNullable();
    t.float('health_score').nullable();
    t.text('pagespeed').nullable();
    t.boolean('stop_requested').notNullable().defaultTo(false);
    t.string('started_at', 30).nullable();
    t.string('finished_at', 30).nullable();
    t.string('created_at', 30).notNullable();
    t.index(['project_id', 'created_at', 'id']);
    t.index(['team_id', 'active']);
    t.index(['campaign_id', 'active']);
  });
  // At most one running crawl per campaign, whatever the race (409, docs/decisions/crawl-launch.md).
  await knex.raw('create unique index crawls_one_active_per_campaign on crawls (campaign_id) where active = true');
  await knex.schema.createTable('crawl_pages', (t) => {
    t.uuid('crawl_id').notNullable().references('crawls.id').onDelete('CASCADE');
    t.integer('seq').notNullable();
    t.text('url').notNullable();
    t.string('url_hash', 64).notNullable();
    t.integer('status_code').nullable();
    t.string('error_type', 50).nullable();
    t.string('content_type', 200).nullable();
    t.boolean('is_internal').notNullable();
    t.integer('depth').notNullable();
    t.text('title').nullable();
    t.text('meta_description').nullable();
    t.text('h1').nullable();
    t.integer('word_count').nullable();
    t.text('canonical_url').nullable();
    t.float('response_time_ms').nullable();
    t.integer('size_bytes').nullable();
    t.integer('internal_links').notNullable().defaultTo(0);
    t.integer('external_links').notNullable().defaultTo(0);
    t.integer('images').notNullable().defaultTo(0);
    t.integer('images_without_alt').notNullable().defaultTo(0);
    t.primary(['crawl_id', 'seq']);
    t.index(['crawl_id', 'url_hash']);
  });
  await knex.schema.createTable('crawl_issues', (t) => {
    t.uuid('crawl_id').notNullable().references('crawls.id').onDelete('CASCADE');
    t.integer('seq').notNullable();
    t.string('name', 100).notNullable();
    t.string('severity', 10).notNullable();
    t.integer('severity_rank').notNullable();
    t.string('category', 50).notNullable();
    t.text('url').notNullable();
    t.string('url_hash', 64).notNullable();
    t.text('details').notNullable();
    t.primary(['crawl_id', 'seq']);
    t.index(['crawl_id', 'url_hash']);
    t.index(['crawl_id', 'name']);
    t.index(['crawl_id', 'severity_rank', 'seq']);
  });
  await knex.schema.createTable('jobs', (t) => {
    t.uuid('id').primary();
    t.string('kind', 50).notNullable();
    t.text('payload').notNullable();
    t.string('state', 20).notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.string('run_at', 30).notNullable();
    t.string('lease_until', 30).nullable();
    t.text('last_error').nullable();
    t.string('created_at', 30).notNullable();
    t.index(['state', 'run_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['jobs', 'crawl_issues', 'crawl_pages', 'crawls']) await knex.schema.dropTableIfExists(table);
}
