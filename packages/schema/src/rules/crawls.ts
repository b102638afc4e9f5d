/**
 * Crawl rules the server and the mock share (docs/decisions/crawl-lifecycle.md,
 * docs/decisions/pagespeed-result.md).
 */
import type { PageSpeedResult } from '../resources/crawls.js';

/** The steps of every crawl, in order; `settled` once each is done or skipped. */
export const CRAWL_STEPS = ['fetching', 'analysing', 'pagespeed', 'scoring', 'comparing'] as const;
export type CrawlStep = (typeof CRAWL_STEPS)[number];

/**
 * Why the PageSpeed step measured nothing: the campaign did not ask, no provider is configured,
 * or the crawl ended (`failed`, `stopped`) before the step could run.
 */
export type PageSpeedSkipReason = 'not_requested' | 'no_provider' | 'crawl_failed' | 'crawl_stopped';

/** A crawl's end that leaves its PageSpeed step unrun. */
export type UnfinishedCrawlStatus = 'failed' | 'stopped';

export function pagespeedSkipReason(requested: boolean, ended?: UnfinishedCrawlStatus): PageSpeedSkipReason {
  if (!requested) return 'not_requested';
  return ended ? `crawl_${ended}` : 'no_provider';
}

/**
 * The PageSpeed result of a crawl that measured nothing: strategies null, never 0. A campaign that
 * did not ask reads `not_requested` whatever became of the crawl; one that asked reads
 * `unconfigured` when no provider could measure, `not_run` when the crawl ended first.
 */
export function unmeasuredPageSpeed(requested: boolean, ended?: UnfinishedCrawlStatus): Omit<PageSpeedResult, 'crawl_id'> {
  return {
    status: !requested ? 'not_requested' : ended ? 'not_run' : 'unconfigured',
    provider: null,
    skip_reason: pagespeedSkipReason(requested, ended),
    mobile: null,
    desktop: null,
    combined: null,
    failed: false,
    sample: [],
    measured_at: null,
  };
}

/**
 * The PageSpeed result a settled crawl reads: what its step stored, unless the crawl ended
 * (`failed`, `stopped`) before the step finished — nothing stored, or a measurement left
 * `pending` — and then `not_run` with the crawl's end as the reason, since no measurement will come.
 * A result the step finished (measured, refused, skipped) stays as it was: it is true.
 */
export function settledPageSpeed(crawl: { status: string; pagespeedRequested: boolean }, stored: Omit<PageSpeedResult, 'crawl_id'> | null): Omit<PageSpeedResult, 'crawl_id'> {
  const ended = crawl.status === 'failed' || crawl.status === 'stopped' ? crawl.status : undefined;
  if (ended && (!stored || stored.status === 'pending')) return unmeasuredPageSpeed(crawl.pagespeedRequested, ended);
  return stored ?? unmeasuredPageSpeed(crawl.pagespeedRequested);
}

/** The lifecycle fields of a crawl just launched: queued, running no stage, nothing settled. */
export const QUEUED_CRAWL = Object.freeze({ status: 'queued', stage: 'queued', active: true, settled: false } as const);
