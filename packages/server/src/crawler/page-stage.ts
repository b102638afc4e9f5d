/**
 * Page analysis: the response that ends a redirect chain. Error answers and non-HTML files are
 * recorded as they are; an HTML page is decoded and parsed as it streams in, checked for a
 * firewall's challenge, handed to the browser when the campaign asks for it, audited on its own
 * (page-audit.ts), digested for the cross-page checks, and its links go to the link graph.
 */
import { ACCESSIBILITY_PREFIX, IMPACT_SEVERITY } from './checks.js';
import { browserPass, type BrowserOutcome, type BrowserPassOptions } from './browser-pass.js';
import type { CrawlControl } from './control.js';
import { StreamingHtmlDecoder, charsetFromContentType, isHtmlContentType } from './decode.js';
import type { ExternalChecks } from './external-checks.js';
import type { ResourceChecks } from './resources.js';
import { CHAIN_FAILED, Flag, isId, type UrlRegistry } from './frontier.js';
import { HtmlAnalyser, type HtmlFacts } from './html.js';
import { FetchError, headerValue, type HttpClient, type HttpResponse } from './http.js';
import type { LinkGraph } from './link-graph.js';
import type { CrawlOutput } from './output.js';
import { analysePage } from './page-audit.js';
import { keepDigest } from './page-digest.js';
import { accessibilityDetails, emptyRecord, fillFromAnalysis } from './page-record.js';
import { detectProtection } from './protection.js';
import type { CrawlScope } from './scope.js';
import { MAX_REDIRECTS } from './config.js';
import type { PageRecord } from './types.js';

export interface PageStageOptions {
  /** HTML read cap, in bytes after decompression. */
  maxHtmlBytes: number;
  checkExternalLinks: boolean;
  /** Our robots.txt product token. */
  token: string;
  /** The browser pass, or null when no page needs the browser. */
  browser: BrowserPassOptions | null;
}

/** An HTML body as read: the facts of the fetched HTML, the HTML itself when the browser needs it. */
interface ReadHtml {
  html: HtmlFacts;
  kept: string[] | null;
  sizeBytes: number;
}

export class PageStage {
  constructor(
    private readonly reg: UrlRegistry,
    private readonly client: HttpClient,
    private readonly scope: CrawlScope,
    private readonly links: LinkGraph,
    private readonly externals: ExternalChecks,
    private readonly resources: ResourceChecks,
    private readonly output: CrawlOutput,
    private readonly control: CrawlControl,
    private readonly startId: number,
    private readonly options: PageStageOptions,
  ) {}

  /** Records the response that ended a chain (not a redirect) and analyses it when it is HTML. */
  async handle(id: number, url: string, depth: number, response: HttpResponse): Promise<void> {
    const { status, headers } = response;
    this.reg.status[id] = status;
    this.reg.finalStatus[id] = status;
    const contentType = headerValue(headers, 'content-type');
    const record = emptyRecord(url, depth, this.reg.discoveredVia(id), true);
    record.status_code = status;
    record.content_type = contentType;
    record.response_time_ms = response.ttfbMs;
    record.content_encoding = headerValue(headers, 'content-encoding');
    record.x_robots_tag = headerValue(headers, 'x-robots-tag');

    if (response.protection) return this.protectionPage(id, record);
    if (status < 200 || status >= 300 || !isHtmlContentType(contentType)) return this.plainAnswer(id, record, response);
    const read = await this.readHtml(id, record, response);
    if (!read) return;
    const fetched = read.html;
    const body = `${fetched.textSample} ${fetched.scriptSrcs.join(' ')}`;
    if (detectProtection({ status, headers, title: fetched.titles[0] ?? null, body })) return this.protectionPage(id, record);
    this.control.ordinaryPage();
    const browser = read.kept ? await browserPass(this.options.browser!, { url, status, headers, html: read.kept.join('') }, fetched) : null;
    await this.analyse(id, depth, response, record, browser?.html ?? fetched, read.sizeBytes, browser);
  }

  /** An error answer or a file that is not HTML: recorded, with its status reported. */
  private async plainAnswer(id: number, record: PageRecord, response: HttpResponse): Promise<void> {
    const { status } = response;
    const length = Number(headerValue(response.headers, 'content-length'));
    record.size_bytes = Number.isFinite(length) && headerValue(response.headers, 'content-length') !== null ? length : null;
    this.client.discard(response);
    // A plain 403/429 without a challenge body is the page's own answer.
    this.control.ordinaryPage();
    await this.output.record(id, record);
    if (status >= 500) await this.output.issue('http_5xx', id, `status ${status}`);
    else if (status >= 400) await this.output.issue('http_4xx', id, `status ${status}`);
  }

  /** Streams the body through the decoder and the parser; null when reading failed (recorded). */
  private async readHtml(id: number, record: PageRecord, response: HttpResponse): Promise<ReadHtml | null> {
    const analyser = new HtmlAnalyser(['robots', this.options.token]);
    // The browser gets the HTML we fetched (never a second request), so keep it when it will be needed.
    const kept: string[] | null = this.options.browser ? [] : null;
    const decoder = new StreamingHtmlDecoder(charsetFromContentType(record.content_type), (text) => {
      analyser.write(text);
      kept?.push(text);
    });
    let read: { bytes: number; truncated: boolean };
    try {
      read = await this.client.stream(response, this.options.maxHtmlBytes, (chunk) => decoder.write(chunk));
    } catch (error) {
      if (!(error instanceof FetchError)) throw error;
      this.reg.set(id, Flag.Failed);
      this.reg.finalStatus[id] = CHAIN_FAILED;
      record.error_type = error.type;
      await this.output.record(id, record);
      await this.output.issue('fetch_failed', id, `${error.type} while reading the body: ${error.message}`);
      return null;
    }
    decoder.end();
    const html = analyser.end();
    const declaredLength = Number(headerValue(response.headers, 'content-length') ?? NaN);
    // Past the cap, the declared (compressed) length is the best size we have.
    const sizeBytes = read.truncated && Number.isFinite(declaredLength) ? Math.max(read.bytes, declaredLength) : read.bytes;
    record.size_bytes = sizeBytes;
    record.body_truncated = read.truncated;
    return { html, kept, sizeBytes };
  }

  /** Audits an HTML page, keeps its digest, records it with its issues and follows its links. */
  private async analyse(
    id: number,
    depth: number,
    response: HttpResponse,
    record: PageRecord,
    html: HtmlFacts,
    sizeBytes: number,
    browser: BrowserOutcome | null,
  ): Promise<void> {
    const url = record.url;
    const { findings, summary } = analysePage({
      url,
      status: response.status,
      headers: response.headers,
      ttfbMs: response.ttfbMs,
      depth,
      discoveredVia: this.reg.discoveredVia(id),
      html,
      sizeBytes,
      truncated: record.body_truncated,
      isInternal: (u) => this.scope.isInternal(u),
      robotsToken: this.options.token,
    });
    const digest = keepDigest(this.reg, id, summary, html.mainWords);
    const linkTargets = this.links.register(id, url, depth, summary);
    fillFromAnalysis(record, summary, html, digest);
    const resources = this.resources.register(id, url, summary.resources);
    if (resources.length) record.resource_ids = resources.map((r) => r.record.id);
    await this.output.record(id, record);
    for (const f of findings) await this.output.issue(f.name, id, f.details);
    if (browser?.failure) await this.output.issue('render_failed', id, browser.failure);
    for (const f of browser?.accessibility ?? []) {
      await this.output.unscoredIssue({
        name: `${ACCESSIBILITY_PREFIX}${f.rule}`,
        severity: IMPACT_SEVERITY[f.impact] ?? 'info',
        category: 'accessibility',
        url,
        details: accessibilityDetails(f),
      });
    }
    await this.links.countInlinks(id, linkTargets);
    if (this.options.checkExternalLinks) for (const ext of summary.externalLinks) await this.externals.link(ext, id, depth + 1);
    await this.resources.report(id, resources);
  }

  /** A firewall or challenge page instead of the page: recorded as such, never audited. */
  private async protectionPage(id: number, record: PageRecord): Promise<void> {
    this.reg.set(id, Flag.Protection);
    record.protection = true;
    record.error_type = 'protection';
    await this.output.record(id, record);
    this.control.protectionPage(id === this.startId || this.chainStartsAtStart(id));
  }

  /** True when `id` was reached by redirects from the start URL. */
  private chainStartsAtStart(id: number): boolean {
    let cur = this.startId;
    for (let i = 0; i <= MAX_REDIRECTS && isId(cur); i++) {
      if (cur === id) return true;
      cur = this.reg.redirect[cur];
    }
    return false;
  }
}
