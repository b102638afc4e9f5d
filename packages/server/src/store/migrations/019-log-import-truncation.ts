import type { Knex } from 'knex';

/**
 * A gzip upload cut short (docs/decisions/logs.md, "Truncated files"): the import completes with
 * what decompressed, and `truncation` (JSON: bytes of text recovered, whether the last line was
 * cut) says so. Null for a complete file and for every import made before.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('log_imports', (t) => t.text('truncation').nullable());
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('log_imports', (t) => t.dropColumn('truncation'));
}
