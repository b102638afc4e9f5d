import type { Knex } from 'knex';
import { redactCredentials } from '@siteaudit/schema/rules';

interface Row {
  import_id: string;
  project_id: string;
  path: string;
  family: string;
  verification: string;
  hits: number | string;
  last_visit: string;
  status_codes: string;
  bytes: number | string;
}

const postgres = (knex: Knex) => (knex.client as { dialect?: string }).dialect === 'postgresql';
/** Rows read at a time, per import. */
const BATCH = 1000;

/**
 * A log path keeps no credential, session id or phone number in a parameter (docs/privacy.md,
 * rule 3): the value of a listed parameter becomes `(redacted)`, as normaliseLogPath now writes
 * it (`redactCredentials`). URL statistics that imports made before this rule kept with one are
 * rewritten; a row that meets one already there under the new path (same import, family and
 * verification) is added to it, as migration 033 did (hits and bytes summed, the later visit,
 * status codes merged), and goes. Only paths with a `?`, `;` or `(` can hold one; they are read
 * import by import, a batch at a time, in the order of the import's unique key.
 */
export async function up(knex: Knex): Promise<void> {
  const c = postgres(knex) ? ' collate "C"' : '';
  const imports = (await knex('log_imports').select('id')) as { id: string }[];
  for (const { id } of imports) {
    let after: [string, string, string] | null = null;
    for (;;) {
      let query = knex('log_url_stats')
        .where({ import_id: id })
        .andWhere((b) => b.whereRaw('path like ?', ['%?%']).orWhereRaw('path like ?', ['%;%']).orWhereRaw('path like ?', ['%(%']));
      if (after) query = query.andWhereRaw(`(path${c}, family${c}, verification${c}) > (?, ?, ?)`, after);
      const rows = (await query.orderByRaw(`path${c}, family${c}, verification${c}`).limit(BATCH).select()) as Row[];
      if (rows.length === 0) break;
      const last = rows[rows.length - 1];
      after = [last.path, last.family, last.verification];
      for (const row of rows) await rewrite(knex, row);
      if (rows.length < BATCH) break;
    }
  }
}

async function rewrite(knex: Knex, row: Row): Promise<void> {
  const path = redactCredentials(row.path);
  if (path === row.path) return;
  const key = { import_id: row.import_id, family: row.family, verification: row.verification };
  const old = knex('log_url_stats').where({ ...key, path: row.path });
  const into = (await knex('log_url_stats').where({ ...key, path }).first()) as Row | undefined;
  if (!into) {
    await old.update({ path });
    return;
  }
  const statuses: Record<string, number> = JSON.parse(into.status_codes);
  for (const [code, hits] of Object.entries(JSON.parse(row.status_codes) as Record<string, number>)) statuses[code] = (statuses[code] ?? 0) + hits;
  await knex('log_url_stats')
    .where({ ...key, path })
    .update({
      hits: Number(into.hits) + Number(row.hits),
      bytes: Number(into.bytes) + Number(row.bytes),
      last_visit: row.last_visit > into.last_visit ? row.last_visit : into.last_visit,
      status_codes: JSON.stringify(statuses),
    });
  await old.delete();
}

/** What was rewritten is not brought back. */
export async function down(): Promise<void> {}
