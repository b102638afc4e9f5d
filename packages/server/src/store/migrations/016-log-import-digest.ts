import type { Knex } from 'knex';

/**
 * An upload's SHA-256, computed as its body streams to disk (docs/decisions/logs.md, "One file,
 * one count"): a second upload of the same bytes to the same project is refused while the first
 * import stands (queued, parsing or completed). A failed import does not hold its digest, so the
 * file can be sent again; the partial unique index settles two identical uploads at once.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('log_imports', (t) => t.string('content_sha256', 64).nullable());
  await knex.raw(`create unique index log_imports_digest_index on log_imports (project_id, content_sha256) where content_sha256 is not null and status <> 'failed'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists log_imports_digest_index');
  await knex.schema.alterTable('log_imports', (t) => t.dropColumn('content_sha256'));
}
