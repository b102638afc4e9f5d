import type { Knex } from 'knex';

/**
 * A page change carries where the URL redirected in each crawl (docs/decisions/crawl-changes.md):
 * `redirect_changed` is a page whose status stayed but whose redirect target did not (a page
 * turned into a meta-refresh stub answering 200, a 301 pointing elsewhere). Rows written before
 * keep nulls; the new kind comes last in the list, so no stored rank moves.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('crawl_changes', (t) => {
    t.text('redirect_url').nullable();
    t.text('previous_redirect_url').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('crawl_changes', (t) => {
    t.dropColumn('previous_redirect_url');
    t.dropColumn('redirect_url');
  });
}
