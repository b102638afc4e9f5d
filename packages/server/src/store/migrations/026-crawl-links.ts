import type { Knex } from 'knex';

/**
 * A crawl's internal links, for the inlinks read (docs/decisions/crawl-reads.md): one row per
 * (source page, target URL), the target as its URL hash, the source as its page's `seq` (its URL
 * is in `crawl_pages`), the first link's text and whether it is nofollow. Read by target, in the
 * order found: the `(crawl_id, target_hash, seq)` index answers a page of inlinks from the index.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('crawl_links', (t) => {
    t.uuid('crawl_id').notNullable().references('crawls.id').onDelete('CASCADE');
    t.integer('seq').notNullable();
    t.string('target_hash', 64).notNullable();
    t.integer('source_seq').notNullable();
    t.text('anchor_text').notNullable();
    t.boolean('nofollow').notNullable().defaultTo(false);
    t.primary(['crawl_id', 'seq']);
    t.index(['crawl_id', 'target_hash', 'seq']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('crawl_links');
}
