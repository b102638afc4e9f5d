/**
 * A crawl thread (worker_threads): runs crawls of the crawler library off the thread that
 * answers HTTP. Fetching, parsing, page checks, fingerprints and the site-level passes all run
 * here; the sink's batches go to the main thread, which stores them and answers each one, so a
 * slow store slows the crawl exactly as it does in process (the emitter awaits every write).
 * Several crawls may share one thread: a crawl is mostly waiting on the network.
 */
import { parentPort } from 'node:worker_threads';
import { createRenderer } from '../../rendering/renderer.js';
import { crawlSite } from '../crawl.js';
import type { CrawlSink } from '../types.js';
import { fromThreadError, SINK_WRITES, toThreadError, type FromThread, type ToThread } from './protocol.js';

const port = parentPort;
if (!port) throw new Error('crawl-thread.ts runs as a worker thread (crawler/threads/pool.ts)');

const running = new Map<number, AbortController>();
const answers = new Map<string, { resolve: () => void; reject: (error: Error) => void }>();
let calls = 0;

function post(message: FromThread): void {
  port!.postMessage(message);
}

function threadSink(crawl: number): CrawlSink {
  const write = (method: (typeof SINK_WRITES)[number]) => (batch: unknown[]) =>
    new Promise<void>((resolve, reject) => {
      const call = calls++;
      answers.set(`${crawl}:${call}`, { resolve, reject });
      post({ type: 'write', crawl, call, method, batch });
    });
  return {
    pages: write('pages'),
    issues: write('issues'),
    resources: write('resources'),
    progress: (progress) => post({ type: 'progress', crawl, progress }),
  } as CrawlSink;
}

async function start(message: Extract<ToThread, { type: 'start' }>): Promise<void> {
  const { crawl } = message;
  const controller = new AbortController();
  running.set(crawl, controller);
  const renderer = message.renderer ? createRenderer(message.renderer) : undefined;
  try {
    const outcome = await crawlSite(message.config, threadSink(crawl), { signal: controller.signal, renderer, tuning: message.tuning });
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
