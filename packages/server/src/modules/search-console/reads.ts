/** What other modules read of Search Console: a project's link and its daily series. */
import type { Knex } from 'knex';

/** When the project's Search Console data was last synchronised; undefined when it is not linked. */
export async function searchConsoleLink(knex: Knex, projectId: string): Promise<{ synced_at: string | null } | undefined> {
  const link = (await knex('search_console_links').where({ project_id: projectId }).first('synced_at')) as { synced_at: string | Date | null } | undefined;
  return link && { synced_at: (link.synced_at as string | null) ?? null };
}

export interface SearchConsoleDay {
  date: string;
  clicks: number;
  impressions: number;
  position: number;
}

/** The project's latest `days` days of Search Console data, latest first. */
export async function searchConsoleDays(knex: Knex, projectId: string, days: number): Promise<SearchConsoleDay[]> {
  const rows = (await knex('search_console_daily').where({ project_id: projectId }).orderBy('date', 'desc').limit(days).select('date', 'clicks', 'impressions', 'position')) as Record<string, unknown>[];
  return rows.map((r) => ({ date: String(r.date), clicks: Number(r.clicks), impressions: Number(r.impressions), position: Number(r.position) }));
}
