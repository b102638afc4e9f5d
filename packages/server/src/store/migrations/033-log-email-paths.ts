import type { Knex } from 'knex';
import { redactEmails } from '@siteaudit/schema/rules';

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

/**
 * A log path keeps no e-mail address (docs/decisions/logs.md, Privacy; docs/privacy.md): the
 * address becomes `(email)`, as normaliseLogPath now writes it. URL statistics that imports made
 * before this rule kept with an address are rewritten; a row that meets one already there under the
 * new path (same import, family and verification) is added to it, as the import's parts are
 * (hits and bytes summed, the later visit, status codes merged), and goes.
 */
export async function up(knex: Knex): Promise<void> {
  const rows = (await knex('log_url_stats')
    .whereRaw("path like ? escape '!'", ['%@%'])
    .orWhereRaw("path like ? escape '!'", ['%!%40%'])
    .select()) as Row[];
  for (const row of rows) {
    const path = redactEmails(row.path);
    if (path === row.path) continue;
    const key = { import_id: row.import_id, family: row.family, verification: row.verification };
    const old = knex('log_url_stats').where({ ...key, path: row.path });
    const into = (await knex('log_url_stats').where({ ...key, path }).first()) as Row | undefined;
    if (!into) {
      await old.update({ path });
      continue;
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
}

/** What was rewritten is not brought back. */
export async function down(): Promise<void> {}
