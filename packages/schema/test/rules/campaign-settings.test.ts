import { describe, expect, it } from 'vitest';
import { CAMPAIGN_SETTING_DEFAULTS, CAMPAIGN_WRITE_ONLY_FIELDS, campaignSettings } from '../../src/rules/campaign-settings.js';
import { Campaign } from '../../src/resources/campaigns.js';

describe('campaign settings (docs/decisions/campaign-fields.md)', () => {
  it('starts from every check off, no patterns, alerts off and no credentials', () => {
    expect(campaignSettings({})).toEqual(CAMPAIGN_SETTING_DEFAULTS);
    expect(CAMPAIGN_SETTING_DEFAULTS).toMatchObject({ pagespeed: false, include_patterns: null, regression_threshold: 'off', http_password: null, notify: false });
  });

  it('takes what the body gives, null included, and leaves the rest to the defaults', () => {
    const settings = campaignSettings({ pagespeed: true, timeout: 20, regression_threshold: 'error', include_patterns: null });
    expect(settings).toEqual({ ...CAMPAIGN_SETTING_DEFAULTS, pagespeed: true, timeout: 20, regression_threshold: 'error' });
    expect(campaignSettings({ name: 'x' } as never)).not.toHaveProperty('name');
  });

  it('lists as write-only only fields the Campaign resource does not echo', () => {
    const shown = Object.keys(Campaign.shape);
    for (const field of CAMPAIGN_WRITE_ONLY_FIELDS) expect(shown, field).not.toContain(field);
  });
});
