/**
 * The log module's rows: imports, and the aggregates a parse gives (no address, no line). Reads
 * sum the aggregates over the project's completed imports.
 */
import type { Knex } from 'knex';
import type { BotFamily, LogImport } from '@siteaudit/schema';
import { statusRecord, storedPath, type LogAggregate, type LogTotals, type UrlAggregate, type UrlStat } from '@siteaudit/schema/rules';
import { json } from '../../store/database.js';

export interface LogImportRow {
  id: string;
  team_id: string;
  project_id: string;
  status: LogImport['status'];
  format: LogImport['format'];
  size_bytes: number | string;
  lines_read: number | string;
  lines_kept: number | string;
  lines_refused: number | string;
  refusals: string;
  human_hits: number | string;
  bot_hits: number | string;
  period_from: string | null;
  period_to: string | null;
  file_key: string | null;
  /** SHA-256 of the upload as sent (migration 016). */
  content_sha256: string | null;
  /** JSON `LogTruncation` when the gzip stream was cut short, else null (migration 019). */
  truncation?: string | null;
  error: string | null;
  created_at: string;
  finished_at: string | null;
}

export function toLogImport(row: LogImportRow): LogImport {
  return {
    id: row.id,
    project_id: row.project_id,
    status: row.status,
    format: row.format,
    size_bytes: Number(row.size_bytes),
    lines: { read: Number(row.lines_read), kept: Number(row.lines_kept), refused: Number(row.lines_refused) },
    refusals: json(row.refusals, []),
    human_hits: Number(row.human_hits),
    bot_hits: Number(row.bot_hits),
    period: row.period_from && row.period_to ? { from: row.period_from, to: row.period_to } : null,
    truncation: json<LogImport['truncation']>(row.truncation ?? null, null),
    error: row.error,
    created_at: row.created_at,
    finished_at: row.finished_at,
  };
}

/** Rows per statement: small enough that neither building one nor running it holds the API thread or the SQLite connection for long. */
export const ROW_BATCH = 500;

export type LogStatTable = 'log_url_stats' | 'log_day_stats';

/**
 * Rows for one statement, as a flat list of values in `COLUMNS[table]` order: built where the
 * parse runs (a parse thread), so the API thread only hands them to the database.
 */
export interface RowBatch {
  table: LogStatTable;
  rows: number;
  values: (string | number)[];
}

const COLUMNS: Record<LogStatTable, readonly string[]> = {
  log_url_stats: ['import_id', 'project_id', 'path', 'family', 'verification', 'hits', 'last_visit', 'status_codes', 'bytes'],
  log_day_stats: ['import_id', 'project_id', 'date', 'family', 'verification', 'status_class', 'hits'],
};

/** Code-point order of UTF-16 strings, as SQLite's BINARY and PostgreSQL's "C" collations order UTF-8. */
const byKey = (a: [string, string, string, UrlAggregate], b: [string, string, string, UrlAggregate]) =>
  a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;

/**
 * URL statistics as rows, `ROW_BATCH` at a time, in key order `(path, family, verification)`:
 * the order of both of log_url_stats's B-trees (migration 027), so a part's batches walk them
 * from start to end instead of landing on random pages. One import's statistics arrive in parts
 * (the parse spills its aggregate as it goes, parse-session.ts), so the same URL can come again:
 * the statement adds it to the row already there (`writeRows`).
 */
export function* urlStatRows(entries: Iterable<[string, string, string, UrlAggregate]>, importId: string, projectId: string): Generator<RowBatch> {
  const sorted: ([string, string, string, UrlAggregate] | undefined)[] = [];
  for (const [family, verification, path, v] of entries) sorted.push([family, verification, storedPath(path), v]);
  sorted.sort(byKey as (a: unknown, b: unknown) => number);
  let values: (string | number)[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const [family, verification, path, v] = sorted[i]!;
    sorted[i] = undefined; // let each go once written, as the aggregate's maps do
    values.push(importId, projectId, path, family, verification, v.hits, new Date(v.last).toISOString(), JSON.stringify(statusRecord(v.statuses)), v.bytes);
    if (values.length === ROW_BATCH * 9) {
      yield { table: 'log_url_stats', rows: ROW_BATCH, values };
      values = [];
    }
  }
  if (values.length > 0) yield { table: 'log_url_stats', rows: values.length / 9, values };
}

/** Day counts as rows (given once, at the end of the parse: a few per day). */
export function* dayStatRows(entries: Iterable<[string, string, string, string, number]>, importId: string, projectId: string): Generator<RowBatch> {
  let values: (string | number)[] = [];
  for (const [date, family, verification, statusClass, hits] of entries) {
    values.push(importId, projectId, date, family, verification, statusClass, hits);
    if (values.length === ROW_BATCH * 7) {
      yield { table: 'log_day_stats', rows: ROW_BATCH, values };
      values = [];
    }
  }
  if (values.length > 0) yield { table: 'log_day_stats', rows: values.length / 7, values };
}

/**
 * What a URL statistic arriving again adds to the row already stored: hits and bytes summed, the
 * later visit kept, status counts merged key by key (JSON objects on both databases).
 */
const URL_STAT_UPSERT = {
  sqlite: `on conflict (project_id, path, family, verification, import_id) do update set
    hits = log_url_stats.hits + excluded.hits,
    bytes = log_url_stats.bytes + excluded.bytes,
    last_visit = max(log_url_stats.last_visit, excluded.last_visit),
    status_codes = (select json_group_object(key, n) from (select key, sum(value) as n from (select key, value from json_each(log_url_stats.status_codes) union all select key, value from json_each(excluded.status_codes)) group by key))`,
  postgres: `on conflict (import_id, path collate "C", family collate "C", verification collate "C") do update set
    hits = log_url_stats.hits + excluded.hits,
    bytes = log_url_stats.bytes + excluded.bytes,
    last_visit = greatest(log_url_stats.last_visit, excluded.last_visit),
    status_codes = (select json_object_agg(key, n)::text from (select key, sum(value::bigint) as n from (select * from json_each_text(log_url_stats.status_codes::json) union all select * from json_each_text(excluded.status_codes::json)) s group by key) g)`,
};

const statements = new Map<string, string>();

function statementFor(table: LogStatTable, rows: number, postgres: boolean): string {
  const key = `${table} ${rows} ${postgres}`;
  let sql = statements.get(key);
  if (sql === undefined) {
    const columns = COLUMNS[table];
    const tuple = `(${columns.map(() => '?').join(', ')})`;
    sql = `insert into ${table} (${columns.join(', ')}) values ${Array.from({ length: rows }, () => tuple).join(', ')}`;
    if (table === 'log_url_stats') sql += ` ${postgres ? URL_STAT_UPSERT.postgres : URL_STAT_UPSERT.sqlite}`;
    // Full batches are the rule; a part's last, shorter one is built each time.
    if (rows === ROW_BATCH) statements.set(key, sql);
  }
  return sql;
}

interface SqliteStatement {
  run(values: unknown[], callback: (err: Error | null) => void): void;
  finalize(callback?: () => void): void;
}
interface SqliteConnection {
  prepare(sql: string, callback: (err: Error | null) => void): SqliteStatement;
}
/** Full-batch statements prepared once per SQLite connection (the connection outlives imports). */
const prepared = new WeakMap<SqliteConnection, Map<string, Promise<SqliteStatement>>>();

function preparedOn(connection: SqliteConnection, sql: string): Promise<SqliteStatement> {
  let kept = prepared.get(connection);
  if (!kept) prepared.set(connection, (kept = new Map()));
  let statement = kept.get(sql);
  if (!statement) {
    statement = new Promise<SqliteStatement>((resolve, reject) => {
      const s = connection.prepare(sql, (err) => (err ? reject(err) : resolve(s)));
    });
    statement.catch(() => kept.delete(sql));
    kept.set(sql, statement);
  }
  return statement;
}

interface PgConnection {
  query(config: { name: string; text: string; values: unknown[] }): Promise<unknown>;
}
/** A full batch's statement in PostgreSQL's `$n` placeholders (for a named, prepared statement). */
const pgTexts = new Map<string, string>();
function pgText(sql: string): string {
  let text = pgTexts.get(sql);
  if (text === undefined) {
    let n = 0;
    text = sql.replace(/\?/g, () => `$${++n}`);
    pgTexts.set(sql, text);
  }
  return text;
}

/**
 * Writes one batch: a single statement (one short transaction of its own). A full batch's
 * statement is prepared once per connection and run with the batch's values: through `knex.raw`
 * each batch was formatted by knex (4,500 bindings scanned), then parsed and planned anew by the
 * database, a 500-row upsert every time (on SQLite by node-sqlite3's prepare and finalise, on
 * PostgreSQL as an unnamed statement). Inside a transaction (`knex.isTransaction`) it goes through
 * knex, on the transaction's connection.
 */
export async function writeRows(knex: Knex, batch: RowBatch): Promise<void> {
  const postgres = (knex.client as { dialect?: string }).dialect === 'postgresql';
  const sql = statementFor(batch.table, batch.rows, postgres);
  if (batch.rows !== ROW_BATCH || knex.isTransaction) {
    await knex.raw(sql, batch.values);
    return;
  }
  const client = knex.client as { acquireConnection(): Promise<unknown>; releaseConnection(connection: unknown): Promise<void> };
  const connection = await client.acquireConnection();
  try {
    if (postgres) {
      await (connection as PgConnection).query({ name: `siteaudit_${batch.table}_${batch.rows}`, text: pgText(sql), values: batch.values });
      return;
    }
    const statement = await preparedOn(connection as SqliteConnection, sql);
    await new Promise<void>((resolve, reject) => statement.run(batch.values, (err) => (err ? reject(err) : resolve())));
  } finally {
    await client.releaseConnection(connection);
  }
}

/**
 * SQLite's checkpoint interval while imports write (reference-counted: the last import to finish
 * restores the default). Each statistic row lands on random pages of two indexes (by path hash,
 * by path), so a 500-row batch dirties about a thousand pages; with the default checkpoint every
 * 1,000 WAL pages, nearly every batch was written to the WAL, read back and copied to the
 * database file (8 `pwrite`s and 6 `pread`s per row, strace). A checkpoint every 8,000 pages (a
 * WAL of up to 32 MB on disk) copies a page that several batches wrote once. The page cache stays
 * at its default: a 24 MB one saved a further 3 % of the import's CPU for about 35 MB more peak RSS.
 */
export const IMPORT_CHECKPOINT_PAGES = 8000;
const importing = new WeakMap<Knex, number>();

export async function beginImportWrites(knex: Knex): Promise<() => Promise<void>> {
  if ((knex.client as { dialect?: string }).dialect === 'postgresql') return async () => {};
  const running = importing.get(knex) ?? 0;
  importing.set(knex, running + 1);
  if (running === 0) await knex.raw(`PRAGMA wal_autocheckpoint = ${IMPORT_CHECKPOINT_PAGES}`);
  let ended = false;
  return async () => {
    if (ended) return;
    ended = true;
    const left = (importing.get(knex) ?? 1) - 1;
    importing.set(knex, left);
    if (left === 0) await knex.raw('PRAGMA wal_autocheckpoint = 1000');
  };
}

/** What an import's row says of its parse (the aggregate without its maps). */
export type LogSummary = Omit<LogAggregate, 'urls' | 'days'>;

export function summaryOf(agg: LogAggregate): LogSummary {
  const { format, linesRead, kept, refused, refusals, humanHits, botHits, from, to, truncation } = agg;
  return { format, linesRead, kept, refused, refusals, humanHits, botHits, from, to, ...(truncation ? { truncation } : {}) };
}

/** Removes an import's statistics (a retried or failed parse leaves none behind). */
export async function clearImportRows(knex: Knex, importId: string): Promise<void> {
  for (const table of ['log_url_stats', 'log_day_stats'] as const) await knex(table).where({ import_id: importId }).del();
}

/**
 * After an import, PostgreSQL samples the log tables afresh (a bounded sample, whatever their
 * size). Planned on statistics from before a large import, the reads joined and sorted every row
 * of the project at each page instead of walking the keyset index: a minute for the insights of
 * bench/logs instead of seconds (docs/benchmarks.md, "Log import"). Autovacuum would get there,
 * later. SQLite plans these reads on the index without statistics.
 */
export async function refreshPlannerStatistics(knex: Knex): Promise<void> {
  if ((knex.client as { dialect?: string }).dialect === 'postgresql') await knex.raw('analyze log_imports, log_url_stats, log_day_stats');
}

/** Completes the import: its statistics, inserted before, become visible to the reads with it. */
export async function completeImport(knex: Knex, row: LogImportRow, agg: LogSummary, finishedAt: string): Promise<void> {
  await knex('log_imports')
    .where({ id: row.id })
    .update({
      status: 'completed',
      format: agg.format,
      lines_read: agg.linesRead,
      lines_kept: agg.kept,
      lines_refused: agg.refused,
      refusals: JSON.stringify(agg.refusals),
      human_hits: agg.humanHits,
      bot_hits: agg.botHits,
      period_from: agg.from === null ? null : new Date(agg.from).toISOString(),
      period_to: agg.to === null ? null : new Date(agg.to).toISOString(),
      truncation: agg.truncation ? JSON.stringify(agg.truncation) : null,
      file_key: null,
      finished_at: finishedAt,
    });
}

/** Completed imports of a project, optionally those whose period ends on or after `since`. */
export function completedImports(knex: Knex, projectId: string, since?: string) {
  const q = knex('log_imports').where({ project_id: projectId, status: 'completed' }).whereNotNull('period_to');
  if (since) q.andWhere('period_to', '>=', since);
  return q.select('id');
}

export interface UrlStatQuery {
  /** Only imports whose period ends on or after this (the pillar's window). */
  since?: string;
  family?: string;
  verification?: string;
  /** Keyset: statistics after this `[path, family, verification]`. */
  after?: unknown[] | null;
  limit: number;
}

/**
 * One page of URL statistics summed over the project's completed imports, in `(path, family,
 * verification)` order: grouped, ordered and limited in SQL along the keyset index (migration
 * 015), so a read holds one page and reads little more whatever the number of distinct URLs.
 * Status codes are JSON per import, merged here. PostgreSQL orders text by its "C" collation
 * (code points), as SQLite does and as the cursors compare.
 */
export async function urlStatPage(knex: Knex, projectId: string, query: UrlStatQuery): Promise<UrlStat[]> {
  // Unverified claims are kept as day counts only: the filter stays valid and lists nothing.
  if (query.verification === 'unverified') return [];
  const postgres = (knex.client as { dialect?: string }).dialect === 'postgresql';
  const c = postgres ? ' collate "C"' : '';
  const key = `path${c}, family${c}, verification${c}`;
  const q = knex('log_url_stats')
    .where('project_id', projectId)
    .whereIn('import_id', completedImports(knex, projectId, query.since))
    .whereNot('verification', 'unverified')
    .groupByRaw(key)
    .select(knex.raw(`path${c} as path, family${c} as family, verification${c} as verification`))
    .sum({ hits: 'hits', bytes: 'bytes' })
    .select(knex.raw(`max(last_visit${c}) as last_visit`))
    .select(knex.raw(postgres ? "string_agg(status_codes, '|') as status_codes" : "group_concat(status_codes, '|') as status_codes"))
    .orderByRaw(key)
    .limit(query.limit);
  if (query.family !== undefined) q.andWhere('family', query.family);
  if (query.verification !== undefined) q.andWhere('verification', query.verification);
  if (query.after) q.andWhereRaw(`(${key}) > (?, ?, ?)`, query.after.slice(0, 3) as string[]);
  const rows = (await q) as Record<string, unknown>[];
  return rows.map((r) => {
    const status_codes: Record<string, number> = {};
    for (const part of String(r.status_codes).split('|')) for (const [code, n] of Object.entries(json<Record<string, number>>(part, {}))) status_codes[code] = (status_codes[code] ?? 0) + n;
    return { path: String(r.path), family: r.family as BotFamily, verification: r.verification as UrlStat['verification'], hits: Number(r.hits), last_visit: String(r.last_visit), status_codes, bytes: Number(r.bytes) };
  });
}

/** Period and human hits of the project's completed imports, and their unverified claims per family (day counts). */
export async function importTotals(knex: Knex, projectId: string): Promise<LogTotals & { period: { from: string; to: string } | null }> {
  const [[row], claims] = await Promise.all([
    knex('log_imports')
      .where({ project_id: projectId, status: 'completed' })
      .whereNotNull('period_to')
      .min({ from: 'period_from' })
      .max({ to: 'period_to' })
      .sum({ humans: 'human_hits' })
      .then((rows) => rows as { from: string | null; to: string | null; humans: string | number | null }[]),
    knex('log_day_stats')
      .where({ project_id: projectId, verification: 'unverified' })
      .whereIn('import_id', completedImports(knex, projectId))
      .groupBy('family')
      .select('family')
      .sum({ hits: 'hits' })
      .orderBy('family')
      .then((rows) => rows as { family: BotFamily; hits: string | number }[]),
  ]);
  return {
    period: row?.from && row.to ? { from: row.from, to: row.to } : null,
    humans: Number(row?.humans ?? 0),
    unverified: claims.map((c) => ({ family: c.family, hits: Number(c.hits) })),
  };
}
