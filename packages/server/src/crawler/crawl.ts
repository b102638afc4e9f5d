/**
 * The crawl: robots.txt and site-level checks first, then a breadth-first fetch of internal URLs
 * (exact click depths), redirects followed hop by hop, each page analysed as it streams in and
 * forgotten once its digest is kept, then the sitemap-only URLs, then the cross-page checks.
 * With a renderer (JavaScript rendering, accessibility checks) each internal HTML page is also
 * handed to headless Chromium once fetched (docs/decisions/rendering.md).
 */
import { compilePatterns, PatternError, type UrlMatcher } from '@siteaudit/schema';
import { ACCESSIBILITY_PREFIX, AI_SEARCH_AGENTS, AI_TRAINING_CRAWLERS, IMPACT_SEVERITY, THRESHOLDS, type CheckName } from './checks.js';
import { DEFAULT_TUNING, robotsToken } from './config.js';
import { StreamingHtmlDecoder, charsetFromContentType, isHtmlContentType } from './decode.js';
import { Emitter } from './emitter.js';
import { DepthFrontier, Flag, State, UrlRegistry } from './frontier.js';
import { HtmlAnalyser, type HtmlFacts } from './html.js';
import { FetchError, HttpClient, headerValue, type HttpResponse } from './http.js';
import { analysePage } from './page-audit.js';
import { detectProtection } from './protection.js';
import { fetchRobots, type RobotsPolicy } from './robots.js';
import { healthScoreExact } from './score.js';
import { runSiteChecks } from './site-audit.js';
import { readSitemaps } from './sitemap.js';
import { contentHash, hash53, simhash64, simhashHex } from './text-hash.js';
import type {
  AccessibilityFinding,
  AccessibilityRules,
  BlockedReason,
  CrawlConfig,
  CrawlOptions,
  CrawlOutcome,
  CrawlSink,
  CrawlTuning,
  DiscoveredVia,
  FetchedPage,
  PageRecord,
  PageRenderer,
  RedirectHop,
} from './types.js';
import { normaliseUrl, originOf, siteHost } from './url.js';

/**
 * A campaign's pattern list. One stored before the rules tightened (a JavaScript-only construct,
 * over the bounds) fails the crawl before any request, naming the field: ignoring it would crawl
 * what the team meant to exclude (docs/decisions/url-normalisation.md, "Patterns").
 */
function fieldPatterns(field: string, source: string | null): UrlMatcher {
  try {
    return compilePatterns(source);
  } catch (error) {
    if (!(error instanceof PatternError)) throw error;
    const { problem } = error;
    throw new PatternError({ ...problem, en: `${field}: ${problem.en}`, fr: `${field} : ${problem.fr}` });
  }
}

/** Redirects followed from one URL before giving up (the crawl issue's hop cap). */
export const MAX_REDIRECTS = 10;

interface AuxJob {
  host: string;
  run: () => Promise<void>;
}

interface ExternalEntry {
  depth: number;
  done: boolean;
  broken: string | null;
  sources: number[];
}

/** Sources remembered per pending link target; beyond it, later sources are not reported. */
const MAX_PENDING_SOURCES = 10_000;

/** `host[:port]` without `www.`: the unit of "internal". */
function siteKey(url: string): string {
  const u = new URL(url);
  return siteHost(u.hostname) + (u.port ? `:${u.port}` : '');
}

function emptyRecord(url: string, depth: number, via: DiscoveredVia, internal: boolean): PageRecord {
  return {
    url,
    status_code: null,
    error_type: null,
    content_type: null,
    is_internal: internal,
    depth,
    title: null,
    meta_description: null,
    h1: null,
    word_count: null,
    canonical_url: null,
    response_time_ms: null,
    size_bytes: null,
    internal_links: 0,
    external_links: 0,
    images: 0,
    images_without_alt: 0,
    discovered_via: via,
    redirect_url: null,
    redirect_chain: [],
    protection: false,
    indexable: false,
    meta_robots: null,
    x_robots_tag: null,
    lang: null,
    viewport: null,
    hreflang: [],
    og: { title: null, description: null, image: null },
    json_ld: [],
    headings: [],
    content_hash: null,
    simhash: null,
    body_truncated: false,
    content_encoding: null,
  };
}

function squashKey(text: string): number {
  return hash53(text.replace(/\s+/g, ' ').trim().toLowerCase());
}

export class Crawler {
  private readonly cfg: CrawlConfig;
  private readonly tuning: CrawlTuning;
  private readonly token: string;
  private readonly controller = new AbortController();
  private readonly client: HttpClient;
  private readonly reg = new UrlRegistry();
  private readonly frontier = new DepthFrontier();
  private readonly include: UrlMatcher;
  private readonly exclude: UrlMatcher;
  private readonly emitter: Emitter;
  private readonly internalSites = new Set<string>();
  private readonly robots = new Map<string, Promise<RobotsPolicy>>();
  private readonly pending = new Map<number, number[]>();
  private readonly hreflang = new Map<number, { lang: string; target: number }[]>();
  private readonly externals = new Map<string, ExternalEntry>();
  private readonly images = new Set<string>();
  private readonly aux = new Map<string, AuxJob[]>();
  private readonly activeByHost = new Map<string, number>();
  private readonly activeDepth: number[] = [];
  private readonly startUrl: string;
  private readonly registryCap: number;
  private startId = -1;
  private slots: number;
  private recorded = 0;
  private active = 0;
  private stopping = false;
  private truncated = false;
  private blocked: BlockedReason | null = null;
  private protectionOccurrences = 0;
  private consecutiveProtection = 0;
  private fatal: unknown = null;
  private wake: (() => void) | null = null;
  private sitemapUrls: Promise<void> = Promise.resolve();
  private sitemapPhaseDone = false;
  private readonly callerSignal: AbortSignal | undefined;
  private readonly renderer: PageRenderer | null;
  private readonly a11yRules: AccessibilityRules;

  constructor(
    config: CrawlConfig,
    private readonly sink: CrawlSink,
    options: CrawlOptions = {},
  ) {
    this.cfg = config;
    this.tuning = { ...DEFAULT_TUNING, ...options.tuning };
    const start = normaliseUrl(config.startUrl);
    if (!start) throw new TypeError(`startUrl is not an http(s) URL: ${config.startUrl}`);
    this.startUrl = start;
    this.include = fieldPatterns('include_patterns', config.includePatterns);
    this.exclude = fieldPatterns('exclude_patterns', config.excludePatterns);
    this.emitter = new Emitter(sink, this.tuning.batchSize, fieldPatterns('issue_exclusion_patterns', config.issueExclusionPatterns));
    this.token = robotsToken(config.userAgent);
    this.a11yRules = config.checkAccessibilityRendered ? 'full' : config.checkAccessibility ? 'static' : 'none';
    this.renderer = options.renderer ?? null;
    if (!this.renderer && (config.javascriptRendering || this.a11yRules !== 'none')) {
      throw new TypeError('javascriptRendering and the accessibility checks need options.renderer (src/rendering createRenderer)');
    }
    this.slots = Math.max(0, config.maxUrls);
    // The seen set may outgrow the budget (links to pages we will never fetch), within reason.
    this.registryCap = Math.max(10_000, config.maxUrls * 10);
    this.internalSites.add(siteKey(start));
    // One controller for both ways a crawl ends early: the caller's signal, or a block we detect.
    this.callerSignal = options.signal;
    if (options.signal) {
      if (options.signal.aborted) this.controller.abort();
      else options.signal.addEventListener('abort', () => this.controller.abort(), { once: true });
    }
    this.controller.signal.addEventListener('abort', () => this.wake?.(), { once: true });
    const auth = config.httpAuth ? `Basic ${Buffer.from(`${config.httpAuth.user}:${config.httpAuth.password}`).toString('base64')}` : null;
    this.client = new HttpClient({
      allowPrivate: config.allowPrivateAddresses,
      userAgent: config.userAgent,
      timeoutMs: config.timeoutMs,
      retries: Math.max(0, config.retries),
      retryBaseDelayMs: this.tuning.retryBaseDelayMs,
      maxWaitMs: this.tuning.maxWaitMs,
      connections: Math.max(1, config.perHostConcurrency),
      // Credentials go to the campaign's own site only, never to a link or redirect elsewhere.
      authorization: (url) => (auth && this.isInternal(url) ? auth : null),
      signal: this.controller.signal,
    });
  }

  private get signal(): AbortSignal {
    return this.controller.signal;
  }

  isInternal(url: string): boolean {
    try {
      return this.internalSites.has(siteKey(url));
    } catch {
      return false;
    }
  }

  private inScope(url: string): boolean {
    if (!this.isInternal(url)) return false;
    if (url === this.startUrl) return true;
    if (this.exclude.matches(url)) return false;
    return this.include.size === 0 || this.include.matches(url);
  }

  async run(): Promise<CrawlOutcome> {
    try {
      await this.crawl();
      await this.emitter.flush();
    } finally {
      // Closing the crawl's connections: a failure here loses nothing the crawl found.
      await this.client.close().catch(() => undefined);
    }
    const scored = this.scoredPages();
    const anyOk = this.anyInternalOk();
    const exact = anyOk ? healthScoreExact(this.emitter.scoreInput(scored)) : null;
    return {
      crawled: this.recorded,
      discovered: this.reg.size,
      truncated: this.truncated,
      blocked: this.blocked !== null,
      blockedReason: this.blocked,
      protectionOccurrences: this.protectionOccurrences,
      issueCounts: { ...this.emitter.counts },
      healthScore: exact === null ? null : Math.round(exact),
      healthScoreExact: exact,
      aborted: this.callerSignal?.aborted === true,
    };
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

  private async crawl(): Promise<void> {
    const start = this.reg.add(this.startUrl, 0, 'start');
    this.startId = start.id;
    this.reg.set(start.id, Flag.Internal | Flag.Start);

    const policy = await this.robotsFor(this.startUrl);
    if (policy.state === 'unreachable' && policy.status === null) {
      // Not even robots.txt answered: the site cannot be reached (or may not be, by the guard).
      this.blocked = policy.error === 'address_refused' ? 'address_refused' : 'unreachable';
      await this.recordStartOnly(policy.error ?? 'connection');
      return;
    }
    if (policy.state === 'unreachable') {
      this.blocked = 'robots_unreachable';
      await this.recordStartOnly('blocked_by_robots');
      return;
    }
    if (!policy.isAllowed(this.startUrl)) {
      this.blocked = 'robots_disallow';
      await this.recordStartOnly('blocked_by_robots');
      return;
    }
    await this.siteChecks(policy);

    this.reg.state[start.id] = State.Queued;
    this.frontier.push(start.id, 0);
    await this.loop();
    // Sitemap reading may still run when the crawl stopped early; it ends quickly once aborted.
    await this.sitemapUrls;
    if (this.callerSignal?.aborted) return;
    await runSiteChecks({
      registry: this.reg,
      hreflang: this.hreflang,
      duplicationThreshold: this.cfg.duplicationThreshold,
      linkGraphComplete: !this.truncated && !this.blocked,
      report: (name, id, details) => this.issue(name, id, details),
    });
  }

  private async recordStartOnly(errorType: string): Promise<void> {
    const record = emptyRecord(this.startUrl, 0, 'start', true);
    record.error_type = errorType;
    this.reg.set(this.startId, errorType === 'blocked_by_robots' ? Flag.Blocked : Flag.Failed);
    await this.record(this.startId, record);
  }

  // ---------------------------------------------------------------- scheduling

  private hostLimit(host: string): number {
    return this.client.pacer.delay(host) > 0 ? 1 : Math.max(1, this.cfg.perHostConcurrency);
  }

  private async loop(): Promise<void> {
    for (;;) {
      if (this.fatal || this.signal.aborted) this.stopping = true;
      this.pump();
      if (this.active === 0) {
        if (this.fatal) throw this.fatal;
        if (this.stopping) return;
        // Nothing runs and nothing could start: the link crawl is over.
        if (await this.refill()) continue;
        return;
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = null;
    }
  }

  private pump(): void {
    while (!this.stopping && this.active < Math.max(1, this.cfg.concurrency)) {
      const started = this.startInternal() || this.startAux();
      if (!started) break;
    }
  }

  private minActiveDepth(): number {
    for (let d = 0; d < this.activeDepth.length; d++) if (this.activeDepth[d] > 0) return d;
    return Infinity;
  }

  /** Starts the next internal URL, breadth first; false when none may start now. */
  private startInternal(): boolean {
    for (;;) {
      const depth = this.frontier.lowestDepth();
      if (depth < 0) return false;
      // Exact click depths: a page at depth d-2 still in flight could find this URL at d-1.
      if (this.minActiveDepth() < depth - 1) return false;
      const id = this.frontier.peek(depth)!;
      if (this.reg.state[id] !== State.Queued || this.reg.depth[id] !== depth) {
        this.frontier.shift(depth);
        continue;
      }
      const host = new URL(this.reg.url(id)).host;
      if ((this.activeByHost.get(host) ?? 0) >= this.hostLimit(host)) return false;
      if (this.slots <= 0) {
        // The budget is spent while in-scope URLs wait: the crawl is truncated.
        this.truncated = true;
        while (this.frontier.length) this.frontier.shift(this.frontier.lowestDepth());
        return false;
      }
      this.frontier.shift(depth);
      this.slots--;
      this.reg.state[id] = State.Active;
      this.launch(host, depth, () => this.fetchUrl(id));
      return true;
    }
  }

  private startAux(): boolean {
    for (const [host, jobs] of this.aux) {
      if ((this.activeByHost.get(host) ?? 0) >= this.hostLimit(host)) continue;
      const job = jobs.shift()!;
      if (jobs.length === 0) this.aux.delete(host);
      this.launch(host, null, job.run);
      return true;
    }
    return false;
  }

  private launch(host: string, depth: number | null, run: () => Promise<void>): void {
    this.active++;
    this.activeByHost.set(host, (this.activeByHost.get(host) ?? 0) + 1);
    if (depth !== null) this.activeDepth[depth] = (this.activeDepth[depth] ?? 0) + 1;
    run()
      .catch((error) => {
        if (!(error instanceof FetchError && error.type === 'aborted')) this.fatal ??= error;
        this.stopping = true;
      })
      .finally(() => {
        this.active--;
        const n = (this.activeByHost.get(host) ?? 1) - 1;
        if (n > 0) this.activeByHost.set(host, n);
        else this.activeByHost.delete(host);
        if (depth !== null) this.activeDepth[depth]--;
        this.wake?.();
      });
  }

  private queueAux(url: string, run: () => Promise<void>): void {
    const host = new URL(url).host;
    const jobs = this.aux.get(host);
    if (jobs) jobs.push({ host, run });
    else this.aux.set(host, [{ host, run }]);
  }

  /** After the link crawl: the sitemap URLs no link led to. */
  private async refill(): Promise<boolean> {
    if (this.sitemapPhaseDone) return false;
    this.sitemapPhaseDone = true;
    await this.sitemapUrls;
    if (this.cfg.maxDepth < 1) return false;
    let queued = false;
    for (let id = 0; id < this.reg.size; id++) {
      if (this.reg.state[id] !== State.Known) continue;
      this.reg.depth[id] = 1;
      this.reg.setVia(id, 'sitemap');
      this.reg.state[id] = State.Queued;
      this.frontier.push(id, 1);
      queued = true;
    }
    return queued;
  }

  /** Ends the crawl early: requests in flight are cancelled, what is recorded stays. */
  private stop(reason: BlockedReason): void {
    this.blocked ??= reason;
    this.stopping = true;
    this.controller.abort();
  }

  // ---------------------------------------------------------------- registry

  /**
   * Registers an internal URL found at `depth` and queues it when in scope and within the depth
   * limit; returns its id, or null when it stays out of the crawl.
   */
  private discover(url: string, depth: number, via: DiscoveredVia): number | null {
    const reg = this.reg;
    const existing = reg.get(url);
    if (existing !== undefined) {
      const state = reg.state[existing];
      if (state === State.Queued && depth < reg.depth[existing]) {
        reg.depth[existing] = depth;
        this.frontier.push(existing, depth);
      } else if (state === State.Known && depth <= this.cfg.maxDepth) {
        reg.depth[existing] = depth;
        reg.setVia(existing, via);
        reg.state[existing] = State.Queued;
        this.frontier.push(existing, depth);
      }
      return existing;
    }
    if (depth > this.cfg.maxDepth || !this.inScope(url)) return null;
    if (reg.size >= this.registryCap) {
      this.truncated = true;
      return null;
    }
    const { id } = reg.add(url, depth, via);
    reg.set(id, Flag.Internal);
    reg.state[id] = State.Queued;
    this.frontier.push(id, depth);
    return id;
  }

  private robotsFor(url: string): Promise<RobotsPolicy> {
    const origin = originOf(url);
    let policy = this.robots.get(origin);
    if (!policy) {
      policy = fetchRobots(this.client, origin, this.token).then(async (p) => {
        const host = new URL(origin).host;
        if (p.crawlDelayMs) this.client.pacer.setDelay(host, Math.min(p.crawlDelayMs, this.tuning.maxWaitMs));
        if (p.state === 'unreachable' && p.status !== null && (p.status >= 500 || p.status === 429)) {
          await this.issue('robots_txt_5xx', null, `status ${p.status}: robots.txt unreachable, so everything is disallowed`, p.url);
        }
        return p;
      });
      this.robots.set(origin, policy);
    }
    return policy;
  }

  // ---------------------------------------------------------------- output

  private async issue(name: CheckName, pageId: number | null, details: string, url?: string): Promise<void> {
    await this.emitter.issue(name, url ?? this.reg.url(pageId!), details, pageId);
  }

  private async record(id: number, record: PageRecord): Promise<void> {
    this.reg.state[id] = State.Done;
    this.recorded++;
    await this.emitter.page(record);
    this.sink.progress({ crawled: this.recorded, discovered: this.reg.size });
    await this.resolveLinksTo(id);
  }

  /** Reports the links waiting on `target`, now that its outcome is known. */
  private async resolveLinksTo(target: number): Promise<void> {
    const sources = this.pending.get(target);
    if (!sources) return;
    this.pending.delete(target);
    for (const source of sources) await this.linkIssue(source, target);
  }

  private async linkIssue(source: number, target: number): Promise<void> {
    const reg = this.reg;
    if (reg.has(target, Flag.Protection) || reg.has(target, Flag.Blocked)) return;
    const url = reg.url(target);
    const status = reg.status[target];
    const final = reg.finalStatus[target];
    if (reg.has(target, Flag.Failed) || final === -1 || final >= 400) {
      const why = reg.has(target, Flag.Loop)
        ? 'redirect loop'
        : reg.has(target, Flag.Failed) && status === 0
          ? 'no response'
          : status >= 300 && status < 400
            ? `redirects to a page answering ${final === -1 ? 'nothing' : final}`
            : `status ${status}`;
      await this.issue('broken_internal_link', source, `link to ${url}: ${why}`);
    } else if (status >= 300 && status < 400) {
      await this.issue('link_to_redirect', source, `link to ${url}: redirects (status ${status})`);
    }
  }

  // ---------------------------------------------------------------- site level

  private async siteChecks(policy: RobotsPolicy): Promise<void> {
    const origin = originOf(this.startUrl);
    if (policy.state === 'missing') await this.issue('robots_txt_missing', null, `robots.txt answers ${policy.status}`, policy.url);

    const listed = policy.sitemaps.map((s) => normaliseUrl(s, policy.url)).filter((s): s is string => s !== null);
    this.sitemapUrls = this.readSitemaps(listed, `${origin}/sitemap.xml`).catch((error) => {
      if (!(error instanceof FetchError && error.type === 'aborted')) this.fatal ??= error;
    });

    if (this.cfg.checkAiReachability) {
      if (policy.state === 'ok') {
        const home = `${origin}/`;
        for (const agent of AI_SEARCH_AGENTS) {
          if (!policy.isAllowed(home, agent.toLowerCase())) await this.issue('ai_search_agent_blocked', null, `${agent} is disallowed`, policy.url);
        }
        for (const agent of AI_TRAINING_CRAWLERS) {
          if (!policy.isAllowed(home, agent.toLowerCase())) await this.issue('ai_training_crawler_blocked', null, `${agent} is disallowed`, policy.url);
        }
      }
      await this.llmsTxt(origin);
    }
  }

  private async readSitemaps(listed: string[], fallback: string): Promise<void> {
    const cap = Math.max(1, this.cfg.maxUrls);
    let added = 0;
    const onUrl = (loc: string) => {
      const url = normaliseUrl(loc);
      if (!url || !this.inScope(url)) return true;
      let id = this.reg.get(url);
      if (id === undefined) {
        if (added >= cap || this.reg.size >= this.registryCap) return false;
        id = this.reg.add(url, 1, 'sitemap').id;
        this.reg.set(id, Flag.Internal);
        added++;
      }
      this.reg.set(id, Flag.InSitemap);
      return true;
    };
    const robotsUrl = `${originOf(this.startUrl)}/robots.txt`;
    if (listed.length > 0) {
      const report = await readSitemaps(this.client, listed, onUrl);
      if (report.found.length === 0) {
        const failed = report.failed.map((f) => `${f.url} (${f.status ?? 'no response'})`).join(', ');
        await this.issue('sitemap_missing', null, `robots.txt lists sitemaps that cannot be read: ${failed}`, robotsUrl);
      }
      return;
    }
    const report = await readSitemaps(this.client, [fallback], onUrl);
    if (report.found.length > 0) await this.issue('sitemap_not_in_robots', null, `${fallback} exists but robots.txt has no Sitemap line`, robotsUrl);
    else await this.issue('sitemap_missing', null, `no Sitemap line in robots.txt and ${fallback} answers ${report.failed[0]?.status ?? 'nothing'}`, fallback);
  }

  private async llmsTxt(origin: string): Promise<void> {
    const url = `${origin}/llms.txt`;
    const res = await this.client.getResource(url, { maxHops: 5, maxBytes: 64 * 1024, accept: 'text/plain,text/markdown,*/*;q=0.5' });
    if (res.error?.type === 'aborted') throw res.error;
    if (res.status === null) return;
    const text = res.body?.toString('utf8') ?? '';
    // A site answering its HTML shell for every path has no llms.txt either.
    const isHtml = isHtmlContentType(headerValue(res.headers, 'content-type')) || /^\s*</.test(text);
    if (res.status < 200 || res.status >= 300 || isHtml) {
      await this.issue('llms_txt_missing', null, isHtml && res.status < 300 ? 'llms.txt answers an HTML page' : `llms.txt answers ${res.status}`, url);
      return;
    }
    const firstLine = text.split(/\r?\n/).find((l) => l.trim() !== '') ?? '';
    if (!/^#\s+\S/.test(firstLine)) await this.issue('llms_txt_no_h1', null, 'the file does not start with a "# Title" line', url);
  }

  // ---------------------------------------------------------------- one URL

  /**
   * Fetches an internal URL and follows its redirects by hand: every hop is vetted again by the
   * guard (new connection), checked against robots.txt and the patterns, and recorded.
   */
  private async fetchUrl(firstId: number): Promise<void> {
    const reg = this.reg;
    const depth = reg.depth[firstId];
    const chain: { id: number; status: number; location: string | null; ttfb: number; contentType: string | null }[] = [];
    const claimed: number[] = [firstId];
    let id = firstId;
    let url = reg.url(firstId);
    let final: number | null = null; // final status of the chain; -1 failed; null unknown
    let loop = false;
    let tooMany = false;

    for (;;) {
      const policy = await this.robotsFor(url);
      // robots.txt refused by the guard: when the page's own address is the refused one (a
      // redirect into a private network), that is what the page reports, not robots.txt.
      const refused = policy.error === 'address_refused' ? await this.client.addressRefusal(url) : null;
      if (refused) {
        final = -1;
        await this.recordFailure(firstId, id, url, depth, refused);
        break;
      }
      if (!policy.isAllowed(url)) {
        reg.set(id, Flag.Blocked);
        const record = emptyRecord(url, depth, reg.discoveredVia(id), true);
        record.error_type = 'blocked_by_robots';
        await this.record(id, record);
        await this.issue('blocked_by_robots', id, policy.state === 'unreachable' ? 'robots.txt is unreachable: everything is disallowed' : `disallowed for ${this.token}`);
        break;
      }
      let response: HttpResponse;
      try {
        response = await this.client.exchange(url, 'GET');
      } catch (error) {
        if (!(error instanceof FetchError) || error.type === 'aborted') {
          this.release(claimed.filter((c) => reg.state[c] === State.Active));
          throw error;
        }
        final = -1;
        await this.recordFailure(firstId, id, url, depth, error);
        break;
      }
      const status = response.status;
      const location = headerValue(response.headers, 'location');
      if (status >= 300 && status < 400 && location !== null) {
        this.client.discard(response);
        const next = normaliseUrl(location, url);
        chain.push({ id, status, location: next, ttfb: response.ttfbMs, contentType: headerValue(response.headers, 'content-type') });
        reg.status[id] = status;
        if (next === null) {
          final = -1;
          break;
        }
        if (next === url || chain.some((h) => reg.url(h.id) === next)) {
          loop = true;
          final = -1;
          break;
        }
        if (chain.length > MAX_REDIRECTS) {
          tooMany = true;
          final = -1;
          break;
        }
        // The start URL may move the whole site to another host: that host becomes internal.
        if (!this.isInternal(next) && firstId === this.startId) this.internalSites.add(siteKey(next));
        if (!this.isInternal(next) || !this.inScope(next)) break;
        const known = reg.get(next);
        if (known !== undefined && (reg.state[known] === State.Done || reg.state[known] === State.Active)) {
          if (reg.state[known] === State.Done) final = reg.has(known, Flag.Failed) ? -1 : reg.finalStatus[known] || reg.status[known];
          reg.redirect[id] = known;
          break;
        }
        if (this.slots <= 0) {
          this.truncated = true;
          break;
        }
        this.slots--;
        const nextId = known ?? reg.add(next, depth, 'redirect').id;
        reg.set(nextId, Flag.Internal);
        if (reg.depth[nextId] > depth) reg.depth[nextId] = depth;
        reg.state[nextId] = State.Active;
        reg.redirect[id] = nextId;
        claimed.push(nextId);
        id = nextId;
        url = next;
        continue;
      }
      final = status;
      await this.finalPage(id, url, depth, response);
      break;
    }

    await this.recordChain(firstId, chain, final, loop, tooMany);
  }

  /** A URL that got no answer: recorded with its error type, and a fetch failure unless the guard refused it. */
  private async recordFailure(firstId: number, id: number, url: string, depth: number, error: FetchError): Promise<void> {
    const reg = this.reg;
    reg.set(id, Flag.Failed);
    reg.finalStatus[id] = -1;
    const record = emptyRecord(url, depth, reg.discoveredVia(id), true);
    record.error_type = error.type;
    await this.record(id, record);
    if (error.type !== 'address_refused') await this.issue('fetch_failed', id, `${error.type}: ${error.message}`);
    // The start URL (or where it redirects) refused by the guard: nothing can be crawled.
    else if (firstId === this.startId) this.stop('address_refused');
  }

  /** Returns claimed-but-unrecorded URLs to the queue (on stop) and their budget. */
  private release(ids: number[]): void {
    for (const id of ids) {
      this.reg.state[id] = State.Queued;
      this.slots++;
    }
  }

  private async recordChain(
    firstId: number,
    chain: { id: number; status: number; location: string | null; ttfb: number; contentType: string | null }[],
    final: number | null,
    loop: boolean,
    tooMany: boolean,
  ): Promise<void> {
    if (chain.length === 0) return;
    const reg = this.reg;
    const hops: RedirectHop[] = chain.map((h) => ({ url: reg.url(h.id), status_code: h.status, location: h.location }));
    for (let i = 0; i < chain.length; i++) {
      const h = chain[i];
      reg.finalStatus[h.id] = final ?? 0;
      if (final === -1) reg.set(h.id, Flag.Failed);
      if (loop) reg.set(h.id, Flag.Loop);
      const record = emptyRecord(reg.url(h.id), reg.depth[h.id], reg.discoveredVia(h.id), true);
      record.status_code = h.status;
      record.redirect_url = h.location;
      record.redirect_chain = hops.slice(i);
      record.response_time_ms = h.ttfb;
      record.content_type = h.contentType;
      record.error_type = loop ? 'redirect_loop' : tooMany ? 'too_many_redirects' : h.location === null ? 'invalid_redirect' : null;
      await this.record(h.id, record);
      if (h.status === 302 || h.status === 307) await this.issue('temporary_redirect', h.id, `${h.status} to ${h.location}`);
    }
    const path = hops.map((h) => h.url).concat(hops[hops.length - 1].location ?? []).join(' → ');
    if (loop) await this.issue('redirect_loop', firstId, path);
    else if (tooMany) await this.issue('redirect_chain', firstId, `more than ${MAX_REDIRECTS} redirects: ${path}`);
    else if (chain.length > 1) await this.issue('redirect_chain', firstId, `${chain.length} hops: ${path}`);
  }

  /** Records the response that ended a chain (not a redirect) and analyses it when it is HTML. */
  private async finalPage(id: number, url: string, depth: number, response: HttpResponse): Promise<void> {
    const reg = this.reg;
    const status = response.status;
    reg.status[id] = status;
    reg.finalStatus[id] = status;
    const contentType = headerValue(response.headers, 'content-type');
    const record = emptyRecord(url, depth, reg.discoveredVia(id), true);
    record.status_code = status;
    record.content_type = contentType;
    record.response_time_ms = response.ttfbMs;
    record.content_encoding = headerValue(response.headers, 'content-encoding');
    record.x_robots_tag = headerValue(response.headers, 'x-robots-tag');

    if (response.protection) {
      await this.protectionPage(id, record);
      return;
    }
    const isHtml = isHtmlContentType(contentType);
    if (status < 200 || status >= 300 || !isHtml) {
      const length = Number(headerValue(response.headers, 'content-length'));
      record.size_bytes = Number.isFinite(length) && headerValue(response.headers, 'content-length') !== null ? length : null;
      this.client.discard(response);
      // A plain 403/429 without a challenge body is the page's own answer.
      this.consecutiveProtection = 0;
      await this.record(id, record);
      if (status >= 500) await this.issue('http_5xx', id, `status ${status}`);
      else if (status >= 400) await this.issue('http_4xx', id, `status ${status}`);
      return;
    }

    const analyser = new HtmlAnalyser(['robots', this.token]);
    // The browser gets the HTML we fetched (never a second request), so keep it when it will be needed.
    const kept: string[] | null = this.renderer && (this.cfg.javascriptRendering || this.a11yRules !== 'none') ? [] : null;
    const decoder = new StreamingHtmlDecoder(charsetFromContentType(contentType), (text) => {
      analyser.write(text);
      kept?.push(text);
    });
    let read: { bytes: number; truncated: boolean };
    try {
      read = await this.client.stream(response, this.tuning.maxHtmlBytes, (chunk) => decoder.write(chunk));
    } catch (error) {
      if (error instanceof FetchError && error.type !== 'aborted') {
        reg.set(id, Flag.Failed);
        reg.finalStatus[id] = -1;
        record.error_type = error.type;
        await this.record(id, record);
        await this.issue('fetch_failed', id, `${error.type} while reading the body: ${error.message}`);
        return;
      }
      throw error;
    }
    decoder.end();
    const fetchedHtml = analyser.end();
    const declaredLength = Number(headerValue(response.headers, 'content-length') ?? NaN);
    // Past the cap, the declared (compressed) length is the best size we have.
    const sizeBytes = read.truncated && Number.isFinite(declaredLength) ? Math.max(read.bytes, declaredLength) : read.bytes;
    record.size_bytes = sizeBytes;
    record.body_truncated = read.truncated;

    const protection = detectProtection({
      status,
      headers: response.headers,
      title: fetchedHtml.titles[0] ?? null,
      body: `${fetchedHtml.textSample} ${fetchedHtml.scriptSrcs.join(' ')}`,
    });
    if (protection) {
      await this.protectionPage(id, record);
      return;
    }
    this.consecutiveProtection = 0;
    const browser = kept ? await this.browserPass({ url, status, headers: response.headers, html: kept.join('') }, fetchedHtml) : null;
    const html = browser?.html ?? fetchedHtml;

    const { findings, summary } = analysePage({
      url,
      status,
      headers: response.headers,
      ttfbMs: response.ttfbMs,
      depth,
      discoveredVia: reg.discoveredVia(id),
      html,
      sizeBytes,
      isInternal: (u) => this.isInternal(u),
      robotsToken: this.token,
    });

    // Digest for the cross-page checks.
    let flags = Flag.Html;
    if (summary.indexable) flags |= Flag.Indexable;
    if (summary.noindex) flags |= Flag.Noindex;
    if (summary.title) {
      flags |= Flag.HasTitle;
      reg.titleHash[id] = squashKey(summary.title);
    }
    if (summary.metaDescription) {
      flags |= Flag.HasDescription;
      reg.descriptionHash[id] = squashKey(summary.metaDescription);
    }
    const hash = contentHash(html.mainWords);
    const sim = simhash64(html.mainWords);
    if (hash) {
      flags |= Flag.HasText;
      reg.contentKey[id] = hash.key;
    }
    if (sim) {
      reg.simHi[id] = sim.hi;
      reg.simLo[id] = sim.lo;
      if (html.mainWords.length >= THRESHOLDS.nearDuplicateMinWords) flags |= Flag.NearDuplicateCandidate;
    }
    reg.set(id, flags);

    // Links: register targets, count inlinks, report those already resolved.
    const childDepth = depth + 1;
    const linkTargets = new Set<number>();
    const targets = summary.metaRefreshUrl && this.isInternal(summary.metaRefreshUrl)
      ? [...summary.internalLinks, { url: summary.metaRefreshUrl, nofollow: false }]
      : summary.internalLinks;
    for (const link of targets) {
      if (link.url === url) continue;
      const target = this.discover(link.url, childDepth, 'link');
      if (target !== null) linkTargets.add(target);
    }
    if (summary.canonical) {
      if (summary.canonical === url) reg.canonical[id] = id;
      else if (this.isInternal(summary.canonical)) reg.canonical[id] = this.discover(summary.canonical, childDepth, 'canonical') ?? reg.get(summary.canonical) ?? -2;
      else reg.canonical[id] = -2;
    }
    const alternates: { lang: string; target: number }[] = [];
    for (const h of summary.hreflang) {
      if (!this.isInternal(h.url)) continue;
      const target = h.url === url ? id : (this.discover(h.url, childDepth, 'hreflang') ?? reg.get(h.url));
      if (target !== undefined && target !== null) alternates.push({ lang: h.lang, target });
    }
    if (alternates.length) this.hreflang.set(id, alternates);

    Object.assign(record, {
      title: summary.title,
      meta_description: summary.metaDescription,
      h1: summary.h1,
      word_count: summary.wordCount,
      canonical_url: summary.canonical,
      internal_links: summary.internalLinks.length,
      external_links: summary.externalLinks.length,
      images: html.images.length,
      images_without_alt: summary.imagesWithoutAlt,
      indexable: summary.indexable,
      meta_robots: summary.metaRobots,
      lang: html.lang,
      viewport: html.viewport,
      hreflang: summary.hreflang.map((h) => ({ lang: h.lang, href: h.url })),
      og: html.og,
      json_ld: parseJsonLd(html.jsonLd),
      headings: html.headings,
      content_hash: hash?.hex ?? null,
      simhash: sim ? simhashHex(sim) : null,
    } satisfies Partial<PageRecord>);
    await this.record(id, record);
    for (const f of findings) await this.issue(f.name, id, f.details);
    if (browser?.failure) await this.issue('render_failed', id, browser.failure);
    for (const f of browser?.accessibility ?? []) {
      await this.emitter.unscoredIssue({
        name: `${ACCESSIBILITY_PREFIX}${f.rule}`,
        severity: IMPACT_SEVERITY[f.impact] ?? 'info',
        category: 'accessibility',
        url,
        details: accessibilityDetails(f),
      });
    }

    for (const target of linkTargets) {
      reg.inlinks[target]++;
      if (reg.state[target] === State.Done) await this.linkIssue(id, target);
      else {
        const list = this.pending.get(target);
        if (!list) this.pending.set(target, [id]);
        else if (list.length < MAX_PENDING_SOURCES) list.push(id);
      }
    }
    if (this.cfg.checkExternalLinks) for (const ext of summary.externalLinks) await this.externalLink(ext, id, childDepth);
    for (const image of summary.imageUrls) if (this.isInternal(image)) this.imageCheck(image, url);
  }

  /**
   * The browser side of a page: rendered in Chromium when the campaign asks for JavaScript
   * rendering (the analysis then reads the rendered DOM) or for the full accessibility rule set;
   * otherwise the layout-free rules on the fetched HTML. A failure falls back to the fetched HTML.
   */
  private async browserPass(page: FetchedPage, fetched: HtmlFacts): Promise<{ html: HtmlFacts; accessibility: AccessibilityFinding[] | null; failure: string | null }> {
    const renderer = this.renderer!;
    const rules = this.a11yRules;
    try {
      if (this.cfg.javascriptRendering || rules === 'full') {
        const rendered = await renderer.render(page, { accessibility: rules, signal: this.signal });
        let html = fetched;
        if (this.cfg.javascriptRendering) {
          const analyser = new HtmlAnalyser(['robots', this.token]);
          analyser.write(rendered.html);
          html = analyser.end();
        }
        return { html, accessibility: rendered.accessibility, failure: null };
      }
      if (rules === 'static') return { html: fetched, accessibility: await renderer.auditHtml(page, { signal: this.signal }), failure: null };
      return { html: fetched, accessibility: null, failure: null };
    } catch (error) {
      if (this.signal.aborted) throw new FetchError('aborted', 'crawl stopped', page.url);
      const code = (error as { code?: unknown }).code;
      // No browser at all is the operator's problem, not the page's: the crawl fails and says so.
      if (code === 'launch_failed') throw error;
      const message = error instanceof Error ? error.message : String(error);
      return { html: fetched, accessibility: null, failure: `${typeof code === 'string' ? `${code}: ` : ''}${message}`.slice(0, 500) };
    }
  }

  private async protectionPage(id: number, record: PageRecord): Promise<void> {
    const reg = this.reg;
    reg.set(id, Flag.Protection);
    record.protection = true;
    record.error_type = 'protection';
    this.protectionOccurrences++;
    this.consecutiveProtection++;
    await this.record(id, record);
    if (id === this.startId || this.chainStartsAtStart(id)) this.stop('firewall');
    else if (this.consecutiveProtection >= this.tuning.maxConsecutiveProtection) this.stop('firewall');
  }

  /** True when `id` was reached by redirects from the start URL. */
  private chainStartsAtStart(id: number): boolean {
    let cur = this.startId;
    for (let i = 0; i <= MAX_REDIRECTS && cur >= 0; i++) {
      if (cur === id) return true;
      cur = this.reg.redirect[cur];
    }
    return false;
  }

  // ---------------------------------------------------------------- external links and images

  private async externalLink(url: string, source: number, depth: number): Promise<void> {
    let entry = this.externals.get(url);
    if (!entry) {
      if (this.externals.size >= this.tuning.maxExternalChecks) return;
      entry = { depth, done: false, broken: null, sources: [] };
      this.externals.set(url, entry);
      const e = entry;
      this.queueAux(url, () => this.checkExternal(url, e));
    }
    if (entry.done) {
      if (entry.broken) await this.issue('broken_external_link', source, `link to ${url}: ${entry.broken}`);
    } else if (entry.sources.length < MAX_PENDING_SOURCES) entry.sources.push(source);
  }

  /** HEAD (GET when HEAD is refused with 405/501), redirects followed; one record per external URL. */
  private async checkExternal(url: string, entry: ExternalEntry): Promise<void> {
    const record = emptyRecord(url, entry.depth, 'external', false);
    const hops: RedirectHop[] = [];
    const seen = new Set<string>([url]);
    let current = url;
    for (;;) {
      let response: HttpResponse;
      try {
        response = await this.client.exchange(current, 'HEAD', '*/*');
        if (response.status === 405 || response.status === 501) {
          this.client.discard(response);
          response = await this.client.exchange(current, 'GET', '*/*');
        }
      } catch (error) {
        if (error instanceof FetchError && error.type !== 'aborted') {
          entry.broken = `${error.type}`;
          if (hops.length === 0) record.error_type = error.type;
          break;
        }
        throw error;
      }
      this.client.discard(response);
      const location = headerValue(response.headers, 'location');
      const next = location !== null && response.status >= 300 && response.status < 400 ? normaliseUrl(location, current) : null;
      if (hops.length === 0) {
        record.status_code = response.status;
        record.response_time_ms = response.ttfbMs;
        record.content_type = headerValue(response.headers, 'content-type');
        record.redirect_url = next;
      }
      hops.push({ url: current, status_code: response.status, location: next });
      if (response.protection) {
        // A challenge is not a broken link; it is counted, never reported.
        record.protection = hops.length === 1;
        this.protectionOccurrences++;
        break;
      }
      if (next === null) {
        if (response.status >= 400 && response.status !== 429) entry.broken = `status ${response.status}`;
        break;
      }
      if (seen.has(next) || hops.length > MAX_REDIRECTS) {
        entry.broken = seen.has(next) ? 'redirect loop' : 'too many redirects';
        break;
      }
      seen.add(next);
      current = next;
    }
    if (hops.length > 1) record.redirect_chain = hops;
    entry.done = true;
    await this.emitter.page(record);
    const sources = entry.sources;
    entry.sources = [];
    if (entry.broken) for (const source of sources) await this.issue('broken_external_link', source, `link to ${url}: ${entry.broken}`);
  }

  /** HEAD of an internal image, for its size; reported on the image URL. */
  private imageCheck(image: string, pageUrl: string): void {
    if (this.images.has(image) || this.images.size >= this.tuning.maxImageChecks) return;
    this.images.add(image);
    this.queueAux(image, async () => {
      const policy = await this.robotsFor(image);
      if (!policy.isAllowed(image)) return;
      let response: HttpResponse;
      try {
        response = await this.client.exchange(image, 'HEAD', 'image/*,*/*;q=0.5');
      } catch (error) {
        if (error instanceof FetchError && error.type !== 'aborted') return;
        throw error;
      }
      this.client.discard(response);
      const length = Number(headerValue(response.headers, 'content-length') ?? NaN);
      if (response.status >= 200 && response.status < 300 && length > THRESHOLDS.imageBytes) {
        await this.issue('image_too_large', null, `${Math.round(length / 1024)} KB, used on ${pageUrl}`, image);
      }
    });
  }
}

/** "Images must have alternative text: 2 elements, img.logo, #hero > img" (at most 3 selectors, then "(+n)"). */
function accessibilityDetails(f: AccessibilityFinding): string {
  const shown = f.targets.slice(0, 3).join(', ');
  const more = f.nodes > 3 ? ` (+${f.nodes - 3})` : '';
  return `${f.help}: ${f.nodes} element${f.nodes === 1 ? '' : 's'}${shown ? `, ${shown}${more}` : ''}`.slice(0, 1000);
}

/** Parsed JSON-LD blocks, up to a total size, so a page record stays small. */
function parseJsonLd(blocks: string[]): unknown[] {
  const out: unknown[] = [];
  let budget = 32 * 1024;
  for (const block of blocks) {
    if (block.length > budget) break;
    try {
      out.push(JSON.parse(block));
      budget -= block.length;
    } catch {
      // reported by jsonld_invalid
    }
  }
  return out;
}


export async function crawlSite(config: CrawlConfig, sink: CrawlSink, options: CrawlOptions = {}): Promise<CrawlOutcome> {
  return new Crawler(config, sink, options).run();
}
