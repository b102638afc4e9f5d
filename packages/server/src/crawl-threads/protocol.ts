/**
 * Messages between the crawl pool (the process's main thread) and a crawl thread. Everything
 * crossing is plain data (structured clone): the crawl's config and outcome, and the sink's
 * batches, which the main thread writes to the store and acknowledges.
 */
import type { MessagePort } from 'node:worker_threads';
import { PatternError, type PatternProblem } from '@siteaudit/schema/rules';
import type { RendererOptions } from '../rendering/renderer.js';
import type { AnalysisRequest, PageAnalysis } from '../crawler/index.js';
import type { CrawlConfig, CrawlOutcome, CrawlTuning, SinkBatch } from '../crawler/index.js';

/** The sink calls that write (awaited across threads); `progress` is sent without an answer. */
export type SinkWrite = SinkBatch['method'];
export const SINK_WRITES: readonly SinkWrite[] = ['pages', 'issues', 'resources'];

/** An error as it crosses a thread: enough to tell an abort from a failure and to log it. */
export interface ThreadError {
  name: string;
  message: string;
  stack?: string;
  /** A campaign pattern the rules refuse (PatternError): the crawl fails with its own code. */
  pattern?: PatternProblem;
}

export type ToThread =
  /** A port to a page-analysis thread (sent once per analysis thread, before any crawl). */
  | { type: 'analysis-port'; port: MessagePort }
  | { type: 'start'; crawl: number; config: CrawlConfig; tuning?: Partial<CrawlTuning>; renderer: RendererOptions | null }
  | { type: 'abort'; crawl: number }
  | { type: 'ack'; crawl: number; call: number; error?: ThreadError };

export type FromThread =
  | { type: 'write'; crawl: number; call: number; method: SinkWrite; batch: unknown[] }
  /** The thread spends most of its time analysing pages: a page-analysis thread would share it (analysis-ports.ts). */
  | { type: 'analysis-wanted'; crawl?: undefined }
  | { type: 'progress'; crawl: number; progress: { crawled: number; discovered: number } }
  | { type: 'done'; crawl: number; outcome: CrawlOutcome }
  | { type: 'failed'; crawl: number; error: ThreadError };

export function toThreadError(error: unknown): ThreadError {
  if (error instanceof PatternError) return { name: error.name, message: error.message, pattern: error.problem };
  if (error instanceof Error || (typeof error === 'object' && error !== null && 'message' in error)) {
    const e = error as Error;
    return { name: String(e.name ?? 'Error'), message: String(e.message), stack: typeof e.stack === 'string' ? e.stack : undefined };
  }
  return { name: 'Error', message: String(error) };
}

/** The error on this side of the thread boundary; an AbortError stays one (src/abort.ts). */
export function fromThreadError(error: ThreadError): Error {
  if (error.name === 'AbortError') return new DOMException(error.message, 'AbortError');
  if (error.pattern) return new PatternError(error.pattern);
  const out = new Error(error.message);
  out.name = error.name;
  if (error.stack) out.stack = error.stack;
  return out;
}

/** A page for a page-analysis thread, over the port between it and a crawl thread. */
export interface AnalysisAsk {
  id: number;
  request: AnalysisRequest;
}

export type AnalysisAnswer = { id: number; analysis: PageAnalysis; error?: undefined } | { id: number; error: ThreadError; analysis?: undefined };
