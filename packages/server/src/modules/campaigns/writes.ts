/** What other modules write of the campaigns: a new project's default campaign, the scheduler's slots. */
import type { Knex } from 'knex';
import type { Plan } from '@siteaudit/schema/rules';
import type { ProjectRow } from '../projects/project-row.js';
import { defaultCampaignRow } from './campaign-row.js';

/** Inserts the default campaign of a project just created (in the creating transaction). */
export async function insertDefaultCampaign(knex: Knex, project: ProjectRow, plan: Plan, now: Date): Promise<void> {
  await knex('campaigns').insert(defaultCampaignRow(project, plan, now));
}

/**
 * Moves a campaign's next run from `from` (the slot just read as due) to `to`. True only for the
 * update that found the slot still due: the one process, among all that read it, that fires it.
 */
export async function advanceCampaignSlot(db: Knex, campaignId: string, from: string, to: string | null): Promise<boolean> {
  return (await db('campaigns').where({ id: campaignId, next_run_at: from }).update({ next_run_at: to })) === 1;
}
