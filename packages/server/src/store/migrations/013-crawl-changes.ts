import type { Knex } from 'knex';

/**
 * What changed since the previous comparable crawl (docs/decisions/crawl-changes.md): the new and
 * fixed issues and the page changes, written at settlement by set-based inserts; persisting
 * issues are read from `crawl_issues` (they would double its size). The crawl keeps which crawl
 * it was compared with and the summary of the comparison.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('crawl_changes', (t) => {
    t.uuid('crawl_id').notNullable().references('crawls.id').onDelete('CASCADE');
    // The order of the kinds in the list (issue_new 0 … status_changed 5) and the seq of the row
    // it comes from (the issue or the page): unique per kind, and the list's keyset.
    t.integer('kind_rank').notNullable();
    t.integer('seq').notNullable();
    t.string('kind', 20).notNullable();
    t.string('name', 100).nullable();
    t.string('severity', 10).nullable();
    t.string('category', 50).nullable();
    t.text('url').notNullable();
    t.text('details').nullable();
    t.integer('status_code').nullable();
    t.integer('previous_status_code').nullable();
    t.primary(['crawl_id', 'kind_rank', 'seq']);
  });
  await knex.schema.alterTable('crawls', (t) => {
    t.uuid('previous_crawl_id').nullable();
    t.text('changes').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('crawls', (t) => {
    t.dropColumn('changes');
    t.dropColumn('previous_crawl_id');
  });
  await knex.schema.dropTableIfExists('crawl_changes');
}
