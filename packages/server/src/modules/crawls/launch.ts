import { createHash, randomUUID } from 'node:crypto';
import { crawlSettingsText, type Plan, QUEUED_CRAWL, refusalDetails } from '@siteaudit/schema/rules';
import { assertWithinPlan } from '@siteaudit/schema/pipeline';
import { ApiError, notFound } from '../../http/errors.js';
import { CRAWL_RUN } from './jobs.js';
import type { Services } from '../../services.js';
import type { CampaignRow } from '../campaigns/campaign-row.js';
import { campaignForShare } from '../campaigns/reads.js';
import { lockTeam } from '../team-lock.js';
import { initialStagePlan, type CrawlRow } from './crawl-row.js';
import { transaction } from '../../store/retry.js';

/** Start of the calendar month (UTC): the monthly crawl quota resets then. */
export function monthStart(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
}

/** What a crawl runs with, frozen at launch so later campaign edits do not change it. */
export function crawlConfig(campaign: CampaignRow) {
  const { id, team_id, project_id, name, created_at, next_run_at, schedule_frequency, schedule_day, schedule_time, schedule_paused, notify, ...config } = campaign;
  return config;
}

/** Two crawls are comparable when they ran with the same settings (`crawlSettingsText`, shared with the mock). */
function configHash(config: ReturnType<typeof crawlConfig>): string {
  return createHash('sha256').update(crawlSettingsText(config)).digest('hex');
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  // SQLite names every constraint failure SQLITE_CONSTRAINT: a foreign key that failed (the
  // campaign deleted meanwhile) is no crawl already running.
  return e.code === '23505' || /UNIQUE constraint failed/.test(e.message ?? '');
}

/**
 * Launches a crawl of a campaign: refused with 409 when one is running, and with
 * plan_limit.crawls.monthly when the month's quota is spent (counted under the team lock, so
 * parallel launches never exceed it). The crawl is queued and its job enqueued atomically.
 *
 * The campaign is read in that transaction, held until it commits: a launch read it outside
 * before, so an update committed meanwhile was crawled with the settings it replaced, and a
 * deletion committed meanwhile failed the insert's foreign key (a 500) instead of answering 404.
 */
export async function launchCrawl(services: Services, input: { campaign: Pick<CampaignRow, 'id' | 'team_id'>; plan: Plan; trigger: CrawlRow['trigger'] }): Promise<CrawlRow> {
  const { plan } = input;
  const now = services.clock();
  try {
    return await transaction(services.knex, async (trx) => {
      await lockTeam(trx, services.dialect, input.campaign.team_id);
      const campaign = await campaignForShare(trx, services.dialect, { id: input.campaign.id, team_id: input.campaign.team_id });
      if (!campaign) throw notFound();
      const config = crawlConfig(campaign);
      const running = await trx('crawls').where({ campaign_id: campaign.id, active: true }).first('id');
      if (running) throw new ApiError('crawl.already_running', { detail: refusalDetails.crawlAlreadyRunning(running.id) });
      const [{ count }] = await trx('quota_usage').where({ team_id: campaign.team_id, entitlement: 'crawls.monthly' }).andWhere('created_at', '>=', monthStart(now)).count({ count: '*' });
      const limit = plan.limits['crawls.monthly'];
      assertWithinPlan(services.plans(), plan, 'crawls.monthly', Number(count) + 1, 'plan_limit.crawls.monthly', refusalDetails.crawlsMonthly(Number(count), limit));
      const row: CrawlRow = {
        id: randomUUID(),
        team_id: campaign.team_id,
        project_id: campaign.project_id,
        campaign_id: campaign.id,
        ...QUEUED_CRAWL,
        stage_plan: JSON.stringify(initialStagePlan()),
        pages_crawled: 0,
        pages_discovered: 0,
        pages_budget: campaign.max_urls,
        issues_error: 0,
        issues_warning: 0,
        issues_info: 0,
        protection_occurrences: 0,
        truncated: false,
        blocked: false,
        comparable: false,
        blocked_reason: null,
        error: null,
        trigger: input.trigger,
        config: JSON.stringify(config),
        config_hash: configHash(config),
        health_score: null,
        pagespeed: null,
        stop_requested: false,
        started_at: null,
        finished_at: null,
        created_at: now.toISOString(),
      };
      await trx('crawls').insert(row);
      await trx('quota_usage').insert({ id: randomUUID(), team_id: campaign.team_id, entitlement: 'crawls.monthly', created_at: row.created_at });
      await services.jobs.enqueue(CRAWL_RUN, { crawlId: row.id }, { trx });
      return row;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError('crawl.already_running');
    throw error;
  }
}
