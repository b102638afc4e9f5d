import type { Knex } from 'knex';

/**
 * The kind `issue_gone_with_page` takes rank 2 in the changes list (docs/decisions/crawl-changes.md):
 * the stored ranks from `issue_persisting` on move up one, in two steps so no row meets another's
 * key on the way (PostgreSQL checks the primary key row by row).
 */
export async function up(knex: Knex): Promise<void> {
  await knex('crawl_changes').where('kind_rank', '>=', 2).update({ kind_rank: knex.raw('kind_rank + 100') });
  await knex('crawl_changes').where('kind_rank', '>=', 100).update({ kind_rank: knex.raw('kind_rank - 99') });
}

export async function down(knex: Knex): Promise<void> {
  await knex('crawl_changes').where({ kind_rank: 2 }).delete();
  await knex('crawl_changes').where('kind_rank', '>=', 3).update({ kind_rank: knex.raw('kind_rank + 100') });
  await knex('crawl_changes').where('kind_rank', '>=', 100).update({ kind_rank: knex.raw('kind_rank - 101') });
}
