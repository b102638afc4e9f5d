/**
 * What the crawl reports: page records (each internal URL once, when its outcome is known) and
 * issues, through the Emitter's batches, with the progress figures after each internal page.
 */
import type { CheckName } from '../checks.js';
import type { Emitter } from './emitter.js';
import { Flag, State, type UrlRegistry } from './url-registry.js';
import type { CrawlSink, IssueRecord, PageRecord, ResourceRecord } from '../crawl-types.js';

export class CrawlOutput {
  /** Internal URLs recorded so far. */
  recorded = 0;

  constructor(
    private readonly reg: UrlRegistry,
    private readonly emitter: Emitter,
    private readonly sink: CrawlSink,
    /** Called once an internal URL is recorded: the links waiting on it can be judged. */
    private readonly afterRecord: (id: number) => Promise<void>,
  ) {}

  /** An issue on registered page `pageId`, or on `url` when it is not a page (robots.txt, an image). */
  async issue(name: CheckName, pageId: number | null, details: string, url?: string): Promise<void> {
    await this.emitter.issue(name, url ?? this.reg.url(pageId!), details, pageId);
  }

  /** An issue outside the catalogue (accessibility), counted but never scored. */
  unscoredIssue(issue: IssueRecord): Promise<void> {
    return this.emitter.unscoredIssue(issue);
  }

  /** Records internal URL `id` as done. */
  async record(id: number, record: PageRecord): Promise<void> {
    this.reg.state[id] = State.Done;
    // No click path from the start reaches it (run/fetch-scheduler.ts `queueSitemapOnly`).
    if (this.reg.has(id, Flag.NoClickDepth)) record.depth = null;
    this.recorded++;
    await this.emitter.page(record);
    this.sink.progress({ crawled: this.recorded, discovered: this.reg.size });
    await this.afterRecord(id);
  }

  /** Records a checked resource (site/resource-checks.ts): not a page, not counted as crawled. */
  resource(record: ResourceRecord): Promise<void> {
    return this.emitter.resource(record);
  }

  /** Records an external URL (checked links): not counted as crawled. */
  externalPage(record: PageRecord): Promise<void> {
    return this.emitter.page(record);
  }
}
