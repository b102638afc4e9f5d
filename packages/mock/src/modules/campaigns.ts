/**
 * Campaigns: reusable crawl configurations with a schedule. Write-only fields (patterns,
 * timeouts, HTTP credentials…) are kept on the record and never echoed (docs/decisions/campaign-fields.md).
 */
import { type Campaign, type CreateCampaignBody, type Language, type UpdateCampaignBody } from '@siteaudit/schema';
import {
  CAMPAIGN_WRITE_ONLY_FIELDS,
  campaignSettings,
  frequencyUpgrade,
  nextRunAt,
  normaliseSchedule,
  normaliseSiteUrl,
  privateSiteRefusal,
  refusalDetails,
  type CampaignWriteOnly,
} from '@siteaudit/schema/rules';
import { assertIncluded, assertWithinPlan } from '@siteaudit/schema/pipeline';
import { data, empty, fail, type BusinessMap, type Caller, type MockEnv } from '../context.js';
import type { CampaignRecord, MockDb, ProjectRecord } from '../db.js';
import { isObviouslyPrivateHost } from '../hosts.js';
import { assertUnlocked, iso, newestFirst, nextSeq, ownedCampaign, ownedProject } from '../store.js';
import { stopCrawl } from './crawls.js';
import { emitEvent } from './webhooks.js';

export function serializeCampaign(record: CampaignRecord, now: Date): Campaign {
  return {
    id: record.id,
    project_id: record.project_id,
    name: record.name,
    start_url: record.start_url,
    max_depth: record.max_depth,
    max_urls: record.max_urls,
    javascript_rendering: record.javascript_rendering,
    pagespeed: record.pagespeed,
    check_external_links: record.check_external_links,
    check_ai_reachability: record.check_ai_reachability,
    check_accessibility: record.check_accessibility,
    protected_site: record.protected_site,
    // Computed on read from the mock clock: the server stores it and its scheduler advances it
    // each minute, so both show the next slot after now.
    schedule: { ...record.schedule, next_run_at: nextRunAt(record.schedule, now)?.toISOString() ?? null },
    created_at: record.created_at,
  };
}

/** Plan bounds on the campaign as it would be saved (docs/plans.md). */
function assertPlanBounds(env: MockEnv, caller: Caller, campaign: Pick<CampaignRecord, 'max_urls' | 'javascript_rendering' | 'schedule'>) {
  const { plan } = caller;
  assertWithinPlan(env.plans, plan, 'crawls.max_urls', campaign.max_urls, 'plan_limit.crawls.max_urls', refusalDetails.maxUrls(campaign.max_urls, plan.limits['crawls.max_urls']));
  if (campaign.javascript_rendering) assertIncluded(env.plans, plan, 'crawls.javascript_rendering', 'plan_limit.crawls.javascript_rendering');
  const { frequency } = campaign.schedule;
  if (!plan.scheduleFrequencies.includes(frequency)) {
    fail('plan_limit.crawls.schedule_frequency', { detail: refusalDetails.scheduleNotInPlan(frequency, plan.label), upgrade_to: frequencyUpgrade(env.plans, plan, frequency) });
  }
}

/**
 * 422 `project.url_refused` for a start URL on an obviously private host, as for a project URL;
 * taken when private addresses are allowed, as on the server.
 */
export function assertPublicSite(env: MockEnv, url: string, field: string, language: Language): void {
  if (!env.allowPrivateAddresses && isObviouslyPrivateHost(url)) fail('project.url_refused', privateSiteRefusal(field, language));
}

/** A new campaign record, not stored yet (also the default campaign of a new project). */
export function buildCampaign(env: MockEnv, db: MockDb, project: ProjectRecord, body: CreateCampaignBody, now: Date): CampaignRecord {
  const settings = campaignSettings(body);
  const writeOnly = Object.fromEntries(CAMPAIGN_WRITE_ONLY_FIELDS.map((key) => [key, settings[key]])) as CampaignWriteOnly;
  const record: CampaignRecord = {
    seq: nextSeq(db),
    id: env.random.uuid(),
    team_id: project.team_id,
    project_id: project.id,
    name: body.name,
    start_url: normaliseSiteUrl(body.start_url).href,
    max_depth: body.max_depth,
    max_urls: body.max_urls,
    javascript_rendering: settings.javascript_rendering,
    pagespeed: settings.pagespeed,
    check_external_links: settings.check_external_links,
    check_ai_reachability: settings.check_ai_reachability,
    check_accessibility: settings.check_accessibility,
    protected_site: settings.protected_site,
    schedule: normaliseSchedule(body.schedule ?? { frequency: 'manual' }),
    created_at: iso(now),
    write_only: writeOnly,
  };
  return record;
}

/** Deletes a campaign after stopping its running crawl, then its crawls and their exports. */
export function removeCampaign(env: MockEnv, campaign: CampaignRecord, now: Date): void {
  const db = env.db;
  for (const crawl of [...db.crawls.values()]) {
    if (crawl.campaign_id !== campaign.id) continue;
    if (crawl.active) {
      stopCrawl(crawl, now);
      emitEvent(env, crawl.team_id, 'crawl.stopped', now.getTime());
    }
    for (const exp of [...db.exports.values()]) if (exp.crawl_id === crawl.id) db.exports.delete(exp.id);
    db.crawls.delete(crawl.id);
  }
  db.campaigns.delete(campaign.id);
  const project = db.projects.get(campaign.project_id);
  if (project?.latest_completed_crawl && !db.crawls.has(project.latest_completed_crawl.id)) {
    const latest = [...db.crawls.values()]
      .filter((c) => c.project_id === project.id && c.status === 'completed' && c.settled && c.finished_at)
      .sort((a, b) => Date.parse(b.finished_at!) - Date.parse(a.finished_at!) || b.seq - a.seq)[0];
    project.latest_completed_crawl = latest ? { id: latest.id, finished_at: latest.finished_at! } : null;
  }
}

export const campaignOperations: Pick<BusinessMap, 'listCampaigns' | 'createCampaign' | 'getCampaign' | 'updateCampaign' | 'deleteCampaign'> = {
  listCampaigns({ db, caller, params, now }) {
    const project = ownedProject(db, params.project, caller);
    const campaigns = [...db.campaigns.values()].filter((c) => c.project_id === project.id);
    return { type: 'list', items: newestFirst(campaigns, (c) => serializeCampaign(c, now)) };
  },

  createCampaign({ env, db, caller, params, body, now, language }) {
    const project = ownedProject(db, params.project, caller);
    assertUnlocked(project);
    assertPublicSite(env, body.start_url, 'start_url', language);
    const record = buildCampaign(env, db, project, body, now);
    assertPlanBounds(env, caller, record);
    db.campaigns.set(record.id, record);
    return data(serializeCampaign(record, now), { status: 201 });
  },

  getCampaign({ db, caller, params, now }) {
    return data(serializeCampaign(ownedCampaign(db, params.campaign, caller), now));
  },

  updateCampaign({ env, db, caller, params, body, now, language }) {
    const campaign = ownedCampaign(db, params.campaign, caller);
    assertUnlocked(db.projects.get(campaign.project_id)!);
    const patch: UpdateCampaignBody = body;
    if (patch.start_url !== undefined) assertPublicSite(env, patch.start_url, 'start_url', language);
    const schedule = patch.schedule ? normaliseSchedule(patch.schedule) : campaign.schedule;
    assertPlanBounds(env, caller, {
      max_urls: patch.max_urls ?? campaign.max_urls,
      javascript_rendering: patch.javascript_rendering ?? campaign.javascript_rendering,
      schedule,
    });
    // Partial update: absent fields keep their value; an absent http_password stays unchanged.
    for (const key of ['name', 'start_url', 'max_depth', 'max_urls', 'javascript_rendering', 'pagespeed', 'check_external_links', 'check_ai_reachability', 'check_accessibility', 'protected_site'] as const) {
      if (patch[key] !== undefined) (campaign as unknown as Record<string, unknown>)[key] = patch[key];
    }
    if (patch.start_url !== undefined) campaign.start_url = normaliseSiteUrl(patch.start_url).href;
    for (const key of CAMPAIGN_WRITE_ONLY_FIELDS) {
      if (patch[key] !== undefined) (campaign.write_only as unknown as Record<string, unknown>)[key] = patch[key];
    }
    campaign.schedule = schedule;
    return data(serializeCampaign(campaign, now));
  },

  deleteCampaign({ env, db, caller, params, now }) {
    const campaign = ownedCampaign(db, params.campaign, caller);
    assertUnlocked(db.projects.get(campaign.project_id)!);
    removeCampaign(env, campaign, now);
    return empty();
  },
};
