import type { Knex } from 'knex';

/**
 * Export files and rows a deletion still has to remove (modules/exports/eraser.ts): written in the
 * deletion's own transaction, removed once the files are gone, so that a process killed in
 * between leaves the rest for the next one, not a report nobody can reach or delete.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('export_erasures', (t) => {
    t.uuid('id').primary();
    // Files of exports whose rows went with a project or a campaign (a JSON array of blob keys).
    t.text('blob_keys').nullable();
    // Or: a log import of this project deleted; the exports finished since `since` go, rows and files.
    t.uuid('project_id').nullable();
    t.string('since', 30).nullable();
    t.string('created_at', 30).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('export_erasures');
}
