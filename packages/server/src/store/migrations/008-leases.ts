import type { Knex } from 'knex';

/** Kinds that exist once (a chain that re-queues itself): recreated by the server at start. */
const SINGLETON_KINDS = ['campaigns.schedule', 'webhook.sweep', 'exports.sweep'];

/**
 * Job leases with an owner and a fencing token (docs/reliability.md, "Crashes and shutdown"),
 * singleton keys enforced by the store, and one stored page per URL of a crawl.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('jobs', (t) => {
    t.string('lease_owner', 64).nullable();
    // Incremented at every claim: a write carrying an older value comes from a run that lost its lease.
    t.integer('lease_token').notNullable().defaultTo(0);
    t.string('singleton_key', 200).nullable();
  });
  // Older chains had no key: they are dropped and queued again, with their key, at the next start.
  await knex('jobs').whereIn('kind', SINGLETON_KINDS).whereIn('state', ['queued', 'running']).delete();
  await knex.raw("create unique index jobs_one_per_singleton on jobs (singleton_key) where state in ('queued', 'running')");

  // Rows doubled by two runs of one crawl: the first stored is kept.
  await knex.raw(
    'delete from crawl_pages where exists (select 1 from crawl_pages other where other.crawl_id = crawl_pages.crawl_id and other.url_hash = crawl_pages.url_hash and other.seq < crawl_pages.seq)',
  );
  await knex.schema.alterTable('crawl_pages', (t) => {
    t.dropIndex(['crawl_id', 'url_hash']);
    t.unique(['crawl_id', 'url_hash']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('crawl_pages', (t) => {
    t.dropUnique(['crawl_id', 'url_hash']);
    t.index(['crawl_id', 'url_hash']);
  });
  await knex.raw('drop index jobs_one_per_singleton');
  await knex.schema.alterTable('jobs', (t) => {
    t.dropColumn('lease_owner');
    t.dropColumn('lease_token');
    t.dropColumn('singleton_key');
  });
}
