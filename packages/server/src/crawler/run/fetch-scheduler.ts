/**
 * Scheduling and the frontier: which URL is fetched next, and how many run at once. Internal URLs
 * go breadth first, a level per click depth: the URLs at depth d start once no page above them is
 * still in flight (none could find one of them at a lower depth: depths stay exact, and the level
 * is whole), in the order of the pages that named them (`UrlRegistry.order`: the naming page's
 * rank, then the link's place on it), never in the order their pages happened to answer. URLs
 * found at a level's own depth while it runs (a meta-refresh stub's target) make a next wave of
 * the level, ordered the same way once the wave before is over.
 * The budget (`maxUrls`) counts the internal URLs claimed: a level (or wave) opening takes its
 * slots for its first URLs in that order, and leaves the rest out (the crawl is truncated), so
 * two crawls of the same site under the same budget crawl the same URLs. Only a redirect
 * followed (`claim`) takes a slot as it comes: when those outnumber the slots left, which of them
 * is followed depends on timing.
 * Auxiliary jobs (image and external-link checks) fill the free slots. Politeness is per host:
 * at most `perHostConcurrency` requests in flight on one host, one while it has a Crawl-delay. A
 * job frees its host's slot once it no longer talks to the host (a page's body read: its analysis
 * need not hold back the next request) and its place in `concurrency` when it ends.
 */
import { DepthFrontier, Flag, NO_DEPTH, State, type UrlRegistry } from './url-registry.js';
import { isAbortError } from '../../abort.js';
import type { DiscoveredVia } from '../crawl-types.js';

export interface SchedulerOptions {
  /** Requests in flight at once, all hosts together. */
  concurrency: number;
  perHostConcurrency: number;
  maxDepth: number;
  maxUrls: number;
  /** The Crawl-delay in force on a host (`host[:port]`), 0 for none. */
  hostDelay: (host: string) => number;
  inScope: (url: string) => boolean;
  /** The crawl's signal: once aborted, nothing new starts. */
  signal: AbortSignal;
}

/** A job's hold on its host's politeness slot: released when the job ends, or earlier. */
export interface HostSlot {
  release(): void;
}

export class FetchScheduler {
  private readonly frontier = new DepthFrontier();
  private readonly aux = new Map<string, (() => Promise<void>)[]>();
  private readonly activeByHost = new Map<string, number>();
  private readonly activeDepth: number[] = [];
  private active = 0;
  private stopping = false;
  private fatal: unknown = null;
  private wake: (() => void) | null = null;
  /** Internal URLs that may still be claimed (the max_urls budget). */
  private slots: number;
  /** The seen set may outgrow the budget (links to pages we will never fetch), within reason. */
  readonly registryCap: number;
  /** The budget or the registry cap left in-scope URLs out. */
  truncated = false;
  /** The link crawl from the start is over (the sitemap-only URLs are queued): what is found now has no click depth. */
  private clicksOver = false;
  /** The depth of the open level, and how many of its waiting entries its open wave admitted. */
  private openDepth = NO_DEPTH;
  private waveLeft = 0;
  /** The rank the next admitted URL takes (`UrlRegistry.order`). */
  private nextRank = 1;

  constructor(
    private readonly reg: UrlRegistry,
    private readonly options: SchedulerOptions,
  ) {
    this.slots = Math.max(0, options.maxUrls);
    this.registryCap = Math.max(10_000, options.maxUrls * 10);
    options.signal.addEventListener('abort', () => this.wake?.(), { once: true });
  }

  /**
   * Registers an internal URL found at `depth` and queues it when in scope and within the depth
   * limit; returns its id, or null when it stays out of the crawl. `from` is the page that names
   * it and the place of the link among the URLs that page names: the URL's place in its level.
   */
  discover(url: string, depth: number, via: DiscoveredVia, from?: { page: number; index: number }): number | null {
    const reg = this.reg;
    const key = from === undefined ? 0 : orderKey(reg.order[from.page], from.index);
    const existing = reg.get(url);
    if (existing !== undefined) {
      const state = reg.state[existing];
      if (state === State.Queued && depth < reg.depth[existing]) {
        reg.depth[existing] = depth;
        reg.order[existing] = key;
        this.frontier.push(existing, depth);
      } else if (state === State.Queued && depth === reg.depth[existing]) {
        if (key < reg.order[existing]) reg.order[existing] = key;
      } else if (state === State.Known && depth <= this.options.maxDepth) {
        reg.depth[existing] = depth;
        reg.order[existing] = key;
        reg.setVia(existing, via);
        if (this.clicksOver) reg.set(existing, Flag.NoClickDepth);
        this.enqueue(existing, depth);
      }
      return existing;
    }
    if (depth > this.options.maxDepth || !this.options.inScope(url)) return null;
    if (reg.size >= this.registryCap) {
      this.truncated = true;
      return null;
    }
    const { id } = reg.add(url, depth, via);
    reg.order[id] = key;
    reg.set(id, this.clicksOver ? Flag.Internal | Flag.NoClickDepth : Flag.Internal);
    this.enqueue(id, depth);
    return id;
  }

  /** Queues a registered URL at `depth`. */
  enqueue(id: number, depth: number): void {
    this.reg.state[id] = State.Queued;
    this.frontier.push(id, depth);
  }

  /**
   * Queues the URLs only the sitemaps listed (state Known) at depth 1 of the queue; false when
   * there are none. The link crawl is over: no click path from the start reaches them, nor what
   * they lead to, so each is flagged NoClickDepth (recorded with no depth, an orphan).
   */
  queueSitemapOnly(): boolean {
    const reg = this.reg;
    this.clicksOver = true;
    const listed: number[] = [];
    for (let id = 0; id < reg.size; id++) if (reg.state[id] === State.Known) listed.push(id);
    // Registered as the sitemaps and the pages were read, in no fixed order: in URL order instead.
    const urls = listed.map((id) => reg.url(id));
    const order = listed.map((_, i) => i).sort((a, b) => (urls[a] < urls[b] ? -1 : urls[a] > urls[b] ? 1 : 0));
    order.forEach((i, place) => {
      const id = listed[i];
      reg.depth[id] = 1;
      reg.order[id] = place;
      reg.set(id, Flag.NoClickDepth);
      reg.setVia(id, 'sitemap');
      this.enqueue(id, 1);
    });
    return listed.length > 0;
  }

  /** Claims one URL of the budget (a redirect target); false, and truncated, when it is spent. */
  claim(): boolean {
    if (this.slots <= 0) {
      this.truncated = true;
      return false;
    }
    this.slots--;
    return true;
  }

  /** Returns claimed-but-unrecorded URLs to the queue (on stop) and their budget. */
  release(ids: number[]): void {
    for (const id of ids) {
      this.reg.state[id] = State.Queued;
      this.slots++;
    }
  }

  /** Queues a job on `url`'s host, run when a slot and the host allow. */
  queueAux(url: string, run: () => Promise<void>): void {
    const host = new URL(url).host;
    const jobs = this.aux.get(host);
    if (jobs) jobs.push(run);
    else this.aux.set(host, [run]);
  }

  /** A failure that must end the crawl (an abort is not one); thrown by `run` once work drains. */
  fail(error: unknown): void {
    if (!isAbortError(error)) this.fatal ??= error;
  }

  /**
   * Runs the link crawl: `fetch` on each internal URL, breadth first, until nothing runs and
   * nothing could start; then once `refill` (the sitemap-only URLs), and on until drained again.
   */
  async run(fetch: (id: number, slot: HostSlot) => Promise<void>, refill: () => Promise<boolean>): Promise<void> {
    let refilled = false;
    for (;;) {
      if (this.fatal || this.options.signal.aborted) this.stopping = true;
      this.pump(fetch);
      if (this.active === 0) {
        if (this.fatal) throw this.fatal;
        if (this.stopping) return;
        // Nothing runs and nothing could start: the link crawl is over.
        if (refilled) return;
        refilled = true;
        if (await refill()) continue;
        return;
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = null;
    }
  }

  private pump(fetch: (id: number, slot: HostSlot) => Promise<void>): void {
    while (!this.stopping && this.active < Math.max(1, this.options.concurrency)) {
      const started = this.startInternal(fetch) || this.startAux();
      if (!started) break;
    }
  }

  private hostLimit(host: string): number {
    return this.options.hostDelay(host) > 0 ? 1 : Math.max(1, this.options.perHostConcurrency);
  }

  private minActiveDepth(): number {
    for (let d = 0; d < this.activeDepth.length; d++) if (this.activeDepth[d] > 0) return d;
    return Infinity;
  }

  /** Starts the next internal URL, breadth first; false when none may start now. */
  private startInternal(fetch: (id: number, slot: HostSlot) => Promise<void>): boolean {
    for (;;) {
      const depth = this.frontier.lowestDepth();
      if (depth === NO_DEPTH) return false;
      if (depth !== this.openDepth || this.waveLeft === 0) {
        // A level, or a next wave of the open one, opens once nothing at its depth or above is in flight.
        if (this.minActiveDepth() <= depth) return false;
        this.openWave(depth);
        continue;
      }
      const id = this.frontier.peek(depth)!;
      if (this.reg.state[id] !== State.Queued || this.reg.depth[id] !== depth) {
        // Taken since (a redirect chain reached it) or moved to a lower depth: its slot is free again.
        this.frontier.shift(depth);
        this.waveLeft--;
        this.slots++;
        continue;
      }
      const host = new URL(this.reg.url(id)).host;
      if ((this.activeByHost.get(host) ?? 0) >= this.hostLimit(host)) return false;
      this.frontier.shift(depth);
      this.waveLeft--;
      this.reg.state[id] = State.Active;
      this.launch(host, depth, (slot) => fetch(id, slot));
      return true;
    }
  }

  /**
   * Opens the URLs waiting at `depth`: in the crawl's order, the first ones the budget allows
   * take their slots (and their ranks) now; the others stay out and the crawl is truncated.
   */
  private openWave(depth: number): void {
    const reg = this.reg;
    const waiting = this.frontier.drain(depth).filter((id) => reg.state[id] === State.Queued && reg.depth[id] === depth);
    waiting.sort((a, b) => reg.order[a] - reg.order[b] || (a === b ? 0 : reg.url(a) < reg.url(b) ? -1 : 1));
    // An id queued twice sorts next to itself: kept once, without a set as large as the level.
    const ids = waiting.filter((id, i) => i === 0 || waiting[i - 1] !== id);
    const admitted = Math.min(ids.length, Math.max(0, this.slots));
    if (admitted < ids.length) this.truncated = true;
    this.slots -= admitted;
    for (let i = 0; i < admitted; i++) {
      reg.order[ids[i]] = this.nextRank++;
      this.frontier.push(ids[i], depth);
    }
    this.openDepth = depth;
    this.waveLeft = admitted;
  }

  private startAux(): boolean {
    for (const [host, jobs] of this.aux) {
      if ((this.activeByHost.get(host) ?? 0) >= this.hostLimit(host)) continue;
      const job = jobs.shift()!;
      if (jobs.length === 0) this.aux.delete(host);
      this.launch(host, null, job);
      return true;
    }
    return false;
  }

  private launch(host: string, depth: number | null, run: (slot: HostSlot) => Promise<void>): void {
    this.active++;
    this.activeByHost.set(host, (this.activeByHost.get(host) ?? 0) + 1);
    // A page in flight counts for exact depths until its links are registered, slot freed or not.
    if (depth !== null) this.activeDepth[depth] = (this.activeDepth[depth] ?? 0) + 1;
    let held = true;
    const slot: HostSlot = {
      release: () => {
        if (!held) return;
        held = false;
        const n = (this.activeByHost.get(host) ?? 1) - 1;
        if (n > 0) this.activeByHost.set(host, n);
        else this.activeByHost.delete(host);
        this.wake?.();
      },
    };
    run(slot)
      .catch((error) => {
        this.fail(error);
        this.stopping = true;
      })
      .finally(() => {
        this.active--;
        if (depth !== null) this.activeDepth[depth]--;
        slot.release();
        this.wake?.();
      });
  }
}

/** Where a URL named by a page of rank `rank`, `index`th among the URLs it names, stands in its level. */
function orderKey(rank: number, index: number): number {
  return rank * 2 ** 21 + Math.min(index, 2 ** 21 - 1);
}
