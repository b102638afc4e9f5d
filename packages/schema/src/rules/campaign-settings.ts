/**
 * What a new campaign holds for each optional setting its create body leaves out
 * (docs/decisions/campaign-fields.md): every check off, no patterns, the crawler's own defaults (`null`), regression
 * alerts off, no HTTP credentials. The server and the mock start every campaign from these.
 */
import type { CreateCampaignBody } from '../resources/campaigns.js';

/** The optional settings of a campaign, each with a value. */
export type CampaignSettings = Required<Omit<CreateCampaignBody, 'name' | 'start_url' | 'max_depth' | 'max_urls' | 'schedule'>>;

export const CAMPAIGN_SETTING_DEFAULTS: Readonly<CampaignSettings> = Object.freeze({
  javascript_rendering: false,
  pagespeed: false,
  check_external_links: false,
  check_ai_reachability: false,
  check_accessibility: false,
  check_accessibility_rendered: false,
  protected_site: false,
  include_patterns: null,
  exclude_patterns: null,
  issue_exclusion_patterns: null,
  timeout: null,
  retries: null,
  duplication_threshold: null,
  regression_threshold: 'off',
  http_user: null,
  http_password: null,
  notify: false,
});

/** Accepted on writes and never echoed: not in the Campaign resource. */
export const CAMPAIGN_WRITE_ONLY_FIELDS = [
  'check_accessibility_rendered',
  'include_patterns',
  'exclude_patterns',
  'issue_exclusion_patterns',
  'timeout',
  'retries',
  'duplication_threshold',
  'regression_threshold',
  'http_user',
  'http_password',
  'notify',
] as const satisfies readonly (keyof CampaignSettings)[];
export type CampaignWriteOnly = Pick<CampaignSettings, (typeof CAMPAIGN_WRITE_ONLY_FIELDS)[number]>;

/** The settings of `body` over the defaults: a field left out takes its default. */
export function campaignSettings(body: Partial<CampaignSettings>): CampaignSettings {
  const settings: CampaignSettings = { ...CAMPAIGN_SETTING_DEFAULTS };
  for (const key of Object.keys(CAMPAIGN_SETTING_DEFAULTS) as (keyof CampaignSettings)[]) {
    if (body[key] !== undefined) (settings as Record<string, unknown>)[key] = body[key];
  }
  return settings;
}
