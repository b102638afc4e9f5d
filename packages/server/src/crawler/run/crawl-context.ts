/**
 * What every stage of one crawl shares, built once by crawl-site.ts and handed to each stage
 * whole: the URL registry, the scope, the HTTP client, the scheduler, robots.txt, the output and
 * the early end. A stage's constructor takes this context and its own options, never a list of
 * the parts one by one.
 */
import type { HttpClient } from '../fetch/http-client.js';
import type { RobotsCache } from '../fetch/robots-cache.js';
import type { CrawlOutput } from './crawl-output.js';
import type { CrawlScope } from './crawl-scope.js';
import type { EarlyEnd } from './early-end.js';
import type { FetchScheduler } from './fetch-scheduler.js';
import type { UrlRegistry } from './url-registry.js';

export interface CrawlContext {
  /** Every URL of the crawl and its compact digest. */
  readonly reg: UrlRegistry;
  readonly scope: CrawlScope;
  readonly client: HttpClient;
  readonly scheduler: FetchScheduler;
  readonly robots: RobotsCache;
  /** Where pages, issues and resources go. */
  readonly output: CrawlOutput;
  /** How the crawl ends early (the caller's stop, a block found). */
  readonly control: EarlyEnd;
  /** The start URL's id in `reg`. */
  readonly startId: number;
  /** Our robots.txt product token, named in blocked_by_robots. */
  readonly token: string;
}

/**
 * Where a URL sits in the crawl: its id in `reg`, the URL and its click depth. The stages that
 * work on one page (the page stage, the link graph, the fetcher's records) take it as one
 * argument; the fetched page (fetch/url-fetcher.ts FetchedPage) and a redirect chain are ones.
 */
export interface PageRef {
  readonly id: number;
  readonly url: string;
  readonly depth: number;
}
