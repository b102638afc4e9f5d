import { describe, expect, it } from 'vitest';
import { PageSpeedResult } from '../../src/resources/crawls.js';
import { CRAWL_STEPS, QUEUED_CRAWL, settledPageSpeed, unmeasuredPageSpeed } from '../../src/rules/crawls.js';

describe('crawl rules (docs/decisions/pagespeed-result.md)', () => {
  it('says why PageSpeed measured nothing, with null strategies, never 0', () => {
    expect(unmeasuredPageSpeed(false)).toMatchObject({ status: 'not_requested', skip_reason: 'not_requested', mobile: null, desktop: null, combined: null, failed: false });
    expect(unmeasuredPageSpeed(true)).toMatchObject({ status: 'unconfigured', skip_reason: 'no_provider', provider: null });
    for (const requested of [true, false]) expect(PageSpeedResult.safeParse({ crawl_id: crypto.randomUUID(), ...unmeasuredPageSpeed(requested) }).success).toBe(true);
  });

  it('says a crawl that failed or was stopped never ran the PageSpeed its campaign asked for', () => {
    const measured = { ...unmeasuredPageSpeed(true), status: 'measured' as const, provider: 'lighthouse', skip_reason: null, combined: 80 };
    const pending = { ...measured, status: 'pending' as const, combined: null };
    for (const status of ['failed', 'stopped'] as const) {
      const asked = { status, pagespeedRequested: true };
      expect(settledPageSpeed(asked, null)).toMatchObject({ status: 'not_run', skip_reason: `crawl_${status}`, provider: null, mobile: null, combined: null });
      // A measurement left pending will not finish.
      expect(settledPageSpeed(asked, pending)).toMatchObject({ status: 'not_run', skip_reason: `crawl_${status}`, provider: null });
      // What the step finished before the end stays true.
      expect(settledPageSpeed(asked, measured)).toBe(measured);
      expect(settledPageSpeed({ status, pagespeedRequested: false }, null)).toMatchObject({ status: 'not_requested', skip_reason: 'not_requested' });
      expect(PageSpeedResult.safeParse({ crawl_id: crypto.randomUUID(), ...settledPageSpeed(asked, null) }).success).toBe(true);
    }
    expect(settledPageSpeed({ status: 'completed', pagespeedRequested: true }, measured)).toBe(measured);
  });

  it('launches a crawl queued, in the order of its steps', () => {
    expect(QUEUED_CRAWL).toEqual({ status: 'queued', stage: 'queued', active: true, settled: false });
    expect(Object.isFrozen(QUEUED_CRAWL)).toBe(true);
    expect(CRAWL_STEPS).toEqual(['fetching', 'analysing', 'pagespeed', 'scoring', 'comparing']);
  });
});
