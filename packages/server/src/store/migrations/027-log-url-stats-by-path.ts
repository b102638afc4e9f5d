import { createHash } from 'node:crypto';
import type { Knex } from 'knex';

/**
 * URL statistics keyed by path instead of its SHA-256 (docs/decisions/logs.md, "The store"). An
 * import writes its statistics in parts, each sorted by `(path, family, verification)`; keyed by
 * a hash, every row landed on a random page of the primary key, and on SQLite on a third B-tree
 * (the rowid table), so the import's pace was the store's random writes. Now:
 *
 * - SQLite: the table is clustered on the reads' keyset order (`WITHOUT ROWID`, primary key
 *   `(project_id, path, family, verification, import_id)`), with one index by import for its
 *   deletion; a sorted part walks both in order.
 * - PostgreSQL: the primary key is `(import_id, path, family, verification)` in the "C"
 *   collation, beside the keyset index of migration 015; a sorted part walks both in order.
 *
 * `path_hash` goes: nothing reads it. A statistic's path is at most MAX_STORED_PATH characters
 * (the parse shortens longer ones), so a key fits a PostgreSQL B-tree entry.
 */
const postgres = (knex: Knex) => (knex.client as { dialect?: string }).dialect === 'postgresql';

export async function up(knex: Knex): Promise<void> {
  if (postgres(knex)) {
    await knex.raw('alter table log_url_stats drop constraint log_url_stats_pkey');
    await knex.raw('alter table log_url_stats drop column path_hash');
    await knex.raw('create unique index log_url_stats_import_key on log_url_stats (import_id, path collate "C", family collate "C", verification collate "C")');
    return;
  }
  await knex.raw(`create table log_url_stats_by_path (
    project_id char(36) not null references projects (id) on delete cascade,
    path text not null,
    family varchar(30) not null,
    verification varchar(20) not null,
    import_id char(36) not null references log_imports (id) on delete cascade,
    hits bigint not null,
    last_visit varchar(30) not null,
    status_codes text not null,
    bytes bigint not null,
    primary key (project_id, path, family, verification, import_id)
  ) without rowid`);
  await knex.raw(`insert into log_url_stats_by_path (project_id, path, family, verification, import_id, hits, last_visit, status_codes, bytes)
    select project_id, path, family, verification, import_id, hits, last_visit, status_codes, bytes from log_url_stats`);
  await knex.raw('drop table log_url_stats');
  await knex.raw('alter table log_url_stats_by_path rename to log_url_stats');
  await knex.raw('create unique index log_url_stats_import_key on log_url_stats (import_id, path, family, verification)');
}

export async function down(knex: Knex): Promise<void> {
  if (postgres(knex)) {
    await knex.raw('drop index log_url_stats_import_key');
    await knex.raw("alter table log_url_stats add column path_hash varchar(64) not null default ''");
    await knex.raw("update log_url_stats set path_hash = encode(sha256(convert_to(path, 'UTF8')), 'hex')");
    await knex.raw('alter table log_url_stats add primary key (import_id, family, verification, path_hash)');
    return;
  }
  // SQLite has no SHA-256 in SQL: the former table is rebuilt with the hashes computed here.
  await knex.raw('drop index log_url_stats_import_key');
  await knex.raw('alter table log_url_stats rename to log_url_stats_by_path');
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
    t.index(['project_id', 'path', 'family', 'verification', 'import_id'], 'log_url_stats_keyset_index');
  });
  const rows = (await knex('log_url_stats_by_path').select()) as Record<string, unknown>[];
  for (let i = 0; i < rows.length; i += 50) {
    await knex('log_url_stats').insert(rows.slice(i, i + 50).map((r) => ({ ...r, path_hash: createHash('sha256').update(String(r.path)).digest('hex') })));
  }
  await knex.schema.dropTable('log_url_stats_by_path');
}
