/**
 * Batches pages and issues to the sink, drops excluded issues, counts severities and keeps, per
 * check, a bitset of the internal pages it fired on (one bit per URL id: the score needs pages
 * affected, not occurrences, without holding lists of URLs).
 */
import { CHECKS, type CheckName } from '../checks.js';
import { checkBasis, isHtmlPage, type UrlMatcher } from '@siteaudit/schema/rules';
import type { ScoreInput } from './score.js';
import type { CrawlSink, IssueRecord, PageRecord, ResourceRecord } from '../crawl-types.js';

class Bitset {
  private bits = new Uint8Array(128);
  count = 0;

  add(i: number): void {
    const byte = i >>> 3;
    if (byte >= this.bits.length) {
      const next = new Uint8Array(Math.max(byte + 1, this.bits.length * 2));
      next.set(this.bits);
      this.bits = next;
    }
    const mask = 1 << (i & 7);
    if ((this.bits[byte] & mask) === 0) {
      this.bits[byte] |= mask;
      this.count++;
    }
  }
}

export class Emitter {
  private pageBatch: PageRecord[] = [];
  private issueBatch: IssueRecord[] = [];
  private resourceBatch: ResourceRecord[] = [];
  private chain: Promise<void> = Promise.resolve();
  private failure: unknown = null;
  readonly counts = { error: 0, warning: 0, info: 0 };
  private readonly affected = new Map<CheckName, Bitset>();
  private readonly siteWide = new Set<CheckName>();
  /** The HTML pages answering 2xx recorded: what a page check's share is of. */
  private htmlPages = 0;

  constructor(
    private readonly sink: CrawlSink,
    private readonly batchSize: number,
    private readonly exclusion: UrlMatcher,
  ) {}

  /** Queues a page; resolves once a full batch (if any) is stored, which paces the crawl. */
  page(record: PageRecord): Promise<void> {
    if (isHtmlPage(record)) this.htmlPages++;
    this.pageBatch.push(record);
    return this.pageBatch.length >= this.batchSize ? this.flushPages() : Promise.resolve();
  }

  /** Queues a checked resource; stored in batches like pages. */
  resource(record: ResourceRecord): Promise<void> {
    this.resourceBatch.push(record);
    return this.resourceBatch.length >= this.batchSize ? this.flushResources() : Promise.resolve();
  }

  /**
   * Queues an issue on `url`. `pageId` is the registry id of the internal page it is about (for
   * the score); null for URLs that are not scored pages (robots.txt, images, external URLs).
   */
  issue(name: CheckName, url: string, details: string, pageId: number | null): Promise<void> {
    if (this.exclusion.matches(url)) return Promise.resolve();
    const def = CHECKS[name];
    this.counts[def.severity]++;
    if ('basis' in def && def.basis === 'site') this.siteWide.add(name);
    else if (pageId !== null) {
      let set = this.affected.get(name);
      if (!set) this.affected.set(name, (set = new Bitset()));
      set.add(pageId);
    }
    this.issueBatch.push({ name, severity: def.severity, category: def.category, url, details });
    return this.issueBatch.length >= this.batchSize ? this.flushIssues() : Promise.resolve();
  }

  /**
   * Queues an issue outside the catalogue (accessibility: `a11y_<rule>`). Counted, never scored:
   * accessibility has its own scorecard pillar, so it does not lower the technique score.
   */
  unscoredIssue(issue: IssueRecord): Promise<void> {
    if (this.exclusion.matches(issue.url)) return Promise.resolve();
    this.counts[issue.severity]++;
    this.issueBatch.push(issue);
    return this.issueBatch.length >= this.batchSize ? this.flushIssues() : Promise.resolve();
  }

  private enqueue(work: () => Promise<void>): Promise<void> {
    this.chain = this.chain.then(async () => {
      if (this.failure) return;
      try {
        await work();
      } catch (error) {
        this.failure = error;
      }
    });
    return this.chain.then(() => {
      if (this.failure) throw this.failure;
    });
  }

  private flushPages(): Promise<void> {
    const batch = this.pageBatch;
    this.pageBatch = [];
    return batch.length ? this.enqueue(() => this.sink.pages(batch)) : this.enqueue(async () => {});
  }

  private flushResources(): Promise<void> {
    const batch = this.resourceBatch;
    this.resourceBatch = [];
    return batch.length ? this.enqueue(async () => this.sink.resources?.(batch)) : this.enqueue(async () => {});
  }

  private flushIssues(): Promise<void> {
    // Pages and resources go first, so an issue never reaches the sink before what it is about.
    // The same failure rejects the issue write queued behind it, which the caller awaits.
    if (this.pageBatch.length) void this.flushPages().catch(() => undefined);
    if (this.resourceBatch.length) void this.flushResources().catch(() => undefined);
    const batch = this.issueBatch;
    this.issueBatch = [];
    return batch.length ? this.enqueue(() => this.sink.issues(batch)) : this.enqueue(async () => {});
  }

  /** Stores everything still batched: pages and resources first, so issues never precede them. */
  async flush(): Promise<void> {
    await this.flushPages();
    await this.flushResources();
    await this.flushIssues();
  }

  /** The score's input over `pages` scored URLs, of which the HTML pages this emitter recorded. */
  scoreInput(pages: number): ScoreInput {
    const checks: ScoreInput['checks'] = [];
    for (const [name, set] of this.affected) checks.push({ severity: CHECKS[name].severity, pages: set.count, basis: checkBasis(name) });
    for (const name of this.siteWide) checks.push({ severity: CHECKS[name].severity, pages, basis: 'site' });
    return { pages, htmlPages: this.htmlPages, checks };
  }
}
