import type { Knex } from 'knex';

/** Teams, members, tokens, projects, campaigns, and the idempotency and rate-limit records. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('settings', (t) => {
    t.string('key', 100).primary();
    t.text('value').notNullable();
  });
  await knex.schema.createTable('teams', (t) => {
    t.uuid('id').primary();
    t.string('slug', 100).notNullable().unique();
    t.string('name', 200).notNullable();
    t.string('plan', 50).notNullable();
    t.string('created_at', 30).notNullable();
  });
  await knex.schema.createTable('members', (t) => {
    t.uuid('id').primary();
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.string('email', 320).notNullable();
    t.string('name', 200).notNullable();
    t.string('role', 20).notNullable();
    t.string('created_at', 30).notNullable();
    t.string('removed_at', 30).nullable();
    t.unique(['team_id', 'email']);
  });
  await knex.schema.createTable('tokens', (t) => {
    t.uuid('id').primary();
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.uuid('member_id').notNullable().references('members.id').onDelete('CASCADE');
    t.string('name', 200).notNullable();
    t.string('token_hash', 64).notNullable().unique();
    t.text('scopes').notNullable();
    t.string('expires_at', 30).notNullable();
    t.string('last_used_at', 30).nullable();
    t.string('created_at', 30).notNullable();
  });
  await knex.schema.createTable('projects', (t) => {
    t.uuid('id').primary();
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.string('name', 200).notNullable();
    t.string('slug', 200).notNullable();
    t.text('url').notNullable();
    t.string('domain', 255).notNullable();
    t.boolean('locked').notNullable().defaultTo(false);
    t.text('profile').nullable();
    t.text('priority_urls').nullable();
    t.uuid('latest_crawl_id').nullable();
    t.string('latest_crawl_finished_at', 30).nullable();
    t.string('created_at', 30).notNullable();
    t.unique(['team_id', 'slug']);
    t.index(['team_id', 'created_at', 'id']);
  });
  await knex.schema.createTable('campaigns', (t) => {
    t.uuid('id').primary();
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.uuid('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.string('name', 200).notNullable();
    t.text('start_url').notNullable();
    t.integer('max_depth').notNullable();
    t.integer('max_urls').notNullable();
    t.boolean('javascript_rendering').notNullable().defaultTo(false);
    t.boolean('pagespeed').notNullable().defaultTo(false);
    t.boolean('check_external_links').notNullable().defaultTo(false);
    t.boolean('check_ai_reachability').notNullable().defaultTo(false);
    t.boolean('check_accessibility').notNullable().defaultTo(false);
    t.boolean('check_accessibility_rendered').notNullable().defaultTo(false);
    t.boolean('protected_site').notNullable().defaultTo(false);
    t.text('include_patterns').nullable();
    t.text('exclude_patterns').nullable();
    t.text('issue_exclusion_patterns').nullable();
    t.integer('timeout').nullable();
    t.integer('retries').nullable();
    t.float('duplication_threshold').nullable();
    t.string('regression_threshold', 20).notNullable().defaultTo('off');
    t.text('http_user_enc').nullable();
    t.text('http_password_enc').nullable();
    t.boolean('notify').notNullable().defaultTo(false);
    t.string('schedule_frequency', 20).notNullable().defaultTo('manual');
    t.string('schedule_day', 20).nullable();
    t.string('schedule_time', 5).nullable();
    t.boolean('schedule_paused').notNullable().defaultTo(false);
    t.string('next_run_at', 30).nullable();
    t.string('created_at', 30).notNullable();
    t.index(['project_id', 'created_at', 'id']);
    t.index(['next_run_at']);
  });
  await knex.schema.createTable('idempotency_keys', (t) => {
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.string('key', 255).notNullable();
    t.string('fingerprint', 64).notNullable();
    t.string('state', 20).notNullable();
    t.integer('status').nullable();
    t.text('body').nullable();
    t.text('headers').nullable();
    t.string('locked_until', 30).notNullable();
    t.string('expires_at', 30).notNullable();
    t.primary(['team_id', 'key']);
    t.index(['expires_at']);
  });
  await knex.schema.createTable('rate_counters', (t) => {
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.string('window', 10).notNullable();
    t.bigInteger('window_start').notNullable();
    t.integer('used').notNullable();
    t.primary(['team_id', 'window']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['rate_counters', 'idempotency_keys', 'campaigns', 'projects', 'tokens', 'members', 'teams', 'settings']) {
    await knex.schema.dropTableIfExists(table);
  }
}
