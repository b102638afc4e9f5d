/** What the scorecard's logs pillar reads of a project's imports besides their statistics. */
import type { Knex } from 'knex';

/** How many imports of the project completed, and where the latest period of them ends (null without one). */
export async function completedImportsEnd(knex: Knex, projectId: string): Promise<{ count: number; to: string | null }> {
  const [row] = (await knex('log_imports').where({ project_id: projectId, status: 'completed' }).count({ n: '*' }).max({ to: 'period_to' })) as { n: number | string; to: string | null }[];
  return { count: Number(row?.n ?? 0), to: row?.to ?? null };
}
