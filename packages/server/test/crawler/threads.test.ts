/**
 * Crawls in worker threads (crawl-threads/): the same findings as in process, stops and sink
 * failures carried across the thread boundary, and the calling thread left free while a crawl of
 * a few thousand pages runs its page analysis and its site-level passes.
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { isAbortError } from '../../src/abort.js';
import { CrawlThreadPool } from '../../src/crawl-threads/pool.js';
import type { CrawlOutcome } from '../../src/crawler/crawl-types.js';
import { startBenchSite, type BenchSite } from '../../../../bench/crawl/site.js';
import { startFixtureSite, type FixtureSite } from './fixture-site.js';
import { config, memorySink, pairs } from '../../../../tests/support/crawler.js';

// One page-analysis thread whatever the machine's cores (none by default on 2): its path is tested here.
const pool = new CrawlThreadPool(2, 1);
afterAll(() => pool.close());

let site: FixtureSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

function pageKey(p: { url: string; status_code: number | null; depth: number | null; title: string | null; internal_links: number; canonical_url: string | null }) {
  return `${p.url} ${p.status_code} ${p.depth} ${p.title} ${p.internal_links} ${p.canonical_url}`;
}

describe('a crawl in a thread', () => {
  it('finds exactly what the same crawl finds in process', async () => {
    site = await startFixtureSite();
    const cfg = config(`${site.origin}/`, { checkExternalLinks: true, checkAiReachability: true, concurrency: 4 });
    const here = memorySink();
    const there = memorySink();
    const inProcess = await new CrawlThreadPool(0).run({ config: cfg, sink: here.sink, signal: new AbortController().signal, renderer: null, tuning: { retryBaseDelayMs: 5 } });
    const threaded = await pool.run({ config: cfg, sink: there.sink, signal: new AbortController().signal, renderer: null, tuning: { retryBaseDelayMs: 5 } });
    expect(there.store.pages.map(pageKey).sort()).toEqual(here.store.pages.map(pageKey).sort());
    // slow_response depends on how fast the fixture answered each run (a loaded machine), not on where the crawl ran.
    const timed = (list: string[]) => list.filter((p) => !p.startsWith('slow_response '));
    expect(timed(pairs(there.store.issues))).toEqual(timed(pairs(here.store.issues)));
    expect(there.store.resources.length).toBe(here.store.resources.length);
    // The counts and the score too, unless the two runs differ in slow_response alone.
    const slow = (list: string[]) => list.filter((p) => p.startsWith('slow_response '));
    const sameTiming = JSON.stringify(slow(pairs(there.store.issues))) === JSON.stringify(slow(pairs(here.store.issues)));
    const strip = ({ issueCounts, healthScore, healthScoreExact, ...rest }: CrawlOutcome) => (sameTiming ? { ...rest, issueCounts, healthScore, healthScoreExact } : rest);
    expect(strip(threaded)).toEqual(strip(inProcess));
    expect(threaded.crawled).toBeGreaterThan(20);
    expect(there.store.progress.at(-1)).toEqual({ crawled: threaded.crawled, discovered: threaded.discovered });
  });

  it('stops when its signal is aborted, as in process', async () => {
    site = await startFixtureSite({ delayMs: 30 });
    const stop = new AbortController();
    const { store, sink } = memorySink();
    const outcome = pool.run({ config: config(`${site.origin}/`, { concurrency: 1, perHostConcurrency: 1 }), sink: { ...sink, pages: async (b) => { await sink.pages(b); stop.abort(); } }, signal: stop.signal, renderer: null, tuning: { batchSize: 1 } });
    const result = await outcome;
    expect(result.aborted).toBe(true);
    expect(store.pages.length).toBeLessThan(10);
  });

  it('ends with the very error the sink raised (a lost lease), not a copy', async () => {
    site = await startFixtureSite();
    class LeaseGone extends Error {}
    const gone = new LeaseGone('lease lost');
    const { sink } = memorySink();
    const failing = { ...sink, pages: async () => { throw gone; } };
    await expect(pool.run({ config: config(`${site.origin}/`), sink: failing, signal: new AbortController().signal, renderer: null })).rejects.toBe(gone);
  });

  it('ends its crawls with an AbortError when the pool closes, and refuses new ones', async () => {
    site = await startFixtureSite({ delayMs: 200 });
    const own = new CrawlThreadPool(1);
    const running = own.run({ config: config(`${site.origin}/`), sink: memorySink().sink, signal: new AbortController().signal, renderer: null });
    await new Promise((r) => setTimeout(r, 300));
    const ended = running.catch((e: unknown) => e);
    await own.close();
    expect(isAbortError(await ended)).toBe(true);
    await expect(own.run({ config: config(`${site.origin}/`), sink: memorySink().sink, signal: new AbortController().signal, renderer: null })).rejects.toSatisfy(isAbortError);
  });

  it('refuses a size that is not a whole number', () => {
    expect(() => new CrawlThreadPool(-1)).toThrow(/whole number/);
    expect(() => new CrawlThreadPool(1.5)).toThrow(/whole number/);
  });
});

describe('the calling thread during a crawl', () => {
  let bench: BenchSite | undefined;
  afterEach(async () => {
    await bench?.close();
    bench = undefined;
  });

  it('stays responsive while a 2,000-page crawl analyses pages and runs its site-level passes', { timeout: 120_000 }, async () => {
    bench = await startBenchSite(2_000);
    const delay = monitorEventLoopDelay({ resolution: 10 });
    const { store, sink } = memorySink();
    delay.enable();
    const before = performance.eventLoopUtilization();
    const outcome = await pool.run({ config: config(`${bench.url}/`, { maxUrls: 2_000, concurrency: 8 }), sink, signal: new AbortController().signal, renderer: null });
    const busy = performance.eventLoopUtilization(before).utilization;
    delay.disable();
    expect(outcome.crawled).toBe(2_000);
    expect(store.issues.some((i) => i.name === 'near_duplicate_content' || i.name === 'duplicate_content')).toBe(true);
    // In process, this crawl keeps the thread busy nearly all the time (utilisation near 1); here
    // only the sink's calls run on it. Generous bounds: the machine may be running other tests.
    expect(busy).toBeLessThan(0.5);
    expect(delay.max / 1e6).toBeLessThan(1_000);
  });
});
