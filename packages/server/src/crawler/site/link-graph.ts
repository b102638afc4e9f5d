/**
 * The link graph, kept without link lists: each page's internal links, canonical and hreflang
 * targets are registered (and queued) as the page is analysed; inlinks are counted per target;
 * a link is judged (broken, to a redirect, nofollow to an indexable page) as soon as both ends are
 * known, so only the sources waiting on a target not yet recorded are held, and only until it is.
 */
import type { CheckName } from '../checks.js';
import { NofollowLinks, type PageLinks } from './nofollow-links.js';
import { isMarked, PendingLinks, sourceOf } from './pending-links.js';
import { CHAIN_FAILED, Flag, OFF_SITE_ID, State, UNUSABLE_ID, type UrlRegistry } from '../run/url-registry.js';
import type { PageSummary } from '../page/page-facts.js';
import type { CrawlContext, PageRef } from '../run/crawl-context.js';

export { MAX_PENDING_SOURCES } from './pending-links.js';
export type { PageLinks } from './nofollow-links.js';

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
  if (reg.has(target, Flag.RefreshRedirect)) return { name: 'link_to_redirect', why: 'redirects (meta refresh)' };
  return null;
}

export class LinkGraph {
  /** Link sources waiting on a target not yet recorded; nofollow links are marked. */
  private readonly pending = new PendingLinks();
  private readonly nofollow: NofollowLinks;
  readonly hreflang: HreflangMap = new Map();
  /** `<link rel="next|prev">` links: source id, 0 for next or 1 for prev, target id; judged at the end. */
  private readonly pagination: number[] = [];
  /** Pages with hreflang annotations (head or Link header), internal targets or not (sitemap entries: SiteFiles.sitemapHreflangEntries). */
  hreflangPages = 0;

  constructor(private readonly ctx: CrawlContext) {
    this.nofollow = new NofollowLinks(ctx);
  }

  /**
   * Registers what `page` (its id, URL and click depth) points to: its internal links (and an
   * internal meta refresh) as link targets, returned for `countInlinks` with the nofollow ones;
   * its canonical and hreflang targets in the registry.
   */
  register(page: PageRef, summary: PageSummary): PageLinks {
    const { id, url, depth } = page;
    const childDepth = depth + 1;
    const links: PageLinks = { targets: new Set(), nofollow: new Set(), nofollowUrls: [], pageLevel: summary.nofollow };
    // Each URL the page names, in the order it names them: their place in the crawl's next level.
    let index = 0;
    const from = () => ({ page: id, index: index++ });
    for (const link of summary.internalLinks) {
      if (link.url === url) continue;
      const nofollow = link.nofollow || summary.nofollow;
      if (nofollow) links.nofollowUrls.push(link.url);
      const target = this.ctx.scheduler.discover(link.url, childDepth, 'link', from());
      if (target === null) continue;
      links.targets.add(target);
      if (nofollow) links.nofollow.add(target);
    }
    // A meta refresh is followed as a link, never a nofollow one; a meta-refresh redirect as a
    // redirect: its target is at the stub's own click depth, as a 301's is.
    const refresh = summary.metaRefreshUrl;
    if (refresh && refresh !== url && this.ctx.scope.isInternal(refresh)) {
      const target = summary.refreshRedirect ? this.ctx.scheduler.discover(refresh, depth, 'redirect', from()) : this.ctx.scheduler.discover(refresh, childDepth, 'link', from());
      if (target !== null) links.targets.add(target);
    }
    if (summary.canonical) this.ctx.reg.canonical[id] = this.canonicalTarget(page, summary.canonical, from());
    const alternates: { lang: string; target: number }[] = [];
    for (const h of summary.hreflang) {
      if (!this.ctx.scope.isInternal(h.url)) continue;
      const target = h.url === url ? id : (this.ctx.scheduler.discover(h.url, childDepth, 'hreflang', from()) ?? this.ctx.reg.get(h.url));
      if (target !== undefined && target !== null) alternates.push({ lang: h.lang, target });
    }
    if (summary.hreflang.length) this.hreflangPages++;
    this.addAlternates(id, alternates);
    // Pagination links are followed as links are, and judged once the crawl has recorded what it could.
    for (const p of summary.paginationLinks) {
      if (p.url === url || !this.ctx.scope.isInternal(p.url)) continue;
      const target = this.ctx.scheduler.discover(p.url, childDepth, 'link', from()) ?? this.ctx.reg.get(p.url);
      if (target !== undefined && target !== null) this.pagination.push(id, p.rel === 'next' ? 0 : 1, target);
    }
    return links;
  }

  /**
   * Adds hreflang annotations of page `id`, from its HTML or from a sitemap (either may come
   * first: sitemaps are read while pages are fetched); one entry per language and target.
   */
  addAlternates(id: number, alternates: { lang: string; target: number }[]): void {
    if (!alternates.length) return;
    const known = this.hreflang.get(id);
    if (!known) {
      this.hreflang.set(id, alternates);
      return;
    }
    for (const a of alternates) if (!known.some((k) => k.lang === a.lang && k.target === a.target)) known.push(a);
  }

  /** The id a page's canonical names: the page itself, off the site, or a URL discovered one click further. */
  private canonicalTarget(page: PageRef, canonical: string, from: { page: number; index: number }): number {
    if (canonical === page.url) return page.id;
    if (!this.ctx.scope.isInternal(canonical)) return OFF_SITE_ID;
    return this.ctx.scheduler.discover(canonical, page.depth + 1, 'canonical', from) ?? this.ctx.reg.get(canonical) ?? UNUSABLE_ID;
  }

  /** Counts the links of recorded page `source`; judges those whose target is known, keeps the others. */
  async countInlinks(source: number, links: PageLinks): Promise<void> {
    const reg = this.ctx.reg;
    this.nofollow.open(source, links);
    for (const target of links.targets) {
      reg.inlinks[target]++;
      const nofollow = links.nofollow.has(target);
      if (reg.state[target] === State.Done) {
        if (nofollow) this.nofollow.judge(source, target);
        const judged = this.judge(source, target);
        if (judged) await judged;
      } else if (this.pending.add(target, source, nofollow) && nofollow) this.nofollow.wait(source);
    }
    await this.nofollow.close(source, links);
  }

  /** Judges the links waiting on `target`, now that its outcome is known. */
  async resolveLinksTo(target: number): Promise<void> {
    for (const entry of this.pending.take(target)) {
      const source = sourceOf(entry);
      const judged = this.judge(source, target);
      if (judged) await judged;
      if (isMarked(entry)) await this.nofollow.resolve(source, target);
    }
  }

  /**
   * The crawl's end: the pages whose nofollow links still wait on a target never recorded are
   * reported as they stand; a `<link rel="next|prev">` whose recorded target is broken is reported
   * as a broken internal link of its page (a target the crawl did not record is not judged).
   */
  async finish(): Promise<void> {
    await this.nofollow.finish();
    const reg = this.ctx.reg;
    for (let i = 0; i < this.pagination.length; i += 3) {
      const [source, rel, target] = [this.pagination[i], this.pagination[i + 1], this.pagination[i + 2]];
      if (reg.state[target] !== State.Done) continue;
      const problem = linkProblem(reg, target);
      if (problem?.name === 'broken_internal_link') {
        await this.ctx.output.issue(problem.name, source, `rel="${rel === 0 ? 'next' : 'prev'}" to ${reg.url(target)}: ${problem.why}`);
      }
    }
  }

  /** The report of a link's problem, or nothing to wait for: most links have none, and a page has dozens. */
  private judge(source: number, target: number): Promise<void> | undefined {
    const problem = linkProblem(this.ctx.reg, target);
    return problem ? this.ctx.output.issue(problem.name, source, `link to ${this.ctx.reg.url(target)}: ${problem.why}`) : undefined;
  }
}
