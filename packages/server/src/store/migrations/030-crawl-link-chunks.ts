import type { Knex } from 'knex';

/**
 * The links of a crawl being fetched kept a chunk a row, not a link a row (docs/decisions/
 * crawl-reads.md, "Inlinks: links found kept in chunks"). `crawl_links_found` took a row a link
 * (about 21 a dense page), written during the fetch, then read, moved to `crawl_links` and deleted
 * one by one at settlement: the deletion alone was half of the settlement's time.
 *
 * `crawl_link_chunks` holds, a row each, the links of one write of the sink whose target falls in
 * one of 64 buckets (the target hash's first 6 bits), keyed by the first link's `seq`: `links` is
 * a JSON array of links, each one string (`packed`: the target hash, the link's `seq` and its
 * source's `seq` on 10 digits each, nofollow as 0 or 1, then the anchor text), `n` their number.
 * The settlement unpacks a bucket's chunks in SQL (json_each, json_array_elements_text) straight
 * into `crawl_links` (unchanged), sorted by target, and deletes its few chunk rows.
 */
const postgres = (knex: Knex) => (knex.client as { dialect?: string }).dialect === 'postgresql';
const COPY_ROWS = 5000;

type Found = { crawl_id: string; bucket: number; seq: number; target_hash: string; source_seq: number; anchor_text: string; nofollow: unknown };
type Chunk = { crawl_id: string; bucket: number; seq: number; links: string };

/** A link as a chunk holds it (link-order.ts `packLink` when this was written). */
const packed = (l: Found) =>
  `${l.target_hash}${String(l.seq).padStart(10, '0')}${String(l.source_seq).padStart(10, '0')}${l.nofollow === true || Number(l.nofollow) === 1 ? 1 : 0}${l.anchor_text}`;

/** Rows of `table` in key order, a slice at a time (keyset on the key columns). */
async function* inOrder<T>(knex: Knex, table: string, key: string[]): AsyncGenerator<T[]> {
  let after: unknown[] | null = null;
  for (;;) {
    const q = knex(table).select('*').orderBy(key.map((column) => ({ column }))).limit(COPY_ROWS);
    if (after) q.whereRaw(`(${key.join(', ')}) > (${key.map(() => '?').join(', ')})`, after as Knex.RawBinding[]);
    const rows = (await q) as T[];
    if (rows.length === 0) return;
    yield rows;
    const last = rows[rows.length - 1] as Record<string, unknown>;
    after = key.map((c) => last[c]);
  }
}

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`create table crawl_link_chunks (
    crawl_id ${postgres(knex) ? 'uuid' : 'char(36)'} not null references crawls (id) on delete cascade,
    bucket smallint not null,
    seq integer not null,
    n integer not null,
    links text not null,
    primary key (crawl_id, bucket, seq)
  )`);
  // The links found of a crawl still being fetched: a chunk each.
  for await (const rows of inOrder<Found>(knex, 'crawl_links_found', ['crawl_id', 'bucket', 'seq'])) {
    const chunks = rows.map((l) => ({
      crawl_id: l.crawl_id,
      bucket: l.bucket,
      seq: l.seq,
      n: 1,
      links: JSON.stringify([packed(l)]),
    }));
    for (let i = 0; i < chunks.length; i += 100) await knex('crawl_link_chunks').insert(chunks.slice(i, i + 100));
  }
  await knex.raw('drop table crawl_links_found');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`create table crawl_links_found (
    crawl_id ${postgres(knex) ? 'uuid' : 'char(36)'} not null references crawls (id) on delete cascade,
    bucket smallint not null,
    seq integer not null,
    target_hash varchar(64) not null,
    source_seq integer not null,
    anchor_text text not null,
    nofollow boolean not null default false,
    primary key (crawl_id, bucket, seq)
  )${postgres(knex) ? '' : ' without rowid'}`);
  for await (const rows of inOrder<Chunk>(knex, 'crawl_link_chunks', ['crawl_id', 'bucket', 'seq'])) {
    const links = rows.flatMap((c) =>
      (JSON.parse(c.links) as string[]).map((link) => ({
        crawl_id: c.crawl_id,
        bucket: c.bucket,
        seq: Number(link.slice(64, 74)),
        target_hash: link.slice(0, 64),
        source_seq: Number(link.slice(74, 84)),
        anchor_text: link.slice(85),
        nofollow: link[84] === '1',
      })),
    );
    for (let i = 0; i < links.length; i += 100) await knex('crawl_links_found').insert(links.slice(i, i + 100));
  }
  await knex.raw('drop table crawl_link_chunks');
}
