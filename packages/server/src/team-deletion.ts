/**
 * What deleting a team takes, in its order (`admin.deleteTeam`; docs/architecture.md, "The
 * operator side"). Its tokens went first (admin.ts): its callers are refused from then on and
 * start nothing more. Then, as a campaign's or a project's deletion does, its running crawls stop
 * and its log uploads go; then the team's row goes in one transaction with everything under it
 * (every table of a team's data references the team, or a row that does, on delete cascade), and
 * the files of its exports with it, even across a crash (the exports' eraser).
 */
import type { Knex } from 'knex';
import { isPostgres } from './store/database.js';

/**
 * The modules' parts a team's deletion uses: the server hands its own (server.ts), the CLI's
 * admin, which builds no module, the ones of a process that runs none (offline-team-deletion.ts).
 */
export interface TeamDeletionNeeds {
  /** Stops the team's running crawls, then runs the deletion, which checks that none was launched meanwhile (running-crawls.ts). */
  stopper: { stopThen<T>(where: { team_id: string }, remove: (assertStopped: (trx: Knex.Transaction) => Promise<void>) => Promise<T>): Promise<T> };
  logs: { beforeProjectDelete(projectId: string): Promise<void>; afterDelete(): Promise<void> };
  exports: { deleteWith(where: { team_id: string }, remove: (trx: Knex.Transaction) => Promise<unknown>): Promise<void> };
}

/**
 * Deletes the team `teamId` and everything of it: how many projects it had, and whether this call
 * deleted its row (false when another deletion of the same team, run at the same time, did: as
 * the second of two in turn, it reports no team).
 */
export async function deleteTeamData(knex: Knex, needs: TeamDeletionNeeds, teamId: string): Promise<{ projects: number; deleted: boolean }> {
  let deleted = false;
  const projects = await needs.stopper.stopThen({ team_id: teamId }, async (assertStopped) => {
    const ids: string[] = await knex('projects').where({ team_id: teamId }).pluck('id');
    for (const projectId of ids) await needs.logs.beforeProjectDelete(projectId);
    // A project created meanwhile by a request already under way goes with the team's row too.
    await needs.exports.deleteWith({ team_id: teamId }, async (trx) => {
      // Held from here: a launch holds the team's row (its quota check) until it commits.
      const query = trx('teams').where({ id: teamId });
      if (isPostgres(trx)) await query.forUpdate().select('id');
      await assertStopped(trx);
      deleted = (await trx('teams').where({ id: teamId }).delete()) > 0;
    });
    return ids.length;
  });
  await needs.logs.afterDelete();
  return { projects, deleted };
}
