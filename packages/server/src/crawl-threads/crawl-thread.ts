/**
 * A crawl thread (worker_threads): runs crawls of the crawler library off the thread that
 * answers HTTP. Fetching, parsing, page checks, fingerprints and the site-level passes all run
 * here, except the analysis of HTML pages, which this thread shares with the process's
 * page-analysis threads when it has some (analysis-ports.ts); the sink's batches go to the main thread, which stores them in order and answers each
 * one. Up to WRITES_AHEAD batches may wait there: the crawl goes on while the store writes, and a
 * slow store still slows it (the next write waits), as in process. A write that failed fails the
 * crawl at its next write or at its end. Several crawls may share one thread: a crawl is mostly
 * waiting on the network.
 */
import { parentPort } from 'node:worker_threads';
import { createRenderer } from '../rendering/renderer.js';
import { crawlSite } from '../crawler/index.js';
import { AnalysisPorts } from './analysis-ports.js';
import type { CrawlSink } from '../crawler/index.js';
import { fromThreadError, SINK_WRITES, toThreadError, type FromThread, type ToThread } from './protocol.js';

const port = parentPort;
if (!port) throw new Error('crawl-thread.ts runs as a worker thread (crawl-threads/pool.ts)');

/**
 * Batches sent and not yet stored, per crawl, before a write waits for the oldest. The page whose
 * write waits holds its place in the crawl's concurrency meanwhile: with 4, a dense site's crawl
 * had most of its 8 places held by pages waiting on the store (docs/benchmarks.md, "The dense,
 * templated site"), so a pause of the store (a WAL checkpoint) stopped the fetching at once. The
 * main thread writes the batches waiting together (pool.ts), so a deeper queue also means fewer,
 * larger transactions. A batch is at most 200 pages or issues, held on the main thread until
 * written: 16 cost the shop's crawl about 10 MB more peak RSS, 8 is the compromise.
 */
const WRITES_AHEAD = 8;
/**
 * Progress crosses at most this often: the crawler reports after every page, and a message per
 * page cost the crawl about 6 % of its thread. Its readers (the stored progress, the log, the
 * stop check) act once a second at most.
 */
const PROGRESS_EVERY_MS = 50;

const running = new Map<number, AbortController>();
/**
 * The page-analysis threads this thread may hand pages to (none: every page is analysed here).
 * When the pool starts none by default, it starts one on this thread's word that pages take most
 * of its time (pool.ts `analysisOnDemand`).
 */
const analysis = new AnalysisPorts(() => post({ type: 'analysis-wanted' }));
const answers = new Map<string, { resolve: () => void; reject: (error: Error) => void }>();
let calls = 0;

function post(message: FromThread): void {
  port!.postMessage(message);
}

/** The crawl's sink here: each write sent to the main thread; `settled()` waits for every one. */
function threadSink(crawl: number): CrawlSink & { settled(): Promise<void> } {
  const pending: Promise<void>[] = [];
  let failure: Error | null = null;
  let progressAt = 0;
  let unsent: { crawled: number; discovered: number } | null = null;
  const write = (method: (typeof SINK_WRITES)[number]) => async (batch: unknown[]) => {
    if (failure) throw failure;
    const stored = new Promise<void>((resolve, reject) => {
      const call = calls++;
      answers.set(`${crawl}:${call}`, { resolve, reject });
      post({ type: 'write', crawl, call, method, batch });
    }).catch((error: Error) => {
      failure ??= error;
    });
    pending.push(stored);
    if (pending.length > WRITES_AHEAD) await pending.shift();
    if (failure) throw failure;
  };
  return {
    pages: write('pages'),
    issues: write('issues'),
    resources: write('resources'),
    progress(progress) {
      const now = performance.now();
      if (now - progressAt < PROGRESS_EVERY_MS) {
        unsent = progress;
        return;
      }
      progressAt = now;
      unsent = null;
      post({ type: 'progress', crawl, progress });
    },
    async settled() {
      // The last figures, so that the main thread ends on the crawl's own count.
      if (unsent) post({ type: 'progress', crawl, progress: unsent });
      unsent = null;
      await Promise.all(pending.splice(0));
      if (failure) throw failure;
    },
  } as CrawlSink & { settled(): Promise<void> };
}

async function start(message: Extract<ToThread, { type: 'start' }>): Promise<void> {
  const { crawl } = message;
  const controller = new AbortController();
  running.set(crawl, controller);
  const renderer = message.renderer ? createRenderer(message.renderer) : undefined;
  const sink = threadSink(crawl);
  try {
    const outcome = await crawlSite(message.config, sink, { signal: controller.signal, renderer, tuning: message.tuning, analysis });
    await sink.settled();
    post({ type: 'done', crawl, outcome });
  } catch (error) {
    post({ type: 'failed', crawl, error: toThreadError(error) });
  } finally {
    running.delete(crawl);
    await renderer?.close().catch(() => undefined);
  }
}

port.on('message', (message: ToThread) => {
  switch (message.type) {
    case 'analysis-port':
      analysis.add(message.port);
      break;
    case 'start':
      void start(message);
      break;
    case 'abort':
      running.get(message.crawl)?.abort();
      break;
    case 'ack': {
      const key = `${message.crawl}:${message.call}`;
      const answer = answers.get(key);
      answers.delete(key);
      if (message.error) answer?.reject(fromThreadError(message.error));
      else answer?.resolve();
      break;
    }
  }
});
