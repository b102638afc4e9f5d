/**
 * The crawl threads of a process (docs/architecture.md, "Where a crawl runs"): crawls run in
 * worker threads so that nothing a crawl does (parsing, checks, the site-level passes over
 * every page) ever holds the thread that answers HTTP. The pool starts threads as crawls need
 * them, up to its size, and gives each new crawl the thread running the fewest; an idle thread
 * does not keep the process alive. Size 0 runs crawls in this thread (the crawler library as is).
 *
 * The main thread keeps only the sink: it stores each batch the thread sends and answers it, so
 * the store's pace (and its lease fencing) governs the crawl as before. An error the sink raises
 * (a lost lease) is the error the crawl ends with, as the same object.
 */
import { availableParallelism } from 'node:os';
import { MessageChannel, type MessagePort, type Worker } from 'node:worker_threads';
import { spawnThread } from '../threads/spawn.js';
import { abortError } from '../abort.js';
import { createRenderer, type RendererOptions } from '../rendering/renderer.js';
import { crawlSite } from '../crawler/index.js';
import type { CrawlConfig, CrawlOutcome, CrawlSink, CrawlTuning, SinkBatch } from '../crawler/index.js';
import { fromThreadError, toThreadError, type FromThread, type ToThread } from './protocol.js';

export interface CrawlRun {
  config: CrawlConfig;
  sink: CrawlSink;
  signal: AbortSignal;
  /** The browser the crawl needs (created in the crawl's thread), or null. */
  renderer: RendererOptions | null;
  tuning?: Partial<CrawlTuning>;
}

/** Threads by default: one per core the process may use. */
export function defaultCrawlThreads(): number {
  return availableParallelism();
}

/**
 * Page-analysis threads by default: the cores left once a crawl thread and the thread that
 * answers HTTP (with the store's writes) have one each, and at most one fewer than the crawl
 * threads; none on 2 cores. Measured there on a quiet machine (docs/benchmarks.md, "Thread
 * defaults"): an analysis thread made one crawl 7 % faster but cost 40 MB of peak RSS and doubled
 * another team's read p99 (24 → 46 ms): three busy threads on two cores.
 */
export function defaultAnalysisThreads(crawlThreads: number, cores = availableParallelism()): number {
  return Math.max(0, Math.min(crawlThreads - 1, cores - 2));
}

/**
 * Page-analysis threads started on a crawl thread's word when the default starts none (2 cores):
 * one, once pages take ANALYSIS_SHARE_WANTED of a crawl thread's time (analysis-ports.ts), as a
 * site of large pages does and the dense, templated site does not.
 */
export function onDemandAnalysisThreads(crawlThreads: number, cores = availableParallelism()): number {
  return crawlThreads >= 2 && defaultAnalysisThreads(crawlThreads, cores) === 0 ? 1 : 0;
}

/**
 * V8 lets an isolate's young generation grow to 48 MB under a high allocation rate, as a crawl's
 * is, in every thread. 16 MB took 28 MB off the peak RSS of a 20,000-page crawl with 2 threads at
 * no measurable CPU cost; 8 MB saved 48 MB but cost 8 % more CPU; 12 MB took 9 MB off a
 * 200,000-page crawl of the dense site (312 → 303 MB) at the same CPU a page (docs/benchmarks.md).
 */
const CRAWLER_THREAD_LIMITS = { maxYoungGenerationSizeMb: 12 };

/** Starts one of this folder's thread modules (crawl-thread, analysis-thread). */
export function spawnCrawlerThread(module: 'crawl-thread' | 'analysis-thread', name: string): Worker {
  return spawnThread(import.meta.url, `./${module}.ts`, `${module}.js`, name, CRAWLER_THREAD_LIMITS);
}

/** A batch the crawl thread sent, waiting for the store. */
interface QueuedWrite {
  call: number;
  write: SinkBatch;
}

/**
 * Batches written in one transaction at most: the store's connection is held for the whole
 * transaction, and on SQLite every other request waits for it meanwhile.
 */
const MERGED_WRITES = 8;

interface Pending {
  sink: CrawlSink;
  /** The batches sent and not yet written, in the order the thread sent them. */
  queue: QueuedWrite[];
  /** The writing of the queue, while it runs: it ends once the queue is empty. */
  writes: Promise<void>;
  draining: boolean;
  resolve(outcome: CrawlOutcome): void;
  reject(error: unknown): void;
  /** The first error the sink raised: the crawl ends with it. */
  sinkError?: unknown;
}

/** Gives `thread` a port of its own to the page-analysis thread `worker`. */
function wire(worker: Worker, thread: CrawlThread): void {
  const { port1, port2 } = new MessageChannel();
  worker.postMessage({ type: 'port', port: port2 }, [port2]);
  thread.connect(port1);
}

class CrawlThread {
  private readonly worker: Worker;
  private readonly crawls = new Map<number, Pending>();
  private dead: Error | null = null;

  /** `onAnalysisWanted`: the thread said its pages take most of its time (analysis-ports.ts). */
  constructor(private readonly onAnalysisWanted: () => void) {
    this.worker = spawnCrawlerThread('crawl-thread', 'siteaudit-crawl');
    this.worker.unref();
    this.worker.on('message', (message: FromThread) => void this.receive(message));
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => this.fail(new Error(`crawl thread exited with code ${code}`)));
  }

  get load(): number {
    return this.dead ? Infinity : this.crawls.size;
  }

  get alive(): boolean {
    return this.dead === null;
  }

  run(id: number, run: CrawlRun): Promise<CrawlOutcome> {
    if (this.dead) return Promise.reject(this.dead);
    return new Promise<CrawlOutcome>((resolve, reject) => {
      const onAbort = () => this.send({ type: 'abort', crawl: id });
      const settle = () => {
        run.signal.removeEventListener('abort', onAbort);
        this.crawls.delete(id);
        if (this.crawls.size === 0) this.worker.unref();
      };
      this.crawls.set(id, {
        sink: run.sink,
        queue: [],
        writes: Promise.resolve(),
        draining: false,
        resolve: (outcome) => {
          settle();
          resolve(outcome);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      });
      this.worker.ref();
      this.send({ type: 'start', crawl: id, config: run.config, tuning: run.tuning, renderer: run.renderer });
      if (run.signal.aborted) onAbort();
      else run.signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Gives the thread a port to a page-analysis thread. */
  connect(port: MessagePort): void {
    if (!this.dead) this.worker.postMessage({ type: 'analysis-port', port } satisfies ToThread, [port]);
  }

  terminate(): Promise<number> {
    this.fail(abortError(undefined, 'crawl threads closed'));
    return this.worker.terminate();
  }

  private send(message: ToThread): void {
    if (!this.dead) this.worker.postMessage(message);
  }

  private async receive(message: FromThread): Promise<void> {
    if (message.type === 'analysis-wanted') return this.onAnalysisWanted();
    const crawl = this.crawls.get(message.crawl);
    if (!crawl) return;
    switch (message.type) {
      case 'write': {
        crawl.queue.push({ call: message.call, write: { method: message.method, batch: message.batch } as SinkBatch });
        if (!crawl.draining) {
          crawl.draining = true;
          crawl.writes = this.drain(message.crawl, crawl);
        }
        break;
      }
      case 'progress':
        crawl.sink.progress(message.progress);
        break;
      case 'done':
        await crawl.writes;
        crawl.resolve(message.outcome);
        break;
      case 'failed':
        await crawl.writes;
        crawl.reject(crawl.sinkError ?? fromThreadError(message.error));
        break;
    }
  }

  /**
   * Writes a crawl's batches in the order sent (resources before the issues about them, as the
   * crawler emits them), each acknowledged once stored. The batches that arrived while the store
   * wrote the previous ones are written together (`writeMany`: one transaction, one commit), so
   * a store slower than the crawl catches up instead of pacing it one small batch at a time.
   */
  private async drain(id: number, crawl: Pending): Promise<void> {
    try {
      while (crawl.queue.length) {
        let taken = crawl.queue.splice(0, MERGED_WRITES);
        try {
          if (crawl.sinkError) throw crawl.sinkError;
          if (taken.length > 1 && crawl.sink.writeMany) {
            await crawl.sink.writeMany(taken.map((q) => q.write));
          } else {
            while (taken.length) {
              const { call, write } = taken[0];
              await (crawl.sink[write.method] as ((batch: unknown[]) => Promise<void>) | undefined)?.call(crawl.sink, write.batch);
              taken = taken.slice(1);
              this.send({ type: 'ack', crawl: id, call });
            }
          }
          for (const { call } of taken) this.send({ type: 'ack', crawl: id, call });
        } catch (error) {
          crawl.sinkError ??= error;
          for (const { call } of taken) this.send({ type: 'ack', crawl: id, call, error: toThreadError(error) });
        }
      }
    } finally {
      crawl.draining = false;
    }
  }

  /** The thread is gone (a crash, out of memory, closed): its crawls fail, to be run again elsewhere. */
  private fail(error: Error): void {
    if (this.dead) return;
    this.dead = error;
    for (const crawl of [...this.crawls.values()]) crawl.reject(error);
  }
}

export class CrawlThreadPool {
  private threads: CrawlThread[] = [];
  /** Page-analysis threads, shared by every crawl thread, started with the first. */
  private analysis: Worker[] = [];
  private ids = 0;
  private closed = false;
  readonly analysisSize: number;
  /** Page-analysis threads started so far, up front or on demand. */
  private analysisStarted = 0;

  /**
   * `size`: crawl threads at most (0 runs crawls in the calling thread), and `analysisSize`
   * page-analysis threads that the crawl threads hand HTML pages to, so that even one crawl can use
   * a core of its own for them (defaultAnalysisThreads), and `analysisOnDemand` more, started once
   * a crawl thread asks (an analysis thread started so stays for the pool's later crawls).
   */
  constructor(
    readonly size: number = defaultCrawlThreads(),
    /** Page-analysis threads; default defaultAnalysisThreads(size). */
    analysisSize?: number,
    /** Page-analysis threads started later, when a crawl thread asks; default onDemandAnalysisThreads(size), none when `analysisSize` is given. */
    readonly analysisOnDemand: number = analysisSize === undefined ? onDemandAnalysisThreads(size) : 0,
  ) {
    if (!Number.isInteger(size) || size < 0) throw new TypeError(`crawl threads must be a whole number >= 0, got ${size}`);
    if (analysisSize !== undefined && !(Number.isInteger(analysisSize) && analysisSize >= 0)) {
      throw new TypeError(`page-analysis threads must be a whole number >= 0, got ${analysisSize}`);
    }
    this.analysisSize = analysisSize ?? defaultAnalysisThreads(size);
  }

  /** The page-analysis threads running now (started up front, or on demand). */
  get analysisThreads(): number {
    return this.analysis.length;
  }

  /** Runs one crawl to its outcome; rejects as crawlSite does (an AbortError when stopped by shutdown). */
  async run(run: CrawlRun): Promise<CrawlOutcome> {
    if (this.closed) throw abortError(undefined, 'crawl threads closed');
    if (this.size === 0) return this.inProcess(run);
    return this.pick().run(this.ids++, run);
  }

  /** Stops every thread; crawls still running end with an AbortError. */
  async close(): Promise<void> {
    this.closed = true;
    const threads = this.threads;
    const analysis = this.analysis;
    this.threads = [];
    this.analysis = [];
    await Promise.all([...threads.map((t) => t.terminate()), ...analysis.map((w) => w.terminate())]);
  }

  private pick(): CrawlThread {
    this.threads = this.threads.filter((t) => t.alive);
    const idle = this.threads.find((t) => t.load === 0);
    if (idle) return idle;
    if (this.threads.length < this.size) {
      const thread = new CrawlThread(() => this.analysisWanted());
      this.threads.push(thread);
      this.connect(thread);
      return thread;
    }
    return this.threads.reduce((a, b) => (b.load < a.load ? b : a));
  }

  /** Wires a new crawl thread to each page-analysis thread (starting them the first time). */
  private connect(thread: CrawlThread): void {
    if (this.analysis.length === 0) for (let i = 0; i < this.analysisSize; i++) this.startAnalysisThread();
    for (const worker of this.analysis) wire(worker, thread);
  }

  /** A crawl thread's pages take most of its time: one more page-analysis thread, if the pool starts them on demand. */
  private analysisWanted(): void {
    if (this.closed || this.analysisStarted >= this.analysisSize + this.analysisOnDemand) return;
    const worker = this.startAnalysisThread();
    for (const thread of this.threads) if (thread.alive) wire(worker, thread);
  }

  private startAnalysisThread(): Worker {
    this.analysisStarted++;
    const worker = spawnCrawlerThread('analysis-thread', 'siteaudit-page-analysis');
    // Never what keeps the process alive; a thread that ends is dropped (crawl threads then analyse pages themselves).
    worker.unref();
    worker.on('error', () => undefined);
    worker.on('exit', () => (this.analysis = this.analysis.filter((w) => w !== worker)));
    this.analysis.push(worker);
    return worker;
  }

  private async inProcess(run: CrawlRun): Promise<CrawlOutcome> {
    const renderer = run.renderer ? createRenderer(run.renderer) : undefined;
    try {
      return await crawlSite(run.config, run.sink, { signal: run.signal, renderer, tuning: run.tuning });
    } finally {
      await renderer?.close();
    }
  }
}
