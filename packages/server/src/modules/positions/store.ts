/** Rows of the rank-tracking tables and the shared reads over them. */
import type { Knex } from 'knex';
import { canonicalKeyword } from '@siteaudit/schema/rules';

export type KeywordState = 'candidate' | 'tracked' | 'paused' | 'untracked';

export interface TrackedKeywordRow {
  id: string;
  team_id: string;
  project_id: string;
  keyword: string;
  state: KeywordState;
  search_volume: number | null;
  keyword_difficulty: number | null;
  search_intent: string | null;
  keyword_data_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface TrackerRow {
  project_id: string;
  team_id: string;
  location: string;
  country: string;
  language: string;
  device: string;
  next_run_on: string | null;
  last_run_on: string | null;
  last_run_error: string | null;
  created_at: string;
}

export interface PositionRow {
  project_id: string;
  keyword: string;
  date: string;
  position: number | null;
  url: string | null;
  serp_features: string;
  checked_at: string;
}

/** The market a tracker starts with (the product's home market), until settings exist. */
export const TRACKER_DEFAULTS = { location: 'France', country: 'FR', language: 'fr', device: 'desktop' } as const;

/** States that hold the keyword in the project's list (and its per-project ceiling). */
export const LISTED: KeywordState[] = ['tracked', 'paused'];

export const isListed = (row: TrackedKeywordRow | undefined): boolean => row !== undefined && LISTED.includes(row.state);

/** Canonical forms, duplicates removed, first occurrence order kept. */
export function canonicalList(keywords: readonly string[]): string[] {
  return [...new Set(keywords.map(canonicalKeyword))];
}

export async function count(query: Knex.QueryBuilder): Promise<number> {
  const [{ n }] = await query.count({ n: '*' });
  return Number(n);
}

/** Slots of the plan pool in use: the team's active (tracked, not paused) keywords. */
export function poolUsed(knex: Knex | Knex.Transaction, teamId: string): Promise<number> {
  return count(knex('tracked_keywords').where({ team_id: teamId, state: 'tracked' }));
}

/**
 * Checks that measured nothing, so are not charged and do not block another check that day: one
 * the provider refused (`failed`), one no provider could run (`skipped`).
 */
export const UNCHARGED_CHECKS = ['failed', 'skipped'];

/** Live checks that count against the quotas (UNCHARGED_CHECKS aside). */
export function liveChecksSince(knex: Knex | Knex.Transaction, teamId: string, fromDay: string, toDay?: string): Promise<number> {
  const q = knex('keyword_checks').where({ team_id: teamId, kind: 'live' }).andWhere('date', '>=', fromDay).whereNotIn('status', UNCHARGED_CHECKS);
  if (toDay) q.andWhere('date', '<=', toDay);
  return count(q);
}

/** Per keyword, the latest measurement on or before `day`. */
export async function latestOnOrBefore(knex: Knex, projectId: string, day: string): Promise<Map<string, PositionRow>> {
  const latest = knex('keyword_positions').where({ project_id: projectId }).andWhere('date', '<=', day).groupBy('keyword').select('keyword').max({ d: 'date' }).as('m');
  const rows = (await knex('keyword_positions as p')
    .join(latest, (j) => j.on('p.keyword', '=', 'm.keyword').andOn('p.date', '=', 'm.d'))
    .where('p.project_id', projectId)
    .select('p.*')) as PositionRow[];
  return new Map(rows.map((r) => [r.keyword, r]));
}

/** Per keyword, the earliest measurement within [from, to]. */
export async function earliestWithin(knex: Knex, projectId: string, from: string, to: string): Promise<Map<string, PositionRow>> {
  const earliest = knex('keyword_positions')
    .where({ project_id: projectId })
    .andWhere('date', '>=', from)
    .andWhere('date', '<=', to)
    .groupBy('keyword')
    .select('keyword')
    .min({ d: 'date' })
    .as('m');
  const rows = (await knex('keyword_positions as p')
    .join(earliest, (j) => j.on('p.keyword', '=', 'm.keyword').andOn('p.date', '=', 'm.d'))
    .where('p.project_id', projectId)
    .select('p.*')) as PositionRow[];
  return new Map(rows.map((r) => [r.keyword, r]));
}

/** Measurements of the project on any of `days`, keyed `keyword\0date`. */
export async function onDays(knex: Knex, projectId: string, days: string[]): Promise<Map<string, PositionRow>> {
  const out = new Map<string, PositionRow>();
  const unique = [...new Set(days)];
  // Chunked: SQLite caps bound variables per statement.
  for (let i = 0; i < unique.length; i += 500) {
    const rows = (await knex('keyword_positions').where({ project_id: projectId }).whereIn('date', unique.slice(i, i + 500))) as PositionRow[];
    for (const r of rows) out.set(`${r.keyword}\u0000${r.date}`, r);
  }
  return out;
}
