/**
 * The link graph, kept without link lists: each page's internal links, canonical and hreflang
 * targets are registered (and queued) as the page is analysed; inlinks are counted per target;
 * a link is judged (broken, to a redirect) as soon as both ends are known, so only the sources
 * waiting on a target not yet recorded are held, and only until it is.
 */
import type { CheckName } from '../checks.js';
import { PendingLinks } from './pending-links.js';
import { CHAIN_FAILED, Flag, State, UNUSABLE_ID, type UrlRegistry } from '../run/url-registry.js';
import type { PageSummary } from '../page/page-facts.js';
import type { CrawlContext } from '../run/crawl-context.js';

export { MAX_PENDING_SOURCES } from './pending-links.js';

/** Hreflang annotations of the pages that have some: page id → [lang, target id]. */
export type HreflangMap = Map<number, { lang: string; target: number }[]>;

/** What a link to recorded URL `target` is worth reporting, or null when nothing. */
export function linkProblem(reg: UrlRegistry, target: number): { name: CheckName; why: string } | null {
  if (reg.has(target, Flag.Protection) || reg.has(target, Flag.Blocked)) return null;
  const status = reg.status[target];
  const final = reg.finalStatus[target];
  if (reg.has(target, Flag.Failed) || final === CHAIN_FAILED || final >= 400) {
    const why = reg.has(target, Flag.Loop)
      ? 'redirect loop'
      : reg.has(target, Flag.Failed) && status === 0
        ? 'no response'
        : status >= 300 && status < 400
          ? `redirects to a page answering ${final === CHAIN_FAILED ? 'nothing' : final}`
          : `status ${status}`;
    return { name: 'broken_internal_link', why };
  }
  if (status >= 300 && status < 400) return { name: 'link_to_redirect', why: `redirects (status ${status})` };
  return null;
}

export class LinkGraph {
  /** Link sources waiting on a target not yet recorded. */
  private readonly pending = new PendingLinks();
  readonly hreflang: HreflangMap = new Map();

  constructor(private readonly ctx: CrawlContext) {}

  /**
   * Registers what page `id` (at `url`, click depth `depth`) points to: its internal links (and
   * an internal meta refresh) as link targets, returned for `countInlinks`; its canonical and
   * hreflang targets in the registry.
   */
  register(id: number, url: string, depth: number, summary: PageSummary): Set<number> {
    const childDepth = depth + 1;
    const linkTargets = new Set<number>();
    const targets = summary.metaRefreshUrl && this.ctx.scope.isInternal(summary.metaRefreshUrl)
      ? [...summary.internalLinks, { url: summary.metaRefreshUrl, nofollow: false }]
      : summary.internalLinks;
    for (const link of targets) {
      if (link.url === url) continue;
      const target = this.ctx.scheduler.discover(link.url, childDepth, 'link');
      if (target !== null) linkTargets.add(target);
    }
    if (summary.canonical) this.ctx.reg.canonical[id] = this.canonicalTarget(id, url, summary.canonical, childDepth);
    const alternates: { lang: string; target: number }[] = [];
    for (const h of summary.hreflang) {
      if (!this.ctx.scope.isInternal(h.url)) continue;
      const target = h.url === url ? id : (this.ctx.scheduler.discover(h.url, childDepth, 'hreflang') ?? this.ctx.reg.get(h.url));
      if (target !== undefined && target !== null) alternates.push({ lang: h.lang, target });
    }
    if (alternates.length) this.hreflang.set(id, alternates);
    return linkTargets;
  }

  private canonicalTarget(id: number, url: string, canonical: string, depth: number): number {
    if (canonical === url) return id;
    if (!this.ctx.scope.isInternal(canonical)) return UNUSABLE_ID;
    return this.ctx.scheduler.discover(canonical, depth, 'canonical') ?? this.ctx.reg.get(canonical) ?? UNUSABLE_ID;
  }

  /** Counts the links of recorded page `source`; judges those whose target is known, keeps the others. */
  async countInlinks(source: number, targets: Set<number>): Promise<void> {
    const reg = this.ctx.reg;
    for (const target of targets) {
      reg.inlinks[target]++;
      if (reg.state[target] === State.Done) await this.judge(source, target);
      else this.pending.add(target, source);
    }
  }

  /** Judges the links waiting on `target`, now that its outcome is known. */
  async resolveLinksTo(target: number): Promise<void> {
    for (const source of this.pending.take(target)) await this.judge(source, target);
  }

  private async judge(source: number, target: number): Promise<void> {
    const problem = linkProblem(this.ctx.reg, target);
    if (problem) await this.ctx.output.issue(problem.name, source, `link to ${this.ctx.reg.url(target)}: ${problem.why}`);
  }
}
