import type { Knex } from 'knex';

/**
 * A page no chain of links from the start URL reaches (listed only by a sitemap, or linked only
 * from such pages) has no click depth: `depth` is null for it (docs/checks.md, orphan_page).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('crawl_pages', (t) => t.setNullable('depth'));
}

export async function down(knex: Knex): Promise<void> {
  // The older schema has no way to say "no click depth": such pages read as depth -1.
  await knex('crawl_pages').whereNull('depth').update({ depth: -1 });
  await knex.schema.alterTable('crawl_pages', (t) => t.dropNullable('depth'));
}
