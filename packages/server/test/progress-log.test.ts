/**
 * The crawl's progress lines (modules/crawls/progress-log.ts): every 5 seconds or every 1,000
 * pages, whichever comes first, and nothing in between; the sink still gets every figure and
 * keeps its other methods. The clock is the test's: no real time passes.
 */
import { describe, expect, it } from 'vitest';
import type { CrawlSink } from '../src/crawler/index.js';
import { loggedProgress } from '../src/modules/crawls/progress-log.js';

function setup() {
  const lines: Record<string, unknown>[] = [];
  const log = { info: (fields: Record<string, unknown>, msg: string) => lines.push({ ...fields, msg }) };
  const seen: number[] = [];
  let flushed = 0;
  const sink = {
    pages: async () => undefined,
    issues: async () => undefined,
    progress: (p: { crawled: number; discovered: number }) => void seen.push(p.crawled),
    flushed: async () => void (flushed += 1),
  } satisfies CrawlSink & { flushed(): Promise<void> };
  let now = 0;
  const logged = loggedProgress(sink, log as never, { crawl: 'c1', team: 't1' }, { now: () => now });
  return { lines, seen, logged, tick: (ms: number) => (now += ms), flushedCount: () => flushed };
}

describe('crawl progress lines', () => {
  it('logs every 1,000 pages when pages come fast, with the figures and the stage', () => {
    const { lines, seen, logged, tick } = setup();
    // 400 pages a second.
    for (let crawled = 1; crawled <= 2_500; crawled++) {
      tick(2.5);
      logged.progress({ crawled, discovered: crawled + 10 });
    }
    expect(seen).toHaveLength(2_500);
    expect(lines).toEqual([
      { crawl: 'c1', team: 't1', stage: 'fetching', pages_crawled: 1_000, pages_discovered: 1_010, pages_per_second: 400, msg: 'crawl progress' },
      { crawl: 'c1', team: 't1', stage: 'fetching', pages_crawled: 2_000, pages_discovered: 2_010, pages_per_second: 400, msg: 'crawl progress' },
    ]);
  });

  it('logs every 5 seconds when pages come slowly, and not before, with the pages per second so far', () => {
    const { lines, logged, tick } = setup();
    logged.progress({ crawled: 1, discovered: 5 });
    tick(4_999);
    logged.progress({ crawled: 2, discovered: 5 });
    expect(lines).toEqual([]);
    tick(1);
    logged.progress({ crawled: 3, discovered: 6 });
    expect(lines).toMatchObject([{ pages_crawled: 3, pages_discovered: 6, pages_per_second: 0.6, msg: 'crawl progress' }]);
    tick(2_500);
    logged.progress({ crawled: 4, discovered: 6 });
    expect(lines).toHaveLength(1);
    tick(2_500);
    logged.progress({ crawled: 5, discovered: 6 });
    expect(lines).toHaveLength(2);
  });

  it("keeps the sink's other methods", async () => {
    const { logged, flushedCount } = setup();
    await logged.flushed();
    expect(flushedCount()).toBe(1);
  });
});
