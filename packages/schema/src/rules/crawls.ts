/**
 * Crawl rules the server and the mock share (docs/decisions/crawl-lifecycle.md,
 * docs/decisions/pagespeed-result.md).
 */
import type { PageSpeedResult } from '../resources/crawls.js';

/** The steps of every crawl, in order; `settled` once each is done or skipped. */
export const CRAWL_STEPS = ['fetching', 'analysing', 'pagespeed', 'scoring', 'comparing'] as const;
export type CrawlStep = (typeof CRAWL_STEPS)[number];

/** Why the PageSpeed step measured nothing: the campaign did not ask, or no provider is configured. */
export function pagespeedSkipReason(requested: boolean): 'no_provider' | 'not_requested' {
  return requested ? 'no_provider' : 'not_requested';
}

/** The PageSpeed result of a crawl that measured nothing: strategies null, never 0. */
export function unmeasuredPageSpeed(requested: boolean): Omit<PageSpeedResult, 'crawl_id'> {
  return {
    status: requested ? 'unconfigured' : 'not_requested',
    provider: null,
    skip_reason: pagespeedSkipReason(requested),
    mobile: null,
    desktop: null,
    combined: null,
    failed: false,
    sample: [],
    measured_at: null,
  };
}

/** The lifecycle fields of a crawl just launched: queued, running no stage, nothing settled. */
export const QUEUED_CRAWL = Object.freeze({ status: 'queued', stage: 'queued', active: true, settled: false } as const);
