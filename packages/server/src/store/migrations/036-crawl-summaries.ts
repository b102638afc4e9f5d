import type { Knex } from 'knex';

/**
 * What a settled crawl's reports start from, computed once when it settles (docs/decisions/
 * crawl-reads.md, "The issue summary of a settled crawl"): its counts per check, its scored pages
 * and its template decisions, in no language. A crawl's issues no longer change once it has been
 * compared, yet the issue summary, the scorecard, the fix list, the exports and the next crawl's
 * comparison each read them again: on a 50,000-page crawl the summary alone took seconds. Crawls
 * settled before keep no row and are read as before.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('crawl_summaries', (t) => {
    t.uuid('crawl_id').primary().references('crawls.id').onDelete('CASCADE');
    t.text('summary').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('crawl_summaries');
}
