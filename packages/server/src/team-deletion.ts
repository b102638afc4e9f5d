/**
 * What deleting a team takes, in its order (`admin.deleteTeam`; docs/operations.md). Its tokens
 * went first (admin.ts): its callers are refused from then on and start nothing more. Then, as a
 * campaign's or a project's deletion does, its running crawls stop and its log uploads go; then
 * the team's row goes in one transaction with everything under it (every table of a team's data
 * references the team, or a row that does, on delete cascade), and the files of its exports with
 * it, even across a crash (the exports' eraser).
 */
import type { Knex } from 'knex';

/**
 * The modules' parts a team's deletion uses: the server hands its own (server.ts), the CLI's
 * admin, which builds no module, the ones of a process that runs none (offline-team-deletion.ts).
 */
export interface TeamDeletionNeeds {
  stopper: { stopWhere(where: { team_id: string }): Promise<void> };
  logs: { beforeProjectDelete(projectId: string): Promise<void>; afterDelete(): Promise<void> };
  exports: { deleteWith(where: { team_id: string }, remove: (trx: Knex.Transaction) => Promise<unknown>): Promise<void> };
}

/** Deletes the team `teamId` and everything of it; how many projects it had. */
export async function deleteTeamData(knex: Knex, needs: TeamDeletionNeeds, teamId: string): Promise<{ projects: number }> {
  await needs.stopper.stopWhere({ team_id: teamId });
  const projects: string[] = await knex('projects').where({ team_id: teamId }).pluck('id');
  for (const projectId of projects) await needs.logs.beforeProjectDelete(projectId);
  // A project created meanwhile by a request already under way goes with the team's row too.
  await needs.exports.deleteWith({ team_id: teamId }, (trx) => trx('teams').where({ id: teamId }).delete());
  await needs.logs.afterDelete();
  return { projects: projects.length };
}
