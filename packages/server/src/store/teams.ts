/** What modules read of a team outside a request (jobs): its plan's key. The teams table is the core's. */
import type { Knex } from 'knex';

/** The key of the team's plan, or undefined when the team is gone. */
export async function teamPlanKey(db: Knex, teamId: string): Promise<string | undefined> {
  const row = (await db('teams').where({ id: teamId }).first('plan')) as { plan: string } | undefined;
  return row?.plan;
}
