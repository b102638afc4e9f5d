import { crawlSite, type CrawlConfig, type CrawlOptions, type CrawlOutcome, type IssueRecord, type PageRecord, type ResourceRecord } from '../../packages/server/src/crawler/index.js';

export interface MemorySink {
  pages: PageRecord[];
  issues: IssueRecord[];
  resources: ResourceRecord[];
  progress: { crawled: number; discovered: number }[];
  batches: { pages: number[]; issues: number[] };
}

export function memorySink() {
  const store: MemorySink = { pages: [], issues: [], resources: [], progress: [], batches: { pages: [], issues: [] } };
  return {
    store,
    sink: {
      async pages(batch: PageRecord[]) {
        store.batches.pages.push(batch.length);
        store.pages.push(...batch);
      },
      async issues(batch: IssueRecord[]) {
        store.batches.issues.push(batch.length);
        store.issues.push(...batch);
      },
      async resources(batch: ResourceRecord[]) {
        store.resources.push(...batch);
      },
      progress(p: { crawled: number; discovered: number }) {
        store.progress.push(p);
      },
    },
  };
}

export function config(startUrl: string, overrides: Partial<CrawlConfig> = {}): CrawlConfig {
  return {
    startUrl,
    maxDepth: 10,
    maxUrls: 1000,
    includePatterns: null,
    excludePatterns: null,
    issueExclusionPatterns: null,
    timeoutMs: 5000,
    retries: 2,
    duplicationThreshold: 90,
    checkExternalLinks: false,
    checkAiReachability: false,
    httpAuth: null,
    userAgent: 'Mozilla/5.0 (compatible; SiteAuditBot/1.0; +https://siteaudit.dev/bot)',
    concurrency: 6,
    perHostConcurrency: 4,
    allowPrivateAddresses: true,
    ...overrides,
  };
}

/** Fast retries in tests: the behaviour is the same, only the waits are shorter. */
export const FAST: CrawlOptions = { tuning: { retryBaseDelayMs: 5, maxWaitMs: 2000 } };

export async function crawl(startUrl: string, overrides: Partial<CrawlConfig> = {}, options: CrawlOptions = FAST) {
  const { store, sink } = memorySink();
  const outcome: CrawlOutcome = await crawlSite(config(startUrl, overrides), sink, options);
  return { outcome, ...store };
}

export function pairs(issues: IssueRecord[]): string[] {
  return [...new Set(issues.map((i) => `${i.name} ${i.url}`))].sort();
}

export function issuesOf(issues: IssueRecord[], url: string): string[] {
  return [...new Set(issues.filter((i) => i.url === url).map((i) => i.name))].sort();
}
