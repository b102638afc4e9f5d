/**
 * Nofollow on internal links, judged by what the targets turned out to be: a page whose nofollow
 * links (rel="nofollow", or all its links under a page-level meta robots or X-Robots-Tag
 * nofollow) lead to indexable pages gets internal_nofollow_to_indexable; one whose nofollowed
 * targets are none of them indexable (or were not crawled) gets internal_nofollow. Never both
 * (docs/decisions/checks-catalogue.md).
 *
 * A link is judged as soon as its target is recorded, as broken links are (link-graph.ts): the
 * links waiting on a target are the link graph's pending links, marked nofollow. Each page keeps,
 * only until its last nofollowed target is known, one slot of SLOT numbers in a typed array (its
 * counts and the ids of a few targets for the evidence; 44 bytes), found through a typed array
 * indexed by page id (4 bytes per URL up to the last page that used a slot) rather than a Map;
 * freed slots are reused. The crawl's end reports the pages still waiting with what is known.
 */
import { CHECK_DETAILS as D } from '@siteaudit/schema/rules';
import { isIndexable2xx } from '../run/url-registry.js';
import type { CrawlContext } from '../run/crawl-context.js';
import { grown } from './pending-links.js';

/** Target URLs named in an occurrence's details. */
export const NOFOLLOW_SAMPLE = 3;

/** What one page links to, as the link graph registered it (LinkGraph.register). */
export interface PageLinks {
  /** The targets with an id in the registry: counted as inlinks, judged. */
  targets: Set<number>;
  /** Those of them linked with nofollow, in page order. */
  nofollow: Set<number>;
  /** Every internal nofollow link of the page, in page order, with an id or not (beyond the depth limit, excluded). */
  nofollowUrls: string[];
  /** The nofollow is the page's own (meta robots or X-Robots-Tag), so it covers every link. */
  pageLevel: boolean;
}

// A slot's fields, then the ids of up to NOFOLLOW_SAMPLE nofollowed targets and as many indexable ones.
/** The page of the slot; NONE when the slot is free. */
const SOURCE = 0;
/** Nofollow links still waiting on their target; for a free slot, the next free slot. */
const WAITING = 1;
const BITS = 2;
/** Nofollow links of the page, with an id or not. */
const LINKS = 3;
/** Nofollow links whose target is indexable. */
const FOUND = 4;
const NOFOLLOWED = 5;
const INDEXABLE = NOFOLLOWED + NOFOLLOW_SAMPLE;
const SLOT = INDEXABLE + NOFOLLOW_SAMPLE;
/** BITS: the page's links are still being counted (no report before they all are). */
const OPEN = 1;
/** BITS: page-level nofollow. */
const PAGE_LEVEL = 2;
const NO_SLOT = -1;
const NONE = -1;

export class NofollowLinks {
  private data = new Int32Array(64 * SLOT).fill(NONE);
  /** Slots handed out so far (free ones included). */
  private used = 0;
  private free = NO_SLOT;
  /** Page id → its slot, or NO_SLOT. */
  private slotOf = new Int32Array(1024).fill(NO_SLOT);

  constructor(private readonly ctx: CrawlContext) {}

  private slot(source: number): number | undefined {
    const slot = source < this.slotOf.length ? this.slotOf[source] : NO_SLOT;
    return slot === NO_SLOT ? undefined : slot;
  }

  /** Starts judging page `source`'s nofollow links (nothing to judge without any). */
  open(source: number, links: PageLinks): void {
    if (links.nofollowUrls.length === 0) return;
    const slot = this.allocate();
    const d = this.data;
    const at = slot * SLOT;
    d.fill(NONE, at, at + SLOT);
    d[at + SOURCE] = source;
    d[at + WAITING] = 0;
    d[at + BITS] = OPEN | (links.pageLevel ? PAGE_LEVEL : 0);
    d[at + LINKS] = links.nofollowUrls.length;
    d[at + FOUND] = 0;
    let i = 0;
    for (const target of links.nofollow) {
      if (i === NOFOLLOW_SAMPLE) break;
      d[at + NOFOLLOWED + i++] = target;
    }
    this.slotOf = grown(this.slotOf, source + 1, NO_SLOT);
    this.slotOf[source] = slot;
  }

  /** A nofollow link of `source` to `target`, whose outcome is recorded. */
  judge(source: number, target: number): void {
    const slot = this.slot(source);
    if (slot === undefined || !isIndexable2xx(this.ctx.reg, target)) return;
    const at = slot * SLOT;
    const found = this.data[at + FOUND]++;
    if (found < NOFOLLOW_SAMPLE) this.data[at + INDEXABLE + found] = target;
  }

  /** A nofollow link of `source` waits on its target (LinkGraph's pending links). */
  wait(source: number): void {
    const slot = this.slot(source);
    if (slot !== undefined) this.data[slot * SLOT + WAITING]++;
  }

  /** The target a nofollow link of `source` waited on is recorded: judged, and the page reported once nothing waits. */
  async resolve(source: number, target: number): Promise<void> {
    const slot = this.slot(source);
    if (slot === undefined) return;
    this.judge(source, target);
    const at = slot * SLOT;
    this.data[at + WAITING]--;
    if (this.data[at + WAITING] === 0 && (this.data[at + BITS] & OPEN) === 0) await this.report(slot, []);
  }

  /** All of `source`'s links are counted: the page is reported now unless a target is still to come. */
  async close(source: number, links: PageLinks): Promise<void> {
    const slot = this.slot(source);
    if (slot === undefined) return;
    const at = slot * SLOT;
    this.data[at + BITS] &= ~OPEN;
    if (this.data[at + WAITING] === 0) await this.report(slot, links.nofollowUrls);
  }

  /** The crawl's end: the pages still waiting are reported with the targets known (the others were never recorded). */
  async finish(): Promise<void> {
    for (let slot = 0; slot < this.used; slot++) if (this.data[slot * SLOT + SOURCE] !== NONE) await this.report(slot, []);
  }

  /**
   * Reports the page of `slot` and frees the slot. `urls`: the page's nofollow URLs, named when
   * none has an id (then nothing waited and they are at hand).
   */
  private async report(slot: number, urls: readonly string[]): Promise<void> {
    const d = this.data;
    const reg = this.ctx.reg;
    const at = slot * SLOT;
    const source = d[at + SOURCE];
    const pageLevel = (d[at + BITS] & PAGE_LEVEL) !== 0;
    const ids = (from: number) => {
      const out: string[] = [];
      for (let i = 0; i < NOFOLLOW_SAMPLE && d[at + from + i] !== NONE; i++) out.push(reg.url(d[at + from + i]));
      return out;
    };
    const found = d[at + FOUND];
    const named = ids(found > 0 ? INDEXABLE : NOFOLLOWED);
    const [name, details] = found > 0
      ? (['internal_nofollow_to_indexable', D.nofollowToIndexable(found, named, pageLevel)] as const)
      : (['internal_nofollow', D.internalNofollow(d[at + LINKS], named.length ? named : urls.slice(0, NOFOLLOW_SAMPLE), pageLevel)] as const);
    this.slotOf[source] = NO_SLOT;
    d[at + SOURCE] = NONE;
    d[at + WAITING] = this.free;
    this.free = slot;
    await this.ctx.output.issue(name, source, details);
  }

  private allocate(): number {
    if (this.free !== NO_SLOT) {
      const slot = this.free;
      this.free = this.data[slot * SLOT + WAITING];
      return slot;
    }
    const slot = this.used++;
    this.data = grown(this.data, this.used * SLOT, NONE);
    return slot;
  }
}
