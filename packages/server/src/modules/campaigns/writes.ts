/** What other modules write of the campaigns: a new project's default campaign. */
import type { Knex } from 'knex';
import type { Plan } from '@siteaudit/schema/rules';
import type { ProjectRow } from '../projects/project-row.js';
import { defaultCampaignRow } from './campaign-row.js';

/** Inserts the default campaign of a project just created (in the creating transaction). */
export async function insertDefaultCampaign(knex: Knex, project: ProjectRow, plan: Plan, now: Date): Promise<void> {
  await knex('campaigns').insert(defaultCampaignRow(project, plan, now));
}
