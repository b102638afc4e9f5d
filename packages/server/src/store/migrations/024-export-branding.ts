import type { Knex } from 'knex';

/**
 * Cover branding of an export (docs/decisions/export-branding.md): the agency name and logo the
 * request gave, as JSON (`{ agency_name?, logo? }`, the logo a data: URL of 256 KiB at most), read
 * by the generation job. Null: no branding.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('exports', (t) => t.text('branding').nullable());
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('exports', (t) => t.dropColumn('branding'));
}
