/**
 * Fetching an internal URL and following its redirects by hand: every hop is vetted again by the
 * address guard (new connection), checked against robots.txt and the patterns, claimed from the
 * budget and recorded, one page record per hop with the chain from that hop on. The response that
 * ends the chain (not a redirect) goes to the page stage.
 */
import { CHECK_DETAILS as D } from '@siteaudit/schema/rules';
import { MAX_REDIRECTS } from '../crawl-config.js';
import { CHAIN_FAILED, CHAIN_UNKNOWN, Flag, State } from '../run/url-registry.js';
import { FetchError, headerValue, type HttpResponse } from './http-client.js';
import { emptyRecord } from '../page/page-record.js';
import type { RobotsPolicy } from './robots-policy.js';
import type { RedirectHop } from '../crawl-types.js';
import { normaliseUrl } from '../url.js';
import type { CrawlContext, PageRef } from '../run/crawl-context.js';
import type { HostSlot } from '../run/fetch-scheduler.js';

/** One redirect response of a chain. */
interface ChainHop {
  id: number;
  status: number;
  location: string | null;
  ttfb: number;
  contentType: string | null;
}

/** A chain being followed from `firstId`: where it stands, and how it ended. */
interface Chain {
  /** The scheduler's hold on the host, handed to the stage that reads the final body. */
  slot: HostSlot | null;
  firstId: number;
  /** Click depth of the first URL; every hop keeps it. */
  depth: number;
  hops: ChainHop[];
  /** Ids taken from the queue or the budget by this chain, given back if the crawl stops. */
  claimed: number[];
  id: number;
  url: string;
  /** Status at the end of the chain, CHAIN_FAILED, or null while unknown. */
  final: number | null;
  loop: boolean;
  tooMany: boolean;
}

/**
 * The response that ended a chain, with where it sits in the crawl: the URL's id and depth, and
 * the host slot still held for it (null when the host is not rate-limited). The page stage works
 * on it.
 */
export interface FetchedPage extends PageRef {
  response: HttpResponse;
  slot: HostSlot | null;
}

/** Handles the response that ends a chain: a page, an error page, a file. */
export type FinalResponse = (page: FetchedPage) => Promise<void>;

export class UrlFetcher {
  constructor(
    private readonly ctx: CrawlContext,
    private readonly finalResponse: FinalResponse,
  ) {}

  /** Fetches internal URL `firstId` (claimed by the scheduler) and every redirect it leads to. */
  async fetch(firstId: number, slot: HostSlot | null = null): Promise<void> {
    const chain: Chain = {
      slot,
      firstId,
      depth: this.ctx.reg.depth[firstId],
      hops: [],
      claimed: [firstId],
      id: firstId,
      url: this.ctx.reg.url(firstId),
      final: null,
      loop: false,
      tooMany: false,
    };
    while (await this.step(chain));
    await this.recordChain(chain);
  }

  /** One request of the chain; true when it redirected to an internal URL to fetch next. */
  private async step(chain: Chain): Promise<boolean> {
    const { id, url } = chain;
    const policy = await this.ctx.robots.for(url);
    // robots.txt refused by the guard: when the page's own address is the refused one (a
    // redirect into a private network), that is what the page reports, not robots.txt.
    const refused = policy.error === 'address_refused' ? await this.ctx.client.addressRefusal(url) : null;
    if (refused) {
      chain.final = CHAIN_FAILED;
      await this.recordFailure(chain, refused);
      return false;
    }
    if (!policy.isAllowed(url)) {
      await this.recordBlocked(chain, policy);
      return false;
    }
    let response: HttpResponse;
    try {
      response = await this.ctx.client.exchange(url, 'GET');
    } catch (error) {
      if (!(error instanceof FetchError)) {
        this.ctx.scheduler.release(chain.claimed.filter((c) => this.ctx.reg.state[c] === State.Active));
        throw error;
      }
      chain.final = CHAIN_FAILED;
      await this.recordFailure(chain, error);
      return false;
    }
    const location = headerValue(response.headers, 'location');
    if (response.status >= 300 && response.status < 400 && location !== null) return this.redirect(chain, response, location);
    chain.final = response.status;
    await this.finalResponse({ id, url, depth: chain.depth, response, slot: chain.slot });
    return false;
  }

  /** A redirect answer: recorded as a hop; true when its target is an internal URL to fetch now. */
  private redirect(chain: Chain, response: HttpResponse, location: string): boolean {
    const reg = this.ctx.reg;
    const { id, url } = chain;
    const status = response.status;
    this.ctx.client.discard(response);
    const next = normaliseUrl(location, url);
    chain.hops.push({ id, status, location: next, ttfb: response.ttfbMs, contentType: headerValue(response.headers, 'content-type') });
    reg.status[id] = status;
    if (next === null) {
      chain.final = CHAIN_FAILED;
      return false;
    }
    if (next === url || chain.hops.some((h) => reg.url(h.id) === next)) {
      chain.loop = true;
      chain.final = CHAIN_FAILED;
      return false;
    }
    if (chain.hops.length > MAX_REDIRECTS) {
      chain.tooMany = true;
      chain.final = CHAIN_FAILED;
      return false;
    }
    // The start URL may move the whole site to another host: that host becomes internal.
    if (!this.ctx.scope.isInternal(next) && chain.firstId === this.ctx.startId) this.ctx.scope.addSite(next);
    if (!this.ctx.scope.isInternal(next) || !this.ctx.scope.inScope(next)) return false;
    const known = reg.get(next);
    if (known !== undefined && (reg.state[known] === State.Done || reg.state[known] === State.Active)) {
      if (reg.state[known] === State.Done) chain.final = reg.has(known, Flag.Failed) ? CHAIN_FAILED : reg.finalStatus[known] || reg.status[known];
      reg.redirect[id] = known;
      return false;
    }
    if (!this.ctx.scheduler.claim()) return false;
    const nextId = known ?? reg.add(next, chain.depth, 'redirect').id;
    // A redirect keeps the click depth of its chain, or its lack of one.
    reg.set(nextId, reg.has(chain.firstId, Flag.NoClickDepth) ? Flag.Internal | Flag.NoClickDepth : Flag.Internal);
    if (reg.depth[nextId] > chain.depth) reg.depth[nextId] = chain.depth;
    reg.state[nextId] = State.Active;
    reg.redirect[id] = nextId;
    chain.claimed.push(nextId);
    chain.id = nextId;
    chain.url = next;
    return true;
  }

  /** A URL robots.txt disallows (the chain's current one): recorded, never fetched. */
  private async recordBlocked(page: PageRef, policy: RobotsPolicy): Promise<void> {
    const { id } = page;
    this.ctx.reg.set(id, Flag.Blocked);
    const record = emptyRecord(page.url, page.depth, this.ctx.reg.discoveredVia(id), true);
    record.error_type = 'blocked_by_robots';
    await this.ctx.output.record(id, record);
    await this.ctx.output.issue('blocked_by_robots', id, policy.state === 'unreachable' ? 'robots.txt is unreachable: everything is disallowed' : `disallowed for ${this.ctx.token}`);
  }

  /** A URL that got no answer: recorded with its error type, and a fetch failure unless the guard refused it. */
  private async recordFailure(chain: Chain, error: FetchError): Promise<void> {
    const { id, url } = chain;
    const reg = this.ctx.reg;
    reg.set(id, Flag.Failed);
    reg.finalStatus[id] = CHAIN_FAILED;
    const record = emptyRecord(url, chain.depth, reg.discoveredVia(id), true);
    record.error_type = error.type;
    await this.ctx.output.record(id, record);
    if (error.type !== 'address_refused') await this.ctx.output.issue('fetch_failed', id, `${error.type}: ${error.message}`);
    // The start URL (or where it redirects) refused by the guard: nothing can be crawled.
    else if (chain.firstId === this.ctx.startId) this.ctx.control.stop('address_refused');
  }

  /** Where one hop leads, when it leaves HTTPS or the site. */
  private async hopTarget(id: number, status: number, location: string): Promise<void> {
    const from = new URL(this.ctx.reg.url(id));
    const to = new URL(location);
    if (from.protocol === 'https:' && to.protocol === 'http:') await this.ctx.output.issue('redirect_to_http', id, D.redirectHop(status, location));
    // The start URL moving the whole site to another host made that host internal (scope.addSite).
    if (to.host !== from.host && !this.ctx.scope.isInternal(location)) await this.ctx.output.issue('redirect_external', id, D.redirectHop(status, location));
  }

  /** Records each redirect hop of the chain, then the chain's own issue (loop, too long). */
  private async recordChain(chain: Chain): Promise<void> {
    const { hops: steps, final, loop, tooMany } = chain;
    if (steps.length === 0) return;
    const reg = this.ctx.reg;
    const hops: RedirectHop[] = steps.map((h) => ({ url: reg.url(h.id), status_code: h.status, location: h.location }));
    for (let i = 0; i < steps.length; i++) {
      const h = steps[i];
      reg.finalStatus[h.id] = final ?? CHAIN_UNKNOWN;
      if (final === CHAIN_FAILED) reg.set(h.id, Flag.Failed);
      if (loop) reg.set(h.id, Flag.Loop);
      const record = emptyRecord(reg.url(h.id), reg.depth[h.id], reg.discoveredVia(h.id), true);
      record.status_code = h.status;
      record.redirect_url = h.location;
      record.redirect_chain = hops.slice(i);
      record.response_time_ms = h.ttfb;
      record.content_type = h.contentType;
      record.error_type = loop ? 'redirect_loop' : tooMany ? 'too_many_redirects' : h.location === null ? 'invalid_redirect' : null;
      await this.ctx.output.record(h.id, record);
      if (h.status === 302 || h.status === 307) await this.ctx.output.issue('temporary_redirect', h.id, `${h.status} to ${h.location}`);
      if (h.location !== null) await this.hopTarget(h.id, h.status, h.location);
    }
    const path = hops.map((h) => h.url).concat(hops[hops.length - 1].location ?? []).join(' → ');
    if (loop) await this.ctx.output.issue('redirect_loop', chain.firstId, path);
    else if (tooMany) await this.ctx.output.issue('redirect_chain', chain.firstId, `more than ${MAX_REDIRECTS} redirects: ${path}`);
    else if (steps.length > 1) await this.ctx.output.issue('redirect_chain', chain.firstId, `${steps.length} hops: ${path}`);
  }
}
