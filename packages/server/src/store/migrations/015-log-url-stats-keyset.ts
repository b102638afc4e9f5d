import type { Knex } from 'knex';

/**
 * The log reads walk URL statistics in `(path, family, verification, import_id)` order, by keyset
 * (docs/decisions/logs.md, "Analysis"): the index on `(project_id, path, family, verification)`
 * lacked `import_id`, and on PostgreSQL it was in the database's collation while the reads order
 * by code points (`collate "C"`, as SQLite does and as the cursors compare), so each page sorted
 * every statistic of the project (docs/benchmarks.md, "Log import"). The index now has the reads'
 * order exactly: a page is a range of it.
 */
const postgres = (knex: Knex) => (knex.client as { dialect?: string }).dialect === 'postgresql';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('log_url_stats', (t) => t.dropIndex(['project_id', 'path', 'family', 'verification']));
  if (postgres(knex)) await knex.raw('create index log_url_stats_keyset_index on log_url_stats (project_id, path collate "C", family collate "C", verification collate "C", import_id)');
  else await knex.schema.alterTable('log_url_stats', (t) => t.index(['project_id', 'path', 'family', 'verification', 'import_id'], 'log_url_stats_keyset_index'));
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('log_url_stats', (t) => {
    t.dropIndex([], 'log_url_stats_keyset_index');
    t.index(['project_id', 'path', 'family', 'verification']);
  });
}
