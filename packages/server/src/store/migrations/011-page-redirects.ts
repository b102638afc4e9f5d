import type { Knex } from 'knex';

/** Where a crawled page that redirects points (the crawler's `redirect_url`), for the reports' 3xx rows. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('crawl_pages', (t) => {
    t.text('redirect_url').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('crawl_pages', (t) => {
    t.dropColumn('redirect_url');
  });
}
