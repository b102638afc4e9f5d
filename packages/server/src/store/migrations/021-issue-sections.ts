import type { Knex } from 'knex';

/**
 * The section of each crawled page and issue (its URL's first path folder, `/docs/`, or `/` at the
 * root: schema rules/template-patterns.ts `sectionOf`), so the issue summary can tell a template
 * decision of one section (docs/checks.md, "Scope") with grouped reads. Crawls stored before have
 * none (null): their summary reads site-level decisions only.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('crawl_pages', (t) => t.text('section').nullable());
  await knex.schema.alterTable('crawl_issues', (t) => t.text('section').nullable());
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('crawl_issues', (t) => t.dropColumn('section'));
  await knex.schema.alterTable('crawl_pages', (t) => t.dropColumn('section'));
}
