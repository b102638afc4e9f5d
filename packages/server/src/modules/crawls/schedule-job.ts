/**
 * The campaign scheduler: a recurring job that launches due campaigns (daily, weekly, monthly;
 * manual never; paused skipped) with trigger `schedule`, within the monthly quota, and advances
 * `next_run_at`. It reads the server clock, so tests drive it with the `clock` option.
 */
import { nextRunAt, normaliseSchedule } from '@siteaudit/schema/rules';
import type { Services } from '../../services.js';
import { ApiError } from '../../http/errors.js';
import type { CampaignRow } from '../campaigns/campaign-row.js';
import { dueCampaigns } from '../campaigns/reads.js';
import { advanceCampaignSlot } from '../campaigns/writes.js';
import { projectById } from '../projects/reads.js';
import { bool } from '../../store/database.js';
import { teamPlanKey } from '../../store/teams.js';
import { defineJobHandler, type ModuleJob } from '../module.js';
import { CAMPAIGN_SCHEDULE } from './jobs.js';
import { launchCrawl } from './launch.js';

const TICK_MS = 60_000;

export function scheduleJob(services: Services): ModuleJob {
  return defineJobHandler(CAMPAIGN_SCHEDULE, {
    async run() {
      await runDueCampaigns(services);
      return { retryAt: new Date(services.clock().getTime() + TICK_MS) };
    },
  });
}

/** Ensures exactly one scheduler job exists across processes (it re-queues itself each tick). */
export async function ensureScheduler(services: Services): Promise<void> {
  await services.jobs.enqueue(CAMPAIGN_SCHEDULE, {});
}

export async function runDueCampaigns(services: Services): Promise<number> {
  const now = services.clock();
  const due = await dueCampaigns(services.knex, now);
  let launched = 0;
  const log = services.logger.child({ module: 'scheduler' });
  for (const campaign of due) {
    const schedule = normaliseSchedule({
      frequency: campaign.schedule_frequency as CampaignRow['schedule_frequency'] & 'daily',
      day: campaign.schedule_day,
      time: campaign.schedule_time,
      paused: false,
    });
    // Advance first: a campaign that cannot run now (quota, running crawl) waits for its next slot.
    // Only the update that finds the slot still due fires it, whatever other process read it too.
    if (!(await advanceCampaignSlot(services.knex, campaign.id, campaign.next_run_at!, nextRunAt(schedule, now)?.toISOString() ?? null))) continue;
    const planKey = await teamPlanKey(services.knex, campaign.team_id);
    const plan = planKey === undefined ? undefined : services.plans()[planKey];
    const project = await projectById(services.knex, campaign.project_id);
    const locked = project !== undefined && bool(project.locked);
    const fired = { campaign: campaign.id, team: campaign.team_id, frequency: schedule.frequency };
    if (!plan || !project || locked || !plan.scheduleFrequencies.includes(schedule.frequency)) {
      log.info({ ...fired, skipped: !plan ? 'unknown_plan' : !project ? 'project_deleted' : locked ? 'project_locked' : 'plan_frequency' }, 'schedule skipped');
      continue;
    }
    try {
      const crawl = await launchCrawl(services, { campaign, plan, trigger: 'schedule' });
      log.info({ ...fired, crawl: crawl.id }, 'schedule fired');
      launched++;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // A refusal the caller of the API would see (quota, a crawl already running): the slot is skipped.
      log.info({ ...fired, skipped: error.code }, 'schedule skipped');
    }
  }
  return launched;
}
