/**
 * A crawl's progress in the log (docs/operations.md, "Lines"): between `crawl started` and
 * `crawl finished`, a `crawl progress` line at info every 5 seconds or every 1,000 pages,
 * whichever comes first, with the pages crawled and discovered, the pages per second since the
 * fetch began (one decimal) and the stage. It wraps the sink
 * the crawler reports to, so nothing of the crawler changes.
 */
import type { CrawlSink } from '../../crawler/index.js';
import type { Logger } from '../../observability/logger.js';

export const PROGRESS_EVERY_MS = 5_000;
export const PROGRESS_EVERY_PAGES = 1_000;

export interface ProgressLogOptions {
  everyMs?: number;
  everyPages?: number;
  /** A monotonic clock in milliseconds (tests give their own). */
  now?: () => number;
}

/**
 * The sink, logging its progress figures as they pass; every other method of the sink (its
 * batches, `flushed`, any added later) is kept as it is.
 */
export function loggedProgress<S extends CrawlSink>(sink: S, log: Logger, fields: Record<string, unknown>, options: ProgressLogOptions = {}): S {
  const everyMs = options.everyMs ?? PROGRESS_EVERY_MS;
  const everyPages = options.everyPages ?? PROGRESS_EVERY_PAGES;
  const now = options.now ?? (() => performance.now());
  const startedAt = now();
  let lastAt = startedAt;
  let nextPages = everyPages;
  return {
    ...sink,
    progress(p: { crawled: number; discovered: number }) {
      sink.progress(p);
      const at = now();
      if (p.crawled < nextPages && at - lastAt < everyMs) return;
      lastAt = at;
      nextPages = (Math.floor(p.crawled / everyPages) + 1) * everyPages;
      const seconds = (at - startedAt) / 1000;
      const perSecond = seconds > 0 ? Math.round((p.crawled / seconds) * 10) / 10 : null;
      log.info({ ...fields, stage: 'fetching', pages_crawled: p.crawled, pages_discovered: p.discovered, pages_per_second: perSecond }, 'crawl progress');
    },
  };
}
