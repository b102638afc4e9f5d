import { describe, expect, it } from 'vitest';
import { PageSpeedResult } from '../../src/resources/crawls.js';
import { CRAWL_STEPS, QUEUED_CRAWL, unmeasuredPageSpeed } from '../../src/rules/crawls.js';

describe('crawl rules (docs/decisions/pagespeed-result.md)', () => {
  it('says why PageSpeed measured nothing, with null strategies, never 0', () => {
    expect(unmeasuredPageSpeed(false)).toMatchObject({ status: 'not_requested', skip_reason: 'not_requested', mobile: null, desktop: null, combined: null, failed: false });
    expect(unmeasuredPageSpeed(true)).toMatchObject({ status: 'unconfigured', skip_reason: 'no_provider', provider: null });
    for (const requested of [true, false]) expect(PageSpeedResult.safeParse({ crawl_id: crypto.randomUUID(), ...unmeasuredPageSpeed(requested) }).success).toBe(true);
  });

  it('launches a crawl queued, in the order of its steps', () => {
    expect(QUEUED_CRAWL).toEqual({ status: 'queued', stage: 'queued', active: true, settled: false });
    expect(Object.isFrozen(QUEUED_CRAWL)).toBe(true);
    expect(CRAWL_STEPS).toEqual(['fetching', 'analysing', 'pagespeed', 'scoring', 'comparing']);
  });
});
