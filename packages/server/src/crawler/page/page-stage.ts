/**
 * The response that ends a redirect chain. Error answers and non-HTML files are recorded as they
 * are; an HTML page's body is read (up to the HTML cap) and analysed, here or in a page-analysis
 * thread (page-analysis.ts: decoded, parsed, audited on its own, digested), checked for a
 * firewall's challenge, handed to the browser when the campaign asks for it, then recorded here:
 * its digest kept in the registry and its links given to the link graph.
 */
import { ACCESSIBILITY_PREFIX, IMPACT_SEVERITY } from '../checks.js';
import { browserPass, type BrowserOutcome, type BrowserPassOptions } from './browser-pass.js';
import { isHtmlContentType } from '../fetch/decode.js';
import type { ExternalChecks } from '../site/external-checks.js';
import type { ResourceChecks } from '../site/resource-checks.js';
import { CHAIN_FAILED, Flag, isId } from '../run/url-registry.js';
import type { HtmlFacts } from './html-analyser.js';
import { FetchError, headerValue } from '../fetch/http-client.js';
import type { FetchedPage } from '../fetch/url-fetcher.js';
import type { LinkGraph } from '../site/link-graph.js';
import type { Finding, PageSummary } from './page-facts.js';
import { analyseFacts, type PageAnalyser } from './page-analysis.js';
import { keepDigest, type PageDigest } from './page-digest.js';
import { accessibilityDetails, emptyRecord, fillFromAnalysis } from './page-record.js';
import { detectProtection } from '../fetch/protection.js';
import { MAX_REDIRECTS } from '../crawl-config.js';
import type { PageRecord } from '../crawl-types.js';
import type { CrawlContext } from '../run/crawl-context.js';

/** The stages a page hands what it found to: its links, external links and the resources it loads. */
export interface PageHandoff {
  links: LinkGraph;
  externals: ExternalChecks;
  resources: ResourceChecks;
}

export interface PageStageOptions {
  /** HTML read cap, in bytes after decompression. */
  maxHtmlBytes: number;
  checkExternalLinks: boolean;
  /** Our robots.txt product token. */
  token: string;
  /** The browser pass, or null when no page needs the browser. */
  browser: BrowserPassOptions | null;
  /** Where HTML is analysed: this thread, or page-analysis threads. */
  analyser: PageAnalyser;
}

/**
 * A page in the stage: the response that ended its chain, with its id, URL, depth and host slot,
 * and the record the stage fills. Made once per page and handed to each step whole.
 */
interface PageAtHand {
  readonly page: FetchedPage;
  readonly record: PageRecord;
}

/** What the analysis of a page found, ready to record. */
interface Analysed {
  html: HtmlFacts;
  summary: PageSummary;
  findings: Finding[];
  digest: PageDigest;
}

export class PageStage {
  constructor(
    private readonly ctx: CrawlContext,
    private readonly handoff: PageHandoff,
    private readonly options: PageStageOptions,
  ) {}

  /** Records the response that ended a chain (not a redirect) and analyses it when it is HTML. */
  async handle(final: FetchedPage): Promise<void> {
    const { id, url, depth, response, slot } = final;
    const { status, headers } = response;
    this.ctx.reg.status[id] = status;
    this.ctx.reg.finalStatus[id] = status;
    const contentType = headerValue(headers, 'content-type');
    const record = emptyRecord(url, depth, this.ctx.reg.discoveredVia(id), true);
    record.status_code = status;
    record.content_type = contentType;
    record.response_time_ms = response.ttfbMs;
    record.content_encoding = headerValue(headers, 'content-encoding');
    record.x_robots_tag = headerValue(headers, 'x-robots-tag');

    const at: PageAtHand = { page: final, record };
    if (response.protection) return this.protectionPage(at);
    if (status < 200 || status >= 300 || !isHtmlContentType(contentType)) return this.plainAnswer(at);
    const body = await this.readBody(at);
    if (!body) return;
    const browserOptions = this.options.browser;
    // Done with the host, unless the browser will load the page from it again.
    if (!browserOptions) slot?.release();
    const input = {
      url,
      status,
      headers,
      ttfbMs: response.ttfbMs,
      depth: this.ctx.reg.has(id, Flag.NoClickDepth) ? null : depth,
      discoveredVia: this.ctx.reg.discoveredVia(id),
      sizeBytes: record.size_bytes!,
      truncated: record.body_truncated,
      sites: this.ctx.scope.siteKeys,
      robotsToken: this.options.token,
    };
    const analysis = await this.options.analyser.analyse({ ...input, contentType, body, keepHtml: browserOptions !== null });
    const fetched = analysis.html;
    const sample = `${fetched.textSample} ${fetched.scriptSrcs.join(' ')}`;
    if (detectProtection({ status, headers, title: fetched.titles[0] ?? null, body: sample })) return this.protectionPage(at);
    this.ctx.control.ordinaryPage();
    if (!browserOptions) return this.record(at, analysis, null);
    const browser = await browserPass(browserOptions, { url, status, headers, html: analysis.decoded! }, fetched);
    // The rendered DOM's facts (JavaScript rendering) are analysed again, here.
    if (browser.html === fetched) return this.record(at, analysis, browser);
    return this.record(at, { ...analyseFacts(input, browser.html), html: browser.html }, browser);
  }

  /** An error answer or a file that is not HTML: recorded, with its status reported. */
  private async plainAnswer(at: PageAtHand): Promise<void> {
    const { record } = at;
    const { id, response } = at.page;
    const { status } = response;
    const length = Number(headerValue(response.headers, 'content-length'));
    record.size_bytes = Number.isFinite(length) && headerValue(response.headers, 'content-length') !== null ? length : null;
    this.ctx.client.discard(response);
    // A plain 403/429 without a challenge body is the page's own answer.
    this.ctx.control.ordinaryPage();
    await this.ctx.output.record(id, record);
    if (status >= 500) await this.ctx.output.issue('http_5xx', id, `status ${status}`);
    else if (status >= 400) await this.ctx.output.issue('http_4xx', id, `status ${status}`);
  }

  /**
   * Reads the (decompressed) body up to the HTML cap into one buffer of its own, which can move
   * to a page-analysis thread without a copy; null when reading failed (recorded).
   */
  private async readBody(at: PageAtHand): Promise<Uint8Array | null> {
    const { record } = at;
    const { id, response } = at.page;
    const chunks: Buffer[] = [];
    let read: { bytes: number; truncated: boolean };
    try {
      read = await this.ctx.client.stream(response, this.options.maxHtmlBytes, (chunk) => void chunks.push(chunk));
    } catch (error) {
      if (!(error instanceof FetchError)) throw error;
      this.ctx.reg.set(id, Flag.Failed);
      this.ctx.reg.finalStatus[id] = CHAIN_FAILED;
      record.error_type = error.type;
      await this.ctx.output.record(id, record);
      await this.ctx.output.issue('fetch_failed', id, `${error.type} while reading the body: ${error.message}`);
      return null;
    }
    const body = new Uint8Array(read.bytes);
    let offset = 0;
    for (const chunk of chunks) {
      body.set(chunk, offset);
      offset += chunk.length;
    }
    const declaredLength = Number(headerValue(response.headers, 'content-length') ?? NaN);
    // Past the cap, the declared (compressed) length is the best size we have.
    record.size_bytes = read.truncated && Number.isFinite(declaredLength) ? Math.max(read.bytes, declaredLength) : read.bytes;
    record.body_truncated = read.truncated;
    return body;
  }

  /** Keeps an analysed page's digest, records it with its issues and follows its links. */
  private async record(at: PageAtHand, analysed: Analysed, browser: BrowserOutcome | null): Promise<void> {
    const { page, record } = at;
    const { id, url } = page;
    const { findings, summary, html } = analysed;
    const digest = keepDigest(this.ctx.reg, id, analysed.digest);
    this.ctx.reg.setLanguage(id, summary.language);
    const links = this.handoff.links.register(page, summary);
    fillFromAnalysis(record, summary, html, digest);
    const resources = this.handoff.resources.register(id, url, summary.resources);
    if (resources.length) record.resource_ids = resources.map((r) => r.record.id);
    await this.ctx.output.record(id, record);
    for (const f of findings) await this.ctx.output.issue(f.name, id, f.details);
    if (browser?.failure) await this.ctx.output.issue('render_failed', id, browser.failure);
    for (const f of browser?.accessibility ?? []) {
      await this.ctx.output.unscoredIssue({
        name: `${ACCESSIBILITY_PREFIX}${f.rule}`,
        severity: IMPACT_SEVERITY[f.impact] ?? 'info',
        category: 'accessibility',
        url,
        details: accessibilityDetails(f),
      });
    }
    await this.handoff.links.countInlinks(id, links);
    if (this.options.checkExternalLinks) for (const ext of summary.externalLinks) await this.handoff.externals.link(ext, id, page.depth + 1);
    await this.handoff.resources.report(id, resources);
  }

  /** A firewall or challenge page instead of the page: recorded as such, never audited. */
  private async protectionPage(at: PageAtHand): Promise<void> {
    const { record } = at;
    const { id } = at.page;
    this.ctx.reg.set(id, Flag.Protection);
    record.protection = true;
    record.error_type = 'protection';
    await this.ctx.output.record(id, record);
    this.ctx.control.protectionPage(id === this.ctx.startId || this.chainStartsAtStart(id));
  }

  /** True when `id` was reached by redirects from the start URL. */
  private chainStartsAtStart(id: number): boolean {
    let cur = this.ctx.startId;
    for (let i = 0; i <= MAX_REDIRECTS && isId(cur); i++) {
      if (cur === id) return true;
      cur = this.ctx.reg.redirect[cur];
    }
    return false;
  }
}
