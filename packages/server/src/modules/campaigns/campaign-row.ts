import { randomUUID } from 'node:crypto';
import { type Campaign } from '@siteaudit/schema';
import { CAMPAIGN_SETTING_DEFAULTS, defaultCampaignBounds, nextRunAt, normaliseSchedule, type Plan } from '@siteaudit/schema/rules';
import type { Knex } from 'knex';
import type { Caller } from '../../http/context.js';
import { notFound } from '../../http/errors.js';
import { bool } from '../../store/database.js';
import type { ProjectRow } from '../projects/project-row.js';

export interface CampaignRow {
  id: string;
  team_id: string;
  project_id: string;
  name: string;
  start_url: string;
  max_depth: number;
  max_urls: number;
  javascript_rendering: boolean | number;
  pagespeed: boolean | number;
  check_external_links: boolean | number;
  check_ai_reachability: boolean | number;
  check_accessibility: boolean | number;
  check_accessibility_rendered: boolean | number;
  protected_site: boolean | number;
  include_patterns: string | null;
  exclude_patterns: string | null;
  issue_exclusion_patterns: string | null;
  timeout: number | null;
  retries: number | null;
  duplication_threshold: number | null;
  regression_threshold: string;
  http_user_enc: string | null;
  http_password_enc: string | null;
  notify: boolean | number;
  schedule_frequency: string;
  schedule_day: string | null;
  schedule_time: string | null;
  schedule_paused: boolean | number;
  next_run_at: string | null;
  created_at: string;
}

/** The public resource: write-only fields and HTTP credentials are never echoed. */
export function toCampaign(row: CampaignRow): Campaign {
  return {
    id: row.id,
    project_id: row.project_id,
    name: row.name,
    start_url: row.start_url,
    max_depth: row.max_depth,
    max_urls: row.max_urls,
    javascript_rendering: bool(row.javascript_rendering),
    pagespeed: bool(row.pagespeed),
    check_external_links: bool(row.check_external_links),
    check_ai_reachability: bool(row.check_ai_reachability),
    check_accessibility: bool(row.check_accessibility),
    protected_site: bool(row.protected_site),
    schedule: {
      frequency: row.schedule_frequency as Campaign['schedule']['frequency'],
      day: row.schedule_day,
      time: row.schedule_time,
      paused: bool(row.schedule_paused),
      next_run_at: row.next_run_at,
    },
    created_at: row.created_at,
  };
}

/** The campaign every project starts with: the whole site, on demand, within the plan's budget. */
export function defaultCampaignRow(project: ProjectRow, plan: Plan, now: Date): CampaignRow {
  const schedule = normaliseSchedule({ frequency: 'manual' });
  // Credentials are stored encrypted, under their own columns.
  const { http_user: _user, http_password: _password, ...storedDefaults } = CAMPAIGN_SETTING_DEFAULTS;
  return {
    id: randomUUID(),
    team_id: project.team_id,
    project_id: project.id,
    name: project.name,
    start_url: project.url,
    ...defaultCampaignBounds(plan),
    ...storedDefaults,
    http_user_enc: null,
    http_password_enc: null,
    schedule_frequency: schedule.frequency,
    schedule_day: schedule.day,
    schedule_time: schedule.time,
    schedule_paused: schedule.paused,
    next_run_at: nextRunAt(schedule, now)?.toISOString() ?? null,
    created_at: now.toISOString(),
  };
}

/** The team's campaign, or 404. */
export async function findCampaign(knex: Knex, caller: Caller, id: string): Promise<CampaignRow> {
  const row = await knex('campaigns').where({ id, team_id: caller.teamId }).first();
  if (!row) throw notFound();
  return row as CampaignRow;
}
