/**
 * External links, checked as auxiliary jobs between page fetches (HEAD, GET when HEAD is
 * refused; one record per external URL, its redirects followed). Each distinct URL is checked
 * once, up to a cap. What pages load (images, scripts, styles…) is checked by resource-checks.ts.
 */
import { MAX_REDIRECTS } from '../crawl-config.js';
import { FetchError, headerValue, type HttpResponse } from '../fetch/http-client.js';
import { emptyRecord } from '../page/page-record.js';
import { MAX_PENDING_SOURCES } from './link-graph.js';
import type { PageRecord, RedirectHop } from '../crawl-types.js';
import { normaliseUrl } from '../url.js';
import type { CrawlContext } from '../run/crawl-context.js';

interface ExternalEntry {
  depth: number;
  done: boolean;
  broken: string | null;
  /** Pages linking here, reported once the check is done. */
  sources: number[];
}

/** One external URL's check as it goes: its entry, its record, the hops so far and the URLs seen. */
interface ExternalCheck {
  readonly entry: ExternalEntry;
  readonly record: PageRecord;
  readonly hops: RedirectHop[];
  readonly seen: Set<string>;
}

export interface ExternalChecksOptions {
  maxExternalChecks: number;
}

export class ExternalChecks {
  private readonly externals = new Map<string, ExternalEntry>();

  constructor(
    private readonly ctx: CrawlContext,
    private readonly options: ExternalChecksOptions,
  ) {}

  /** A link from page `source` to external `url`: checked once, reported on every source if broken. */
  async link(url: string, source: number, depth: number): Promise<void> {
    let entry = this.externals.get(url);
    if (!entry) {
      if (this.externals.size >= this.options.maxExternalChecks) return;
      entry = { depth, done: false, broken: null, sources: [] };
      this.externals.set(url, entry);
      const e = entry;
      this.ctx.scheduler.queueAux(url, () => this.check(url, e));
    }
    if (entry.done) {
      if (entry.broken) await this.ctx.output.issue('broken_external_link', source, `link to ${url}: ${entry.broken}`);
    } else if (entry.sources.length < MAX_PENDING_SOURCES) entry.sources.push(source);
  }

  /** HEAD (GET when HEAD is refused with 405/501), redirects followed; one record per external URL. */
  private async check(url: string, entry: ExternalEntry): Promise<void> {
    const check: ExternalCheck = { entry, record: emptyRecord(url, entry.depth, 'external', false), hops: [], seen: new Set([url]) };
    const { record, hops } = check;
    let current: string | null = url;
    while (current !== null) current = await this.hop(check, current);
    if (hops.length > 1) record.redirect_chain = hops;
    entry.done = true;
    await this.ctx.output.externalPage(record);
    const sources = entry.sources;
    entry.sources = [];
    if (entry.broken) for (const source of sources) await this.ctx.output.issue('broken_external_link', source, `link to ${url}: ${entry.broken}`);
  }

  /** One request of an external check; returns the next URL of its redirect chain, or null at the end. */
  private async hop(check: ExternalCheck, current: string): Promise<string | null> {
    const { entry, record, hops, seen } = check;
    let response: HttpResponse;
    try {
      response = await this.ctx.client.exchange(current, 'HEAD', '*/*');
      if (response.status === 405 || response.status === 501) {
        this.ctx.client.discard(response);
        response = await this.ctx.client.exchange(current, 'GET', '*/*');
      }
    } catch (error) {
      if (error instanceof FetchError) {
        entry.broken = `${error.type}`;
        if (hops.length === 0) record.error_type = error.type;
        return null;
      }
      throw error;
    }
    this.ctx.client.discard(response);
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
      this.ctx.control.externalProtection();
      return null;
    }
    if (next === null) {
      if (response.status >= 400 && response.status !== 429) entry.broken = `status ${response.status}`;
      return null;
    }
    if (seen.has(next) || hops.length > MAX_REDIRECTS) {
      entry.broken = seen.has(next) ? 'redirect loop' : 'too many redirects';
      return null;
    }
    seen.add(next);
    return next;
  }
}
