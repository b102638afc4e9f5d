/**
 * The crawl: robots.txt and site-level checks first, then a breadth-first fetch of internal URLs
 * (exact click depths), redirects followed hop by hop, each page analysed once read (in this
 * thread or a page-analysis thread) and forgotten once its digest is kept, then the sitemap-only URLs, then the cross-page checks.
 * With a renderer (JavaScript rendering, accessibility checks) each internal HTML page is also
 * handed to headless Chromium once fetched (docs/decisions/rendering.md).
 *
 * This file assembles the stages, each in its folder with its own state, and hands each one the
 * crawl's context (run/crawl-context.ts) instead of the parts one by one:
 * - run/: the URL registry, the scope, the fetch scheduler, the early end, the output and its
 *   batches to the sink;
 * - fetch/: the HTTP client, redirects hop by hop (url-fetcher.ts), robots.txt;
 * - page/: each page read, analysed and checked (page-stage.ts, here or in a page-analysis thread);
 * - site/: the link graph, external links, the resources pages load, the site's own files
 *   (robots.txt, sitemaps), and the cross-page checks at the end (site-checks.ts).
 */
import { needsBrowser, type BrowserPassOptions } from './page/browser-pass.js';
import { DEFAULT_TUNING, MAX_REDIRECTS, robotsToken } from './crawl-config.js';
import { EarlyEnd } from './run/early-end.js';
import type { CrawlContext } from './run/crawl-context.js';
import { Emitter } from './run/emitter.js';
import { ExternalChecks } from './site/external-checks.js';
import { ResourceChecks } from './site/resource-checks.js';
import { Flag, State, UrlRegistry } from './run/url-registry.js';
import { HttpClient } from './fetch/http-client.js';
import { LinkGraph } from './site/link-graph.js';
import { CrawlOutput } from './run/crawl-output.js';
import { analyseHere, type PageAnalyser } from './page/page-analysis.js';
import { PageStage } from './page/page-stage.js';
import { emptyRecord } from './page/page-record.js';
import { UrlFetcher } from './fetch/url-fetcher.js';
import { RobotsCache } from './fetch/robots-cache.js';
import { FetchScheduler } from './run/fetch-scheduler.js';
import { CrawlScope, fieldPatterns } from './run/crawl-scope.js';
import { healthScoreExact } from './run/score.js';
import { runSiteChecks } from './site/site-checks.js';
import { SiteFiles } from './site/site-files.js';
import type { AccessibilityRules, CrawlConfig, CrawlOutcome, CrawlSink, CrawlTuning, PageRenderer } from './crawl-types.js';
import { normaliseUrl } from './url.js';

/** How a crawl runs, beyond its config (crawl-types.ts): a stop, the browser, the page analysis. */
export interface CrawlOptions {
  signal?: AbortSignal;
  /**
   * The browser side of the crawl (src/rendering `createRenderer`), required when the config
   * asks for JavaScript rendering or accessibility checks. The crawler does not close it.
   */
  renderer?: PageRenderer;
  /** Test and tuning knobs; the defaults suit production. */
  tuning?: Partial<CrawlTuning>;
  /** Where pages' HTML is analysed (page-analysis.ts): this thread unless given page-analysis threads. */
  analysis?: PageAnalyser;
}

export { MAX_REDIRECTS } from './crawl-config.js';

class Crawler {
  private readonly reg = new UrlRegistry();
  private readonly scope: CrawlScope;
  private readonly control: EarlyEnd;
  private readonly client: HttpClient;
  private readonly emitter: Emitter;
  private readonly output: CrawlOutput;
  private readonly robots: RobotsCache;
  private readonly scheduler: FetchScheduler;
  private readonly links: LinkGraph;
  private readonly siteFiles: SiteFiles;
  private readonly fetcher: UrlFetcher;
  private readonly startId: number;
  /** Why the start URL's site could not be reached at all, when that ended the crawl. */
  private unreachable: CrawlOutcome['unreachable'] = null;

  constructor(
    private readonly cfg: CrawlConfig,
    sink: CrawlSink,
    options: CrawlOptions,
  ) {
    const tuning = { ...DEFAULT_TUNING, ...options.tuning };
    const start = normaliseUrl(cfg.startUrl);
    if (!start) throw new TypeError(`startUrl is not an http(s) URL: ${cfg.startUrl}`);
    this.scope = new CrawlScope(start, fieldPatterns('include_patterns', cfg.includePatterns), fieldPatterns('exclude_patterns', cfg.excludePatterns));
    this.emitter = new Emitter(sink, tuning.batchSize, fieldPatterns('issue_exclusion_patterns', cfg.issueExclusionPatterns));
    const token = robotsToken(cfg.userAgent);
    const browser = browserOptions(cfg, options, token);
    // One controller for both ways a crawl ends early: the caller's signal, or a block we detect.
    this.control = new EarlyEnd(options.signal, tuning.maxConsecutiveProtection);
    const signal = this.control.signal;
    this.client = new HttpClient({
      allowPrivate: cfg.allowPrivateAddresses,
      userAgent: cfg.userAgent,
      timeoutMs: cfg.timeoutMs,
      retries: Math.max(0, cfg.retries),
      retryBaseDelayMs: tuning.retryBaseDelayMs,
      maxWaitMs: tuning.maxWaitMs,
      connections: Math.max(1, cfg.perHostConcurrency),
      // Credentials go to the campaign's own site only, never to a link or redirect elsewhere.
      authorization: httpAuthorization(cfg, (url) => this.scope.isInternal(url)),
      signal,
    });
    this.output = new CrawlOutput(this.reg, this.emitter, sink, (id) => this.links.resolveLinksTo(id));
    this.robots = new RobotsCache(this.client, token, tuning.maxWaitMs, this.output, (url) => this.scope.isInternal(url));
    this.scheduler = new FetchScheduler(this.reg, {
      concurrency: cfg.concurrency,
      perHostConcurrency: cfg.perHostConcurrency,
      maxDepth: cfg.maxDepth,
      maxUrls: cfg.maxUrls,
      hostDelay: (host) => this.client.pacer.delay(host),
      inScope: (url) => this.scope.inScope(url),
      signal,
    });
    this.startId = this.reg.add(start, 0, 'start').id;
    this.reg.set(this.startId, Flag.Internal | Flag.Start);
    const ctx: CrawlContext = {
      reg: this.reg,
      scope: this.scope,
      client: this.client,
      scheduler: this.scheduler,
      robots: this.robots,
      output: this.output,
      control: this.control,
      startId: this.startId,
      token,
    };
    this.links = new LinkGraph(ctx);
    this.siteFiles = new SiteFiles(ctx, cfg, this.links);
    const externals = new ExternalChecks(ctx, tuning);
    const resources = new ResourceChecks(ctx, { maxResourceChecks: tuning.maxResourceChecks, maxRedirects: MAX_REDIRECTS, token });
    const pages = new PageStage(ctx, { links: this.links, externals, resources }, {
      maxHtmlBytes: tuning.maxHtmlBytes,
      checkExternalLinks: cfg.checkExternalLinks,
      token,
      browser: browser && { ...browser, signal },
      analyser: options.analysis ?? analyseHere,
    });
    this.fetcher = new UrlFetcher(ctx, (page) => pages.handle(page));
  }

  async run(): Promise<CrawlOutcome> {
    try {
      await this.crawl();
      await this.emitter.flush();
    } finally {
      // Closing the crawl's connections: a failure here loses nothing the crawl found.
      await this.client.close().catch(() => undefined);
    }
    const anyOk = this.anyInternalOk();
    const exact = anyOk ? healthScoreExact(this.emitter.scoreInput(this.scoredPages())) : null;
    return {
      crawled: this.output.recorded,
      discovered: this.reg.size,
      truncated: this.scheduler.truncated,
      blocked: this.control.blocked !== null,
      blockedReason: this.control.blocked,
      protectionOccurrences: this.control.protectionOccurrences,
      issueCounts: { ...this.emitter.counts },
      healthScore: exact === null ? null : Math.round(exact),
      healthScoreExact: exact,
      aborted: this.control.callerAborted,
      unreachable: this.unreachable,
    };
  }

  private async crawl(): Promise<void> {
    const startUrl = this.scope.startUrl;
    const policy = await this.robots.for(startUrl);
    if (policy.state === 'unreachable' && policy.status === null) {
      // Not even robots.txt answered: the site cannot be reached (or may not be, by the guard).
      this.control.blocked = policy.error === 'address_refused' ? 'address_refused' : 'unreachable';
      const type = policy.error ?? 'connection';
      this.unreachable = { type, message: policy.errorMessage ?? '' };
      await this.recordStartOnly(type);
      // The site-level finding: the cause, as fetch_failed stores it (`dns: getaddrinfo ENOTFOUND …`).
      return this.output.issue('site_unreachable', null, policy.errorMessage ? `${type}: ${policy.errorMessage}` : type, this.scope.startUrl);
    }
    if (policy.state === 'unreachable') {
      this.control.blocked = 'robots_unreachable';
      return this.recordStartOnly('blocked_by_robots');
    }
    if (!policy.isAllowed(startUrl)) {
      this.control.blocked = 'robots_disallow';
      return this.recordStartOnly('blocked_by_robots');
    }
    await this.siteFiles.check(policy);

    this.scheduler.enqueue(this.startId, 0);
    await this.scheduler.run(
      (id, slot) => this.fetcher.fetch(id, slot),
      async () => {
        // After the link crawl: the sitemap URLs no link led to.
        await this.siteFiles.sitemapsRead;
        return this.cfg.maxDepth >= 1 && this.scheduler.queueSitemapOnly();
      },
    );
    // Sitemap reading may still run when the crawl stopped early; it ends quickly once aborted.
    await this.siteFiles.sitemapsRead;
    // Pages whose nofollow links wait on a target that will not be recorded now: each page's own finding, reported even when stopped.
    await this.links.finish();
    if (this.control.callerAborted) return;
    await runSiteChecks({
      registry: this.reg,
      hreflang: this.links.hreflang,
      hreflangDeclared: this.links.hreflangPages + this.siteFiles.sitemapHreflangEntries > 0,
      duplicationThreshold: this.cfg.duplicationThreshold,
      linkGraphComplete: !this.scheduler.truncated && !this.control.blocked,
      sitemapsComplete: this.siteFiles.sitemapsComplete && !this.scheduler.truncated,
      sitemapFiles: this.siteFiles.sitemapFiles,
      report: (name, id, details) => this.output.issue(name, id, details),
    });
  }

  private async recordStartOnly(errorType: string): Promise<void> {
    const record = emptyRecord(this.scope.startUrl, 0, 'start', true);
    record.error_type = errorType;
    this.reg.set(this.startId, errorType === 'blocked_by_robots' ? Flag.Blocked : Flag.Failed);
    await this.output.record(this.startId, record);
  }

  private scoredPages(): number {
    let n = 0;
    for (let id = 0; id < this.reg.size; id++) {
      if (this.reg.state[id] === State.Done && !this.reg.has(id, Flag.Protection)) n++;
    }
    return n;
  }

  private anyInternalOk(): boolean {
    for (let id = 0; id < this.reg.size; id++) {
      const s = this.reg.status[id];
      if (this.reg.state[id] === State.Done && s >= 200 && s < 300 && !this.reg.has(id, Flag.Protection)) return true;
    }
    return false;
  }
}

/** The Basic credentials, sent only where `isInternal` says so. */
function httpAuthorization(cfg: CrawlConfig, isInternal: (url: string) => boolean): (url: string) => string | null {
  if (!cfg.httpAuth) return () => null;
  const auth = `Basic ${Buffer.from(`${cfg.httpAuth.user}:${cfg.httpAuth.password}`).toString('base64')}`;
  return (url) => (isInternal(url) ? auth : null);
}

/** The browser pass the campaign asks for, or null; throws when it needs a renderer and has none. */
function browserOptions(cfg: CrawlConfig, options: CrawlOptions, token: string): Omit<BrowserPassOptions, 'signal'> | null {
  const rules: AccessibilityRules = cfg.checkAccessibilityRendered ? 'full' : cfg.checkAccessibility ? 'static' : 'none';
  const javascriptRendering = cfg.javascriptRendering === true;
  if (!needsBrowser({ javascriptRendering, rules })) return null;
  if (!options.renderer) {
    throw new TypeError('javascriptRendering and the accessibility checks need options.renderer (src/rendering createRenderer)');
  }
  return { renderer: options.renderer, javascriptRendering, rules, token };
}

export async function crawlSite(config: CrawlConfig, sink: CrawlSink, options: CrawlOptions = {}): Promise<CrawlOutcome> {
  return new Crawler(config, sink, options).run();
}
