/**
 * The log module's rows: imports, and the aggregates a parse gives (no address, no line). Reads
 * sum the aggregates over the project's completed imports.
 */
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { BotFamily, LogImport } from '@siteaudit/schema';
import type { LogAggregate, UrlStat } from '@siteaudit/schema/rules';
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
    error: row.error,
    created_at: row.created_at,
    finished_at: row.finished_at,
  };
}

const hashOf = (path: string) => createHash('sha256').update(path).digest('hex');
const BATCH = 500;

/** Writes a settled aggregate (no `?<ip>` left) and completes the import, in one transaction. */
export async function storeAggregate(trx: Knex.Transaction, row: LogImportRow, agg: LogAggregate, finishedAt: string): Promise<void> {
  const urls = [...agg.urls].map(([key, v]) => {
    const [family, verification, ...rest] = key.split('\t');
    const path = rest.join('\t');
    return {
      import_id: row.id,
      project_id: row.project_id,
      path,
      path_hash: hashOf(path),
      family,
      verification,
      hits: v.hits,
      last_visit: new Date(v.last).toISOString(),
      status_codes: JSON.stringify(v.statuses),
      bytes: v.bytes,
    };
  });
  for (let i = 0; i < urls.length; i += BATCH) await trx('log_url_stats').insert(urls.slice(i, i + BATCH));
  const days = [...agg.days].map(([key, hits]) => {
    const [date, family, verification, status_class] = key.split('\t');
    return { import_id: row.id, project_id: row.project_id, date, family, verification, status_class, hits };
  });
  for (let i = 0; i < days.length; i += BATCH) await trx('log_day_stats').insert(days.slice(i, i + BATCH));
  await trx('log_imports')
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

/** URL statistics summed over imports (status codes merged in JS: they are JSON). */
export async function urlStats(knex: Knex, projectId: string, since?: string): Promise<UrlStat[]> {
  const rows = (await knex('log_url_stats')
    .whereIn('import_id', completedImports(knex, projectId, since))
    .select('path', 'family', 'verification', 'hits', 'last_visit', 'status_codes', 'bytes')) as Record<string, unknown>[];
  const merged = new Map<string, UrlStat>();
  for (const r of rows) {
    const key = `${r.family}\t${r.verification}\t${r.path}`;
    const codes = json<Record<string, number>>(r.status_codes, {});
    const prior = merged.get(key);
    if (!prior) {
      merged.set(key, { path: String(r.path), family: r.family as BotFamily, verification: r.verification as UrlStat['verification'], hits: Number(r.hits), last_visit: String(r.last_visit), status_codes: codes, bytes: Number(r.bytes) });
      continue;
    }
    prior.hits += Number(r.hits);
    prior.bytes += Number(r.bytes);
    if (String(r.last_visit) > prior.last_visit) prior.last_visit = String(r.last_visit);
    for (const [code, n] of Object.entries(codes)) prior.status_codes[code] = (prior.status_codes[code] ?? 0) + n;
  }
  return [...merged.values()];
}

/** Period and human hits of the project's completed imports. */
export async function importTotals(knex: Knex, projectId: string): Promise<{ period: { from: string; to: string } | null; humans: number }> {
  const [row] = (await knex('log_imports')
    .where({ project_id: projectId, status: 'completed' })
    .whereNotNull('period_to')
    .min({ from: 'period_from' })
    .max({ to: 'period_to' })
    .sum({ humans: 'human_hits' })) as { from: string | null; to: string | null; humans: string | number | null }[];
  return { period: row?.from && row.to ? { from: row.from, to: row.to } : null, humans: Number(row?.humans ?? 0) };
}
