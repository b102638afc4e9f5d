import type { Knex } from 'knex';

/**
 * The crawl comparison reads a crawl's issues as (check, URL) pairs (docs/decisions/crawl-changes.md):
 * the first occurrence of each pair, whether a pair is in another crawl, and the pages per check.
 * The `(crawl_id, name)` index becomes `(crawl_id, name, url_hash, severity, category, seq)`, which
 * answers all three from the index alone, in pair order (docs/benchmarks.md, "Crawl changes at
 * settlement"); reads by check still use its first two columns.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('crawl_issues', (t) => {
    t.dropIndex(['crawl_id', 'name']);
    t.index(['crawl_id', 'name', 'url_hash', 'severity', 'category', 'seq'], 'crawl_issues_pairs_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('crawl_issues', (t) => {
    t.dropIndex([], 'crawl_issues_pairs_index');
    t.index(['crawl_id', 'name']);
  });
}
