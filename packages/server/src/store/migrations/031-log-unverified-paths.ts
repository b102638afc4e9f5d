import type { Knex } from 'knex';

/**
 * Google and Bing claims that failed verification are kept as day counts only, like human
 * requests (docs/decisions/logs.md, Privacy): by the product's own check they are not the bot
 * they claim, and their paths and query strings may hold a person's data. The URL statistics that
 * imports made before this rule kept for them go; their day counts (`log_day_stats`), which the
 * insights read, stay.
 */
export async function up(knex: Knex): Promise<void> {
  await knex('log_url_stats').where({ verification: 'unverified' }).delete();
}

/** What was deleted is not brought back. */
export async function down(): Promise<void> {}
