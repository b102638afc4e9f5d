/**
 * A crawl thread's way to the page-analysis threads: a page goes, body moved (not copied), to the
 * analysis thread with the fewest pages waiting, or is analysed right here when every one already
 * has QUEUED_PER_THREAD waiting (or there is none): the crawl thread then works instead of waiting,
 * so one crawl keeps every core busy without a thread idling behind another.
 */
import type { MessagePort } from 'node:worker_threads';
import { analyseHtml, type AnalysisRequest, type PageAnalyser, type PageAnalysis } from '../crawler/index.js';
import { fromThreadError, type AnalysisAnswer, type AnalysisAsk } from './protocol.js';

/** Pages waiting per analysis thread before the crawl thread analyses the next one itself. */
const QUEUED_PER_THREAD = 2;

interface Peer {
  port: MessagePort;
  waiting: Map<number, { resolve(analysis: PageAnalysis): void; reject(error: Error): void }>;
}

export class AnalysisPorts implements PageAnalyser {
  private readonly peers: Peer[] = [];
  private ids = 0;

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
    if (!peer) return analyseHtml(request);
    const chosen = peer;
    const id = this.ids++;
    return new Promise<PageAnalysis>((resolve, reject) => {
      chosen.waiting.set(id, { resolve, reject });
      chosen.port.ref();
      const ask: AnalysisAsk = { id, request };
      chosen.port.postMessage(ask, [request.body.buffer as ArrayBuffer]);
    });
  }
}
