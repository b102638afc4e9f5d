import type { Knex } from 'knex';
import { up as keyedBySeq } from './026-crawl-links.js';

/**
 * A crawl's links, written in the order found and ordered by target once, at settlement
 * (docs/decisions/crawl-reads.md, "Inlinks: stored in the order found, ordered at settlement").
 * Each link row went to a random place of the `(crawl_id, target_hash, seq)` index as it was found,
 * so every row dirtied a page of its own: on a dense site the largest part of the store's work,
 * which paced the crawl (docs/benchmarks.md).
 *
 * - `crawl_links_found`: the links of a crawl being fetched, keyed `(crawl_id, bucket, seq)`, where
 *   `bucket` is the target hash's first 6 bits. Rows arrive in `seq` order, so each bucket is
 *   written at its end: 64 places a crawl writes to, not one per row.
 * - `crawl_links`: what the inlinks read serves, keyed `(crawl_id, target_hash, seq)`. A bucket is
 *   moved in one transaction, its rows sorted by target, buckets in hash order: the crawl's key
 *   range is written from start to end. On SQLite both tables are clustered on their key
 *   (`WITHOUT ROWID`): one B-tree a row.
 */
const postgres = (knex: Knex) => (knex.client as { dialect?: string }).dialect === 'postgresql';

const FOUND_COLUMNS = `crawl_id char(36) not null references crawls (id) on delete cascade,
    bucket smallint not null,
    seq integer not null,
    target_hash varchar(64) not null,
    source_seq integer not null,
    anchor_text text not null,
    nofollow boolean not null default false,
    primary key (crawl_id, bucket, seq)`;

export async function up(knex: Knex): Promise<void> {
  if (postgres(knex)) {
    await knex.raw(`create table crawl_links_found (${FOUND_COLUMNS.replace('char(36)', 'uuid')})`);
    await knex.raw('alter table crawl_links drop constraint crawl_links_pkey');
    await knex.raw('drop index crawl_links_crawl_id_target_hash_seq_index');
    await knex.raw('alter table crawl_links add primary key (crawl_id, target_hash, seq)');
    return;
  }
  await knex.raw(`create table crawl_links_found (${FOUND_COLUMNS}) without rowid`);
  await knex.raw(`create table crawl_links_by_target (
    crawl_id char(36) not null references crawls (id) on delete cascade,
    target_hash varchar(64) not null,
    seq integer not null,
    source_seq integer not null,
    anchor_text text not null,
    nofollow boolean not null default false,
    primary key (crawl_id, target_hash, seq)
  ) without rowid`);
  await knex.raw(`insert into crawl_links_by_target (crawl_id, target_hash, seq, source_seq, anchor_text, nofollow)
    select crawl_id, target_hash, seq, source_seq, anchor_text, nofollow from crawl_links order by crawl_id, target_hash, seq`);
  await knex.raw('drop table crawl_links');
  await knex.raw('alter table crawl_links_by_target rename to crawl_links');
}

export async function down(knex: Knex): Promise<void> {
  // Links of a crawl still being fetched go back into the table they were written to.
  const moveFound = 'insert into crawl_links (crawl_id, seq, target_hash, source_seq, anchor_text, nofollow) select crawl_id, seq, target_hash, source_seq, anchor_text, nofollow from crawl_links_found';
  if (postgres(knex)) {
    await knex.raw(moveFound);
    await knex.raw('drop table crawl_links_found');
    await knex.raw('alter table crawl_links drop constraint crawl_links_pkey');
    await knex.raw('alter table crawl_links add primary key (crawl_id, seq)');
    await knex.raw('create index crawl_links_crawl_id_target_hash_seq_index on crawl_links (crawl_id, target_hash, seq)');
    return;
  }
  await knex.raw('alter table crawl_links rename to crawl_links_by_target');
  // The table as migration 026 made it.
  await keyedBySeq(knex);
  await knex.raw('insert into crawl_links (crawl_id, seq, target_hash, source_seq, anchor_text, nofollow) select crawl_id, seq, target_hash, source_seq, anchor_text, nofollow from crawl_links_by_target');
  await knex.raw(moveFound);
  await knex.raw('drop table crawl_links_by_target');
  await knex.raw('drop table crawl_links_found');
}
