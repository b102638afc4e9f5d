/**
 * A page-analysis thread (worker_threads): analyses HTML pages (page-analysis.ts) for the crawl
 * threads of the process. Each crawl thread talks to it over a port of its own (pool.ts wires
 * them), so the thread that answers HTTP never relays a page.
 */
import { parentPort, type MessagePort } from 'node:worker_threads';
import { analyseHtml } from '../crawler/index.js';
import { toThreadError, type AnalysisAnswer, type AnalysisAsk } from './protocol.js';

const port = parentPort;
if (!port) throw new Error('analysis-thread.ts runs as a worker thread (crawl-threads/pool.ts)');

port.on('message', (message: { type: 'port'; port: MessagePort }) => {
  const crawlThread = message.port;
  crawlThread.on('message', ({ id, request }: AnalysisAsk) => {
    let answer: AnalysisAnswer;
    try {
      answer = { id, analysis: analyseHtml(request) };
    } catch (error) {
      answer = { id, error: toThreadError(error) };
    }
    crawlThread.postMessage(answer);
  });
});
