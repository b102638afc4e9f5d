import type { Knex } from 'knex';

/**
 * A crawl's issue indexes keyed so that a crawl writes them in order (docs/benchmarks.md, "The
 * dense, templated site"). The pair index `(crawl_id, name, url_hash, severity, category, seq)`
 * put each of a page's findings at a random place of its check's range (6 random writes a page on
 * a templated site), and `(crawl_id, url_hash)` one more; each dirtied a page of its own, and
 * they paced the crawl. Now:
 *
 * - `crawl_issues_by_check (crawl_id, name, severity, category, seq, url_hash)`: a check's
 *   occurrences in the order found, so a crawl appends to each check's range; it answers what the
 *   pair index did by check (counts and pages per check, a check's URLs, the comparison's batches)
 *   from the index alone;
 * - `crawl_issues_by_page (crawl_id, url_hash, name, seq)`: a page's findings side by side (one
 *   random write a page, not one a finding), for the reads by URL and the comparison's lookups of
 *   a (check, URL) pair.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('crawl_issues', (t) => {
    t.dropIndex([], 'crawl_issues_pairs_index');
    t.dropIndex(['crawl_id', 'url_hash']);
    t.index(['crawl_id', 'name', 'severity', 'category', 'seq', 'url_hash'], 'crawl_issues_by_check');
    t.index(['crawl_id', 'url_hash', 'name', 'seq'], 'crawl_issues_by_page');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('crawl_issues', (t) => {
    t.dropIndex([], 'crawl_issues_by_check');
    t.dropIndex([], 'crawl_issues_by_page');
    t.index(['crawl_id', 'url_hash']);
    t.index(['crawl_id', 'name', 'url_hash', 'severity', 'category', 'seq'], 'crawl_issues_pairs_index');
  });
}
