/**
 * The resources pages load (stylesheets, scripts, images, icons, media, frames…), checked as
 * auxiliary jobs between page fetches, internal and third-party alike: each distinct URL once
 * per crawl (HEAD; GET when HEAD is refused or answers an error other than 404/410, body
 * discarded), its redirects followed up to the crawl's limit, robots.txt obeyed on every hop.
 * The outcome is recorded once per resource, and a broken, redirecting or robots-blocked
 * resource is reported on each page that uses it, as soon as both are known
 * (docs/decisions/resources.md). Past the budget, resources are neither requested nor recorded,
 * and the crawl says so once.
 */
import { THRESHOLDS, type CheckName } from '../checks.js';
import { FetchError, headerValue, type HttpResponse } from '../fetch/http-client.js';
import type { HtmlResource, ResourceType } from '../page/html-resources.js';
import { MAX_PENDING_SOURCES } from './link-graph.js';
import type { ResourceRecord } from '../crawl-types.js';
import { normaliseUrl } from '../url.js';
import type { CrawlContext } from '../run/crawl-context.js';

export interface ResourceChecksOptions {
  /** Distinct resources requested at most in one crawl. */
  maxResourceChecks: number;
  /** Redirects followed from one resource (the crawl's limit). */
  maxRedirects: number;
  /** Our robots.txt product token, named in the blocked finding. */
  token: string;
}

interface Problem {
  name: CheckName;
  details: string;
}

/** One distinct resource of the crawl. */
export interface ResourceEntry {
  record: ResourceRecord;
  done: boolean;
  /** What to report on each page using it; null when nothing. */
  problem: Problem | null;
  /** Pages using it while it is being checked, reported once the check is done. */
  sources: number[];
  /** The first page found using it, named in image_too_large. */
  firstPage: string;
}

const ACCEPT: Partial<Record<ResourceType, string>> = {
  stylesheet: 'text/css,*/*;q=0.1',
  image: 'image/avif,image/webp,image/apng,image/*,*/*;q=0.8',
};

/** The broken-resource check of a type: its own for what breaks a page most visibly. */
export function brokenCheck(type: ResourceType): CheckName {
  return type === 'stylesheet' ? 'broken_stylesheet' : type === 'script' ? 'broken_script' : type === 'image' ? 'broken_image' : 'broken_resource';
}

export class ResourceChecks {
  private readonly entries = new Map<string, ResourceEntry>();
  private overBudget: { pageId: number; skipped: number } | null = null;
  private overBudgetReported = false;

  constructor(
    private readonly ctx: CrawlContext,
    private readonly options: ResourceChecksOptions,
  ) {}

  /**
   * Registers the resources page `source` uses (resolved, once per URL) and queues the new ones;
   * returns their ids, stored with the page. Call `report` once the page is recorded.
   */
  register(source: number, pageUrl: string, resources: readonly HtmlResource[]): ResourceEntry[] {
    const used: ResourceEntry[] = [];
    for (const { url, type } of resources) {
      let entry = this.entries.get(url);
      if (!entry) {
        if (this.entries.size >= this.options.maxResourceChecks) {
          this.overBudget ??= { pageId: source, skipped: 0 };
          this.overBudget.skipped++;
          continue;
        }
        entry = this.newEntry(url, type, pageUrl);
      }
      used.push(entry);
    }
    return used;
  }

  /** Reports on page `source` what is known of the resources it uses; the rest once checked. */
  async report(source: number, used: readonly ResourceEntry[]): Promise<void> {
    for (const entry of used) {
      if (!entry.done) {
        if (entry.sources.length < MAX_PENDING_SOURCES) entry.sources.push(source);
      } else if (entry.problem) await this.ctx.output.issue(entry.problem.name, source, entry.problem.details);
    }
    if (this.overBudget && !this.overBudgetReported) {
      this.overBudgetReported = true;
      const { pageId } = this.overBudget;
      await this.ctx.output.issue(
        'resource_budget_reached',
        pageId,
        `${this.options.maxResourceChecks} distinct resources checked; those first met from this page on were not requested`,
      );
    }
  }

  private newEntry(url: string, type: ResourceType, pageUrl: string): ResourceEntry {
    const record: ResourceRecord = {
      id: this.entries.size,
      url,
      type,
      is_internal: this.ctx.scope.isInternal(url),
      status_code: null,
      final_status_code: null,
      redirect_url: null,
      error_type: null,
      content_type: null,
      size_bytes: null,
    };
    const entry: ResourceEntry = { record, done: false, problem: null, sources: [], firstPage: pageUrl };
    this.entries.set(url, entry);
    this.ctx.scheduler.queueAux(url, () => this.check(entry));
    return entry;
  }

  private async check(entry: ResourceEntry): Promise<void> {
    const { record } = entry;
    const final = await this.follow(record);
    entry.problem = this.problem(record, final);
    entry.done = true;
    await this.ctx.output.resource(record);
    if (record.type === 'image' && this.tooLarge(record)) {
      const kb = Math.round(record.size_bytes! / 1024);
      await this.ctx.output.issue('image_too_large', null, `${kb} KB, used on ${entry.firstPage}`, record.url);
    }
    const sources = entry.sources;
    entry.sources = [];
    if (entry.problem) for (const source of sources) await this.ctx.output.issue(entry.problem.name, source, entry.problem.details);
  }

  /** Requests the resource and its redirects; fills the record; returns the last URL reached. */
  private async follow(record: ResourceRecord): Promise<string> {
    const seen = new Set<string>([record.url]);
    let current = record.url;
    for (let hops = 0; ; hops++) {
      const policy = await this.ctx.robots.for(current);
      if (policy.state === 'unreachable' && policy.status === null) {
        // Not even robots.txt answered: the host cannot be reached, which breaks the resource.
        record.error_type = policy.error ?? 'connection';
        return current;
      }
      if (!policy.isAllowed(current)) {
        record.error_type = 'blocked_by_robots';
        return current;
      }
      let response: HttpResponse;
      try {
        response = await this.request(current, record.type);
      } catch (error) {
        if (!(error instanceof FetchError)) throw error;
        record.error_type = error.type;
        return current;
      }
      this.ctx.client.discard(response);
      const location = headerValue(response.headers, 'location');
      const next = location !== null && response.status >= 300 && response.status < 400 ? normaliseUrl(location, current) : null;
      if (hops === 0) {
        record.status_code = response.status;
        record.redirect_url = next;
      }
      record.final_status_code = response.status;
      record.content_type = headerValue(response.headers, 'content-type');
      const length = Number(headerValue(response.headers, 'content-length') ?? NaN);
      record.size_bytes = Number.isSafeInteger(length) && length >= 0 ? length : null;
      if (response.protection) {
        record.error_type = 'protection';
        return current;
      }
      if (next === null) return current;
      if (seen.has(next) || hops + 1 > this.options.maxRedirects) {
        record.error_type = seen.has(next) ? 'redirect_loop' : 'too_many_redirects';
        return next;
      }
      seen.add(next);
      current = next;
    }
  }

  /**
   * HEAD, then GET when HEAD is refused (405, 501) or answers a client error other than
   * 404/410/429: some servers answer HEAD wrongly, and a page is not reported broken on their word.
   */
  private async request(url: string, type: ResourceType): Promise<HttpResponse> {
    const accept = ACCEPT[type] ?? '*/*';
    const head = await this.ctx.client.exchange(url, 'HEAD', accept);
    const s = head.status;
    const doubtful = s === 405 || s === 501 || (s >= 400 && s < 500 && s !== 404 && s !== 410 && s !== 429);
    if (!doubtful) return head;
    this.ctx.client.discard(head);
    return this.ctx.client.exchange(url, 'GET', accept);
  }

  private problem(record: ResourceRecord, final: string): Problem | null {
    const what = `${record.type} ${record.url}`;
    const error = record.error_type;
    if (error === 'blocked_by_robots') {
      const where = final === record.url ? '' : ` (redirects to ${final})`;
      return { name: 'resource_blocked_by_robots', details: `${what}${where} is disallowed by robots.txt for ${this.options.token}` };
    }
    if (error === 'protection') return null;
    const status = record.final_status_code;
    const redirected = record.redirect_url !== null;
    if (error !== null) {
      const why = error === 'redirect_loop' ? 'redirect loop' : error === 'too_many_redirects' ? 'too many redirects' : error;
      return { name: brokenCheck(record.type), details: `${what}: ${redirected && !why.includes('redirect') ? `redirects to ${final}, then ${why}` : why}` };
    }
    if (status !== null && status >= 400 && status !== 429) {
      return { name: brokenCheck(record.type), details: `${what}: ${redirected ? `redirects to ${final}, which answers ${status}` : `status ${status}`}` };
    }
    if (redirected && status !== null && status < 300) {
      return { name: 'resource_redirect', details: `${what} redirects (status ${record.status_code}) to ${final}` };
    }
    return null;
  }

  private tooLarge(record: ResourceRecord): boolean {
    const s = record.final_status_code;
    return s !== null && s >= 200 && s < 300 && record.size_bytes !== null && record.size_bytes > THRESHOLDS.imageBytes;
  }
}
