/**
 * Reads of the log aggregates for the reports (docs/decisions/exports.md#the-log-section): every
 * URL statistic streamed in keyset pages, and the per-day counts. Over the project's completed
 * imports, as the API's reads (store.ts).
 */
import type { Knex } from 'knex';
import type { BotFamily, LogDayStat } from '@siteaudit/schema';
import type { UrlStat } from '@siteaudit/schema/rules';
import { json } from '../../store/database.js';
import { completedImports } from './store.js';

const PAGE = 1000;

type Row = { path: string; family: string; verification: string; import_id: string; hits: number | string; last_visit: string; status_codes: string; bytes: number | string };

/**
 * Every URL statistic of the project, by path, family and verification, summed over its imports
 * (never an unverified claim's: those are day counts only).
 * Rows are read PAGE at a time in key order (import last), so the rows of one key arrive together
 * and are merged as they pass: nothing but the current key is held. The order is the keyset
 * index's (migration 015: code points, `collate "C"` on PostgreSQL), so a page is a range of it.
 */
export async function* urlStatStream(knex: Knex, projectId: string, page = PAGE, since?: string): AsyncIterable<UrlStat> {
  const c = (knex.client as { dialect?: string }).dialect === 'postgresql' ? ' collate "C"' : '';
  let after: [string, string, string, string] | null = null;
  let current: UrlStat | null = null;
  for (;;) {
    const q = knex('log_url_stats')
      .where({ project_id: projectId })
      .whereIn('import_id', completedImports(knex, projectId, since))
      .whereNot('verification', 'unverified')
      .select('path', 'family', 'verification', 'import_id', 'hits', 'last_visit', 'status_codes', 'bytes')
      .orderByRaw(`path${c}, family${c}, verification${c}, import_id`)
      .limit(page);
    if (after) q.andWhereRaw(`(path${c}, family${c}, verification${c}, import_id) > (?, ?, ?, ?)`, after);
    const rows = (await q) as Row[];
    for (const r of rows) {
      const codes = json<Record<string, number>>(r.status_codes, {});
      if (current && current.path === r.path && current.family === r.family && current.verification === r.verification) {
        current.hits += Number(r.hits);
        current.bytes += Number(r.bytes);
        if (r.last_visit > current.last_visit) current.last_visit = r.last_visit;
        for (const [code, n] of Object.entries(codes)) current.status_codes[code] = (current.status_codes[code] ?? 0) + n;
        continue;
      }
      if (current) yield current;
      current = { path: r.path, family: r.family as BotFamily, verification: r.verification as UrlStat['verification'], hits: Number(r.hits), last_visit: r.last_visit, status_codes: codes, bytes: Number(r.bytes) };
    }
    if (rows.length < page) break;
    const last = rows[rows.length - 1];
    after = [last.path, last.family, last.verification, last.import_id];
  }
  if (current) yield current;
}

/** Hits per day, family, verification and status class, most recent day first (a few rows per day). */
export async function dayStats(knex: Knex, projectId: string): Promise<LogDayStat[]> {
  const rows = (await knex('log_day_stats')
    .where({ project_id: projectId })
    .whereIn('import_id', completedImports(knex, projectId))
    .groupBy('date', 'family', 'verification', 'status_class')
    .select('date', 'family', 'verification', 'status_class')
    .sum({ hits: 'hits' })
    .orderBy([{ column: 'date', order: 'desc' }, 'family', 'verification', 'status_class'])) as Record<string, unknown>[];
  return rows.map((r) => ({ ...r, hits: Number(r.hits) }) as LogDayStat);
}

/** How many completed imports the project has. */
export async function completedImportCount(knex: Knex, projectId: string): Promise<number> {
  const [row] = (await knex('log_imports').where({ project_id: projectId, status: 'completed' }).whereNotNull('period_to').count({ n: '*' })) as { n: number | string }[];
  return Number(row?.n ?? 0);
}

/**
 * Every URL statistic of the project (imports ending on or after `since`) to `visit`, read a page
 * at a time (`urlStatStream`): the API thread folds one page, then waits on the database for the
 * next, answering other requests meanwhile; nothing holds them all. Returns how many there were.
 */
export async function eachUrlStat(knex: Knex, projectId: string, since: string | undefined, visit: (stat: UrlStat) => void): Promise<number> {
  let count = 0;
  for await (const stat of urlStatStream(knex, projectId, URL_STAT_PAGE, since)) {
    visit(stat);
    count++;
  }
  return count;
}

/** Rows read per query when every statistic is walked. */
const URL_STAT_PAGE = 5000;

/** Every URL statistic of the project in one array (the reports' log section summarises them whole). */
export async function urlStats(knex: Knex, projectId: string, since?: string): Promise<UrlStat[]> {
  const stats: UrlStat[] = [];
  await eachUrlStat(knex, projectId, since, (stat) => stats.push(stat));
  return stats;
}
