/**
 * A crawl thread's way to the page-analysis threads: a page goes, body moved (not copied), to the
 * analysis thread with the fewest pages waiting, or is analysed right here when every one already
 * has QUEUED_PER_THREAD waiting (or there is none): the crawl thread then works instead of waiting,
 * so one crawl keeps every core busy without a thread idling behind another.
 */
import { performance } from 'node:perf_hooks';
import type { MessagePort } from 'node:worker_threads';
import { analyseHtml, type AnalysisRequest, type PageAnalyser, type PageAnalysis } from '../crawler/index.js';
import { fromThreadError, type AnalysisAnswer, type AnalysisAsk } from './protocol.js';

/** Pages waiting per analysis thread before the crawl thread analyses the next one itself. */
const QUEUED_PER_THREAD = 2;

/** Pages analysed here between two looks at the share of the thread's time they took. */
const SHARE_WINDOW = 1024;
/**
 * The share of the crawl thread's active time spent analysing pages from which a page-analysis
 * thread pays for itself on 2 cores. Measured over windows of 256 pages (docs/benchmarks.md, "A
 * page-analysis thread when the pages ask for one"): the shop's pages (large) took 0.52–0.64 of it
 * (tenth percentile to max) and crawl 10–13 % faster with one; the dense site's (small) 0.35–0.47,
 * and crawl no faster, for 32 MB more.
 */
export const ANALYSIS_SHARE_WANTED = 0.5;

/** Whether pages that took `analysedMs` of the thread's `activeMs` call for a page-analysis thread. */
export function wantsAnalysisThread(analysedMs: number, activeMs: number): boolean {
  return activeMs > 0 && analysedMs / activeMs >= ANALYSIS_SHARE_WANTED;
}

interface Peer {
  port: MessagePort;
  waiting: Map<number, { resolve(analysis: PageAnalysis): void; reject(error: Error): void }>;
}

export class AnalysisPorts implements PageAnalyser {
  private readonly peers: Peer[] = [];
  private ids = 0;
  /** Time spent analysing pages here since the window's start, and the pages. */
  private analysedMs = 0;
  private analysedHere = 0;
  private window = performance.eventLoopUtilization();

  /**
   * `onHeavy`, when given, is called once if pages analysed here (with no analysis thread to
   * share them) take ANALYSIS_SHARE_WANTED of the thread's active time over a window.
   */
  constructor(private onHeavy: (() => void) | null = null) {}

  add(port: MessagePort): void {
    const peer: Peer = { port, waiting: new Map() };
    port.on('message', (answer: AnalysisAnswer) => {
      const waiter = peer.waiting.get(answer.id);
      peer.waiting.delete(answer.id);
      if (peer.waiting.size === 0) port.unref();
      if (answer.error) waiter?.reject(fromThreadError(answer.error));
      else waiter?.resolve(answer.analysis!);
    });
    // The analysis thread is gone (a crash, the pool closed): its pages fail, later ones stay here.
    port.on('close', () => {
      const at = this.peers.indexOf(peer);
      if (at >= 0) this.peers.splice(at, 1);
      for (const waiter of peer.waiting.values()) waiter.reject(new Error('page-analysis thread ended'));
      peer.waiting.clear();
    });
    port.unref();
    this.peers.push(peer);
  }

  async analyse(request: AnalysisRequest): Promise<PageAnalysis> {
    let peer: Peer | null = null;
    for (const p of this.peers) if (p.waiting.size < QUEUED_PER_THREAD && (!peer || p.waiting.size < peer.waiting.size)) peer = p;
    if (!peer) return this.analyseHere(request);
    const chosen = peer;
    const id = this.ids++;
    return new Promise<PageAnalysis>((resolve, reject) => {
      chosen.waiting.set(id, { resolve, reject });
      chosen.port.ref();
      const ask: AnalysisAsk = { id, request };
      chosen.port.postMessage(ask, [request.body.buffer as ArrayBuffer]);
    });
  }

  private analyseHere(request: AnalysisRequest): PageAnalysis {
    if (!this.onHeavy || this.peers.length > 0) return analyseHtml(request);
    const started = performance.now();
    try {
      return analyseHtml(request);
    } finally {
      this.analysedMs += performance.now() - started;
      if (++this.analysedHere >= SHARE_WINDOW) this.lookAtShare();
    }
  }

  private lookAtShare(): void {
    const { active } = performance.eventLoopUtilization(this.window);
    if (wantsAnalysisThread(this.analysedMs, active)) {
      const ask = this.onHeavy!;
      this.onHeavy = null;
      ask();
    }
    this.window = performance.eventLoopUtilization();
    this.analysedMs = 0;
    this.analysedHere = 0;
  }
}
