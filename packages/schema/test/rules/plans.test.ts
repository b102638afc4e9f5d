import { describe, expect, it } from 'vitest';
import { DEFAULT_PLANS, quotaOf, resolvePlans } from '../../src/rules/plans.js';

describe('plans', () => {
  it('deep-merges plan overrides; a new plan starts from free and ranks last', () => {
    const plans = resolvePlans({ pro: { rateLimits: { minute: 5 } }, tiny: { api: 'read', limits: { 'projects.max': 2 } } });
    expect(plans.pro.rateLimits).toEqual({ minute: 5, day: 20_000 });
    expect(plans.pro.limits).toEqual(DEFAULT_PLANS.pro.limits);
    expect(plans.tiny).toMatchObject({ key: 'tiny', label: 'tiny', rank: 4, api: 'read', scheduleFrequencies: ['manual'] });
    expect(plans.tiny.limits['projects.max']).toBe(2);
    expect(plans.tiny.limits['crawls.monthly']).toBe(DEFAULT_PLANS.free.limits['crawls.monthly']);
    expect(DEFAULT_PLANS.pro.rateLimits.minute).toBe(120);
  });

  it('never shows a negative remaining quota', () => {
    expect(quotaOf(7, 5)).toEqual({ used: 7, limit: 5, remaining: 0 });
    expect(quotaOf(7, null)).toEqual({ used: 7, limit: null, remaining: null });
  });
});
