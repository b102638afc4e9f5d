import type { Knex } from 'knex';

/**
 * What crawled pages load (docs/decisions/resources.md): one row per distinct resource of a crawl
 * (a stylesheet used by every page is one row), and per page the ids of the resources it uses as
 * one compact text value ("0,3,17"), keyed like the by-URL read. A page uses about twenty
 * resources: a row per (page, resource) pair would be four million rows for a 200,000-page crawl,
 * where this is 200,000 short rows. Both go with their crawl (ON DELETE CASCADE, as crawl_pages).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('crawl_resources', (t) => {
    t.uuid('crawl_id').notNullable().references('crawls.id').onDelete('CASCADE');
    t.integer('id').notNullable();
    t.text('url').notNullable();
    t.string('type', 20).notNullable();
    t.boolean('is_internal').notNullable();
    t.integer('status_code').nullable();
    t.integer('final_status_code').nullable();
    t.text('redirect_url').nullable();
    t.string('error_type', 50).nullable();
    t.string('content_type', 200).nullable();
    t.bigInteger('size_bytes').nullable();
    t.primary(['crawl_id', 'id']);
  });
  await knex.schema.createTable('crawl_page_resources', (t) => {
    t.uuid('crawl_id').notNullable().references('crawls.id').onDelete('CASCADE');
    t.string('url_hash', 64).notNullable();
    t.text('resource_ids').notNullable();
    t.primary(['crawl_id', 'url_hash']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['crawl_page_resources', 'crawl_resources']) await knex.schema.dropTableIfExists(table);
}
