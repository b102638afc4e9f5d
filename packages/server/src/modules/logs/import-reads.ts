/** What the scorecard's logs pillar reads of a project's imports besides their statistics. */
import type { Knex } from 'knex';

/**
 * How many imports of the project completed, how many of them end on or after `since` (the
 * pillar's window: one whose hits are all people or failed claims has no URL statistic, yet is
 * recent), and where the latest period of them ends (null without one).
 */
export async function completedImportsEnd(knex: Knex, projectId: string, since: string): Promise<{ count: number; recent: number; to: string | null }> {
  const completed = () => knex('log_imports').where({ project_id: projectId, status: 'completed' });
  const [[row], [recent]] = await Promise.all([
    completed()
      .count({ n: '*' })
      .max({ to: 'period_to' })
      .then((rows) => rows as { n: number | string; to: string | null }[]),
    completed()
      .where('period_to', '>=', since)
      .count({ n: '*' })
      .then((rows) => rows as { n: number | string }[]),
  ]);
  return { count: Number(row?.n ?? 0), recent: Number(recent?.n ?? 0), to: row?.to ?? null };
}
