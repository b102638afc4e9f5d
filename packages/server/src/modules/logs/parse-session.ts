/**
 * One import's parse, wherever it runs (a parse thread, or the calling thread when threads are
 * off): parse the file, hand out the claims that need reverse DNS, settle them, then give the
 * rows to store a batch at a time. The aggregate never leaves the thread that built it: the API
 * thread receives a few hundred addresses and batches of ready rows (docs/decisions/logs.md).
 */
import type { LogAggregator, VerifiedOperator } from '@siteaudit/schema/rules';
import { parseLogFile } from './parse-file.js';
import { MAX_REVERSE_LOOKUPS } from './reverse-dns.js';
import { aggregateRows, summaryOf, type LogSummary, type RowBatch } from './store.js';

export interface ParseRequest {
  file: string;
  importId: string;
  projectId: string;
}

export interface Parsed {
  summary: LogSummary;
  /** Claims outside the published ranges, as many as reverse DNS will look up. */
  claims: [string, VerifiedOperator][];
}

export function createParseSession() {
  let aggregator: LogAggregator | null = null;
  let batches: Generator<RowBatch> | null = null;
  return {
    async parse(request: ParseRequest): Promise<Parsed> {
      aggregator = await parseLogFile(request.file);
      batches = null;
      return { summary: summaryOf(aggregator.aggregate), claims: aggregator.claims(MAX_REVERSE_LOOKUPS) };
    },
    /** Settles the claims (`verified` passed reverse DNS, every other one is unverified). */
    settle(request: ParseRequest, verified: readonly string[]): void {
      aggregator!.settle(new Set(verified));
      batches = aggregateRows(aggregator!, request.importId, request.projectId);
    },
    /** The next batch of rows, or null when all are out. */
    next(): RowBatch | null {
      const next = batches!.next();
      if (!next.done) return next.value;
      aggregator = null;
      return null;
    },
  };
}

export type ParseSession = ReturnType<typeof createParseSession>;
