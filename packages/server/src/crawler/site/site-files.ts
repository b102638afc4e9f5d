/**
 * Site-level checks, on the site's own files before the page crawl: robots.txt (missing, what
 * it tells AI agents), the sitemaps (read in the background while pages are fetched: their URLs
 * are registered, and those no link reaches are crawled after the link crawl) and llms.txt.
 */
import { CHECK_DETAILS as D } from '@siteaudit/schema/rules';
import { AI_SEARCH_AGENTS, AI_TRAINING_CRAWLERS } from '../checks.js';
import { isHtmlContentType } from '../fetch/decode.js';
import { Flag } from '../run/url-registry.js';
import { headerValue } from '../fetch/http-client.js';
import type { RobotsPolicy } from '../fetch/robots-policy.js';
import { readSitemaps, type SitemapAlternate, type SitemapReport } from './sitemap.js';
import type { LinkGraph } from './link-graph.js';
import { normaliseUrl, originOf } from '../url.js';
import type { CrawlContext } from '../run/crawl-context.js';

export interface SiteFilesOptions {
  /** The crawl's budget: at most this many URLs are taken from the sitemaps. */
  maxUrls: number;
  checkAiReachability: boolean;
}

export class SiteFiles {
  /** Settles once the sitemaps are read (or their reading failed, which the scheduler then holds). */
  sitemapsRead: Promise<void> = Promise.resolve();
  /** Whether the sitemaps were read to the end, every URL of the crawl's scope registered (set once `sitemapsRead` settles). */
  sitemapsComplete = false;
  /** The sitemap files that listed a URL, in the order first seen (`UrlRegistry.sitemapFile` indexes it). */
  readonly sitemapFiles: string[] = [];
  /** Sitemap locations on a host the crawl does not count as the site's: how many, and the first. */
  private foreign = { count: 0, example: '' };

  /** Sitemap entries that list hreflang alternates. */
  sitemapHreflangEntries = 0;

  constructor(
    private readonly ctx: CrawlContext,
    private readonly options: SiteFilesOptions,
    /** Where hreflang alternates listed in the sitemaps go (the same map as the pages' own). */
    private readonly links?: Pick<LinkGraph, 'addAlternates'>,
  ) {}

  /** Checks the start origin's files; the sitemaps go on being read once this returns. */
  async check(policy: RobotsPolicy): Promise<void> {
    const origin = originOf(this.ctx.scope.startUrl);
    if (policy.state === 'missing') await this.ctx.output.issue('robots_txt_missing', null, `robots.txt answers ${policy.status}`, policy.url);

    const listed = policy.sitemaps.map((s) => normaliseUrl(s, policy.url)).filter((s): s is string => s !== null);
    this.sitemapsRead = this.readSitemaps(listed, `${origin}/sitemap.xml`).catch((error) => this.ctx.scheduler.fail(error));

    if (this.options.checkAiReachability) {
      if (policy.state === 'ok') await this.aiAgents(policy, `${origin}/`);
      await this.llmsTxt(origin);
    }
    if (origin.startsWith('https:')) await this.httpCounterpart();
  }

  /**
   * The HTTP version of an HTTPS start URL must redirect to HTTPS. Reported when it answers a page
   * of its own (2xx on HTTP); an HTTP port that answers nothing or an error is not a second copy
   * of the site.
   */
  private async httpCounterpart(): Promise<void> {
    const http = new URL(this.ctx.scope.startUrl);
    http.protocol = 'http:';
    if (http.port === '443') http.port = '';
    const res = await this.ctx.client.getResource(http.href, { maxHops: 5, maxBytes: 1024, accept: 'text/html,*/*;q=0.5' });
    if (res.status !== null && res.status >= 200 && res.status < 300 && res.finalUrl.startsWith('http:')) {
      await this.ctx.output.issue('http_not_redirected', null, D.httpNotRedirected(http.href, res.status), http.href);
    }
  }

  private async aiAgents(policy: RobotsPolicy, home: string): Promise<void> {
    for (const agent of AI_SEARCH_AGENTS) {
      if (!policy.isAllowed(home, agent.toLowerCase())) await this.ctx.output.issue('ai_search_agent_blocked', null, `${agent} is disallowed`, policy.url);
    }
    for (const agent of AI_TRAINING_CRAWLERS) {
      if (!policy.isAllowed(home, agent.toLowerCase())) await this.ctx.output.issue('ai_training_crawler_blocked', null, `${agent} is disallowed`, policy.url);
    }
  }

  /** Registers in-scope sitemap URLs (up to the budget), flagged InSitemap; a URL already known is only flagged. */
  private sitemapUrl(): (loc: string, sitemap: string) => boolean {
    const cap = Math.max(1, this.options.maxUrls);
    let added = 0;
    return (loc, sitemap) => {
      const url = normaliseUrl(loc);
      if (url && !this.ctx.scope.isInternal(url) && this.foreign.count++ === 0) this.foreign.example = url;
      if (!url || !this.ctx.scope.inScope(url)) return true;
      let id = this.ctx.reg.get(url);
      if (id === undefined) {
        if (added >= cap || this.ctx.reg.size >= this.ctx.scheduler.registryCap) return false;
        id = this.ctx.reg.add(url, 1, 'sitemap').id;
        this.ctx.reg.set(id, Flag.Internal);
        added++;
      }
      this.ctx.reg.set(id, Flag.InSitemap);
      if (this.ctx.reg.sitemapFile[id] === 0) {
        let file = this.sitemapFiles.indexOf(sitemap);
        if (file < 0) file = this.sitemapFiles.push(sitemap) - 1;
        this.ctx.reg.sitemapFile[id] = file + 1;
      }
      return true;
    };
  }

  /**
   * The hreflang alternates a sitemap lists for one of its URLs: kept with the page's own (an
   * internal target not yet known is registered, to be crawled as the sitemap's URLs are).
   */
  private sitemapAlternates(): (loc: string, alternates: SitemapAlternate[]) => void {
    return (loc, alternates) => {
      this.sitemapHreflangEntries++;
      const url = normaliseUrl(loc);
      const page = url === null ? undefined : this.ctx.reg.get(url);
      if (page === undefined || !this.links) return;
      const found: { lang: string; target: number }[] = [];
      for (const a of alternates) {
        const target = normaliseUrl(a.href, loc);
        if (!target || !this.ctx.scope.inScope(target)) continue;
        let id = this.ctx.reg.get(target);
        if (id === undefined) {
          if (this.ctx.reg.size >= this.ctx.scheduler.registryCap) continue;
          id = this.ctx.reg.add(target, 1, 'hreflang').id;
          this.ctx.reg.set(id, Flag.Internal);
        }
        found.push({ lang: a.lang.toLowerCase(), target: id });
      }
      this.links.addAlternates(page, found);
    };
  }

  private async readSitemaps(listed: string[], fallback: string): Promise<void> {
    const onUrl = this.sitemapUrl();
    const onAlternates = this.sitemapAlternates();
    const robotsUrl = `${originOf(this.ctx.scope.startUrl)}/robots.txt`;
    if (listed.length > 0) {
      const report = await readSitemaps(this.ctx.client, listed, onUrl, onAlternates);
      await this.sitemapHygiene(report, robotsUrl);
      if (report.found.length === 0) {
        const failed = report.failed.map((f) => `${f.url} (${f.status ?? 'no response'})`).join(', ');
        await this.ctx.output.issue('sitemap_missing', null, `robots.txt lists sitemaps that cannot be read: ${failed}`, robotsUrl);
      }
      return;
    }
    const report = await readSitemaps(this.ctx.client, [fallback], onUrl, onAlternates);
    // A missing /sitemap.xml that answers some page is no sitemap, not an invalid one.
    if (report.found.length > 0) await this.sitemapHygiene(report, robotsUrl);
    if (report.found.length > 0) await this.ctx.output.issue('sitemap_not_in_robots', null, `${fallback} exists but robots.txt has no Sitemap line`, robotsUrl);
    else await this.ctx.output.issue('sitemap_missing', null, `no Sitemap line in robots.txt and ${fallback} answers ${report.failed[0]?.status ?? 'nothing'}`, fallback);
  }

  /** What the sitemaps read break of the protocol: size limits, format, URLs of other hosts. */
  private async sitemapHygiene(report: SitemapReport, robotsUrl: string): Promise<void> {
    this.sitemapsComplete = report.complete && report.found.length > 0;
    for (const file of report.oversized) {
      await this.ctx.output.issue('sitemap_too_large', null, file.truncated ? D.sitemapTooManyBytes(file.url) : D.sitemapTooManyUrls(file.url, file.urls), file.url);
    }
    for (const file of report.invalid) await this.ctx.output.issue('sitemap_invalid', null, D.sitemapInvalid(file.url, file.status), file.url);
    if (this.foreign.count > 0) await this.ctx.output.issue('sitemap_foreign_url', null, D.sitemapForeign(this.foreign.count, this.foreign.example), report.found[0] ?? robotsUrl);
  }

  private async llmsTxt(origin: string): Promise<void> {
    const url = `${origin}/llms.txt`;
    const res = await this.ctx.client.getResource(url, { maxHops: 5, maxBytes: 64 * 1024, accept: 'text/plain,text/markdown,*/*;q=0.5' });
    if (res.status === null) return;
    const text = res.body?.toString('utf8') ?? '';
    // A site answering its HTML shell for every path has no llms.txt either.
    const isHtml = isHtmlContentType(headerValue(res.headers, 'content-type')) || /^\s*</.test(text);
    if (res.status < 200 || res.status >= 300 || isHtml) {
      await this.ctx.output.issue('llms_txt_missing', null, isHtml && res.status < 300 ? 'llms.txt answers an HTML page' : `llms.txt answers ${res.status}`, url);
      return;
    }
    const firstLine = text.split(/\r?\n/).find((l) => l.trim() !== '') ?? '';
    if (!/^#\s+\S/.test(firstLine)) await this.ctx.output.issue('llms_txt_no_h1', null, 'the file does not start with a "# Title" line', url);
  }
}
