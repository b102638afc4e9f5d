import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { type CreateCampaignBody, type UpdateCampaignBody } from '@siteaudit/schema';
import { frequencyUpgrade, nextRunAt, normaliseSchedule, normaliseSiteUrl, type Plan, refusalDetails } from '@siteaudit/schema/rules';
import { assertIncluded, assertWithinPlan as assertPlanLimit } from '@siteaudit/schema/pipeline';
import type { Handlers } from '../../http/binder.js';
import { ApiError, deletedOrNotFound, notFound } from '../../http/errors.js';
import type { Services } from '../../services.js';
import { transaction } from '../../store/retry.js';
import { byCreation, newestFirst } from '../paging.js';
import { assertPublicSite, assertUnlocked, findProject } from '../projects/project-row.js';
import { replaceLatestCrawl } from '../projects/writes.js';
import { latestSettledCrawl } from '../crawls/reads.js';
import { defaultCampaignRow, findCampaign, toCampaign, type CampaignRow } from './campaign-row.js';

/** Runs a deletion and removes the export files of what it deleted, even across a crash (the exports module provides it). */
export interface ExportEraser {
  deleteWith(where: { campaign_id: string }, remove: (trx: Knex.Transaction) => Promise<unknown>): Promise<void>;
}

/**
 * Stops the running crawls of a campaign, then runs its deletion, which checks in its transaction
 * that no crawl was launched meanwhile (the crawls module provides it: running-crawls.ts).
 */
export interface CrawlStopper {
  stopThen<T>(where: { campaign_id: string }, remove: (assertStopped: (trx: Knex.Transaction) => Promise<void>) => Promise<T>): Promise<T>;
}

/** Plan bounds on a campaign (docs/plans.md). */
function assertWithinPlan(services: Services, plan: Plan, row: CampaignRow): void {
  const plans = services.plans();
  assertPlanLimit(plans, plan, 'crawls.max_urls', row.max_urls, 'plan_limit.crawls.max_urls', refusalDetails.maxUrls(row.max_urls, plan.limits['crawls.max_urls']));
  if (row.javascript_rendering === true || row.javascript_rendering === 1) {
    assertIncluded(plans, plan, 'crawls.javascript_rendering', 'plan_limit.crawls.javascript_rendering');
  }
  const frequency = row.schedule_frequency as Plan['scheduleFrequencies'][number];
  if (!plan.scheduleFrequencies.includes(frequency)) {
    throw new ApiError('plan_limit.crawls.schedule_frequency', {
      detail: refusalDetails.scheduleNotInPlan(frequency, plan.label),
      upgrade_to: frequencyUpgrade(plans, plan, frequency),
    });
  }
}

type CampaignInput = CreateCampaignBody | UpdateCampaignBody;

/** Applies a create or update body to a row; absent fields keep their value. */
function applyBody(services: Services, row: CampaignRow, body: CampaignInput, now: Date): CampaignRow {
  const next: CampaignRow = { ...row };
  const { schedule, http_user, http_password, ...plain } = body;
  for (const [field, value] of Object.entries(plain)) {
    if (value !== undefined) (next as unknown as Record<string, unknown>)[field] = value;
  }
  // Kept as the project's URL is: scheme and host in lower case, no fragment.
  if (plain.start_url !== undefined) next.start_url = normaliseSiteUrl(plain.start_url).href;
  if (http_user !== undefined) next.http_user_enc = http_user === null ? null : services.secrets.encrypt(http_user, `${row.id}:http_user`);
  if (http_password !== undefined) {
    next.http_password_enc = http_password === null ? null : services.secrets.encrypt(http_password, `${row.id}:http_password`);
  }
  if (schedule !== undefined) {
    const stored = normaliseSchedule(schedule);
    next.schedule_frequency = stored.frequency;
    next.schedule_day = stored.day;
    next.schedule_time = stored.time;
    next.schedule_paused = stored.paused;
    next.next_run_at = nextRunAt(stored, now)?.toISOString() ?? null;
  }
  return next;
}

export function campaignHandlers(services: Services, crawls: CrawlStopper, exports: ExportEraser): Pick<Handlers, 'listCampaigns' | 'createCampaign' | 'getCampaign' | 'updateCampaign' | 'deleteCampaign'> {
  const { knex, reads } = services;
  return {
    async listCampaigns(ctx, { params }) {
      const project = await findProject(reads, ctx.caller, params.project);
      const rows = await newestFirst(reads('campaigns').where({ project_id: project.id }), ctx.page);
      return { items: (rows as CampaignRow[]).map(toCampaign), key: byCreation };
    },

    async createCampaign(ctx, { params, body }) {
      const project = await findProject(knex, ctx.caller, params.project);
      assertUnlocked(project);
      await assertPublicSite(services.network, body.start_url, 'start_url', ctx.language);
      const base = defaultCampaignRow(project, ctx.caller.plan, ctx.now);
      const row = applyBody(services, { ...base, id: randomUUID() }, body, ctx.now);
      assertWithinPlan(services, ctx.caller.plan, row);
      await knex('campaigns').insert(row);
      return { body: { data: toCampaign(row) } };
    },

    async getCampaign(ctx, { params }) {
      return { body: { data: toCampaign(await findCampaign(reads, ctx.caller, params.campaign)) } };
    },

    async updateCampaign(ctx, { params, body }) {
      const found = await findCampaign(knex, ctx.caller, params.campaign);
      assertUnlocked(await findProject(knex, ctx.caller, found.project_id));
      if (body.start_url !== undefined) await assertPublicSite(services.network, body.start_url, 'start_url', ctx.language);
      // Read, merged and written in one transaction, the row locked (SQLite runs one transaction
      // at a time), and only the columns that change are written: two partial updates at the same
      // time each keep the other's fields instead of writing back the values they read.
      const row = await transaction(knex, async (trx) => {
        const query = trx('campaigns').where({ id: found.id });
        const current = (await (services.dialect === 'postgres' ? query.forUpdate() : query).first()) as CampaignRow | undefined;
        if (!current) throw notFound();
        const next = applyBody(services, current, body, ctx.now);
        assertWithinPlan(services, ctx.caller.plan, next);
        const changes = Object.fromEntries(Object.entries(next).filter(([column, value]) => value !== current[column as keyof CampaignRow]));
        if (Object.keys(changes).length > 0) await trx('campaigns').where({ id: current.id }).update(changes);
        return next;
      });
      return { body: { data: toCampaign(row) } };
    },

    async deleteCampaign(ctx, { params }) {
      const campaign = await findCampaign(knex, ctx.caller, params.campaign);
      assertUnlocked(await findProject(knex, ctx.caller, campaign.project_id));
      // A running crawl is stopped first, then the campaign and its crawls go (deleteCampaign, docs/openapi.json).
      await crawls.stopThen({ campaign_id: campaign.id }, (assertStopped) =>
        exports.deleteWith({ campaign_id: campaign.id }, async (trx) => {
          // Held from here: a launch, which holds the campaign until it commits, waits, then finds it gone.
          const query = trx('campaigns').where({ id: campaign.id });
          if (!(await (services.dialect === 'postgres' ? query.forUpdate() : query).first('id'))) throw notFound();
          await assertStopped(trx);
          deletedOrNotFound(await trx('campaigns').where({ id: campaign.id }).delete());
          // Its crawls went with it: the project's latest completed crawl may have been one of them.
          await replaceLatestCrawl(trx, services.dialect, campaign.project_id, () => latestSettledCrawl(trx, campaign.project_id));
        }),
      );
    },
  };
}
