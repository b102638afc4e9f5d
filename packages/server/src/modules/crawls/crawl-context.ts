/** What a run of the crawl job works with, handed from stage to stage as one object. */
import type { CrawlThreadPool } from '../../crawl-threads/pool.js';
import type { JobLease } from '../../jobs/job-runner.js';
import type { PageSpeedProvider } from '../../providers/pagespeed.js';
import type { Renderer, RendererOptions } from '../../rendering/renderer.js';
import type { Services } from '../../services.js';
import type { CrawlRow } from './crawl-row.js';

/** What the crawl job uses beyond the services: the PageSpeed provider, the crawl threads, the browser. */
export interface CrawlRuntime {
  /** `providers.pagespeed` of the server; null skips the PageSpeed step with `no_provider`. */
  pagespeed?: PageSpeedProvider | null;
  /** Where crawls run (crawl-threads/); without it, in this thread. */
  threads?: CrawlThreadPool;
  /**
   * Builds the crawl's browser in this thread (tests); by default each crawl thread creates its
   * own (src/rendering createRenderer). Given, the crawl runs in this thread.
   */
  renderer?: (options: RendererOptions) => Renderer;
}

/**
 * One run of the crawl job: the services, the runtime, the crawl's row as the run read it, the
 * run's signal (aborted on shutdown or a lost lease) and the crawl's lease, through which every
 * write goes (lease.ts).
 */
export interface CrawlJob {
  services: Services;
  runtime: CrawlRuntime;
  row: CrawlRow;
  signal: AbortSignal;
  lease: JobLease;
}
