/**
 * One import's parse, wherever it runs (a parse thread, or the calling thread when threads are
 * off), handing out rows for the store as it goes (docs/decisions/logs.md, "Memory"):
 *
 * - Every `spillAt` URL statistics, the aggregate is spilled: those statistics become rows, which
 *   the store adds to what earlier parts wrote (store.ts, `writeRows`). Memory holds at most the
 *   part being stored and the part being counted, whatever the file's size.
 * - The parse waits while the previous part is still being stored: it never runs ahead of the
 *   store by more than one part, and the job asks for one batch at a time.
 * - Crawler claims outside the published ranges (Apple's, Yandex's and Baidu's: all) are looked up while the parse goes on
 *   (`lookup`, on the API thread, at most MAX_REVERSE_LOOKUPS addresses); an answer settles that
 *   address's claims, so claims do not wait in memory for the end of the file.
 */
import { createLogAggregator, type ClaimVerdict, type VerifiedOperator } from '@siteaudit/schema/rules';
import { publishedRangeCheck } from './bot-ranges.js';
import { parseLogFile } from './parse-file.js';
import { MAX_REVERSE_LOOKUPS } from './reverse-dns.js';
import { dayStatRows, summaryOf, urlStatRows, type LogSummary, type RowBatch } from './store.js';

/**
 * URL statistics held before the aggregate is spilled (about 350 bytes each, a long path counting
 * as several: `heldSettled`): about 17 MB a part. Smaller parts write a few more rows (a URL met
 * in two parts is written twice): 1.06 million rows instead of 0.99 for the 624,501 statistics of
 * bench/logs's 5,000,000 lines at 50,000 against 100,000.
 */
export const SPILL_AT = 50_000;

export interface ParseRequest {
  file: string;
  importId: string;
  projectId: string;
  /** URL statistics held before a spill (default SPILL_AT; tests set it small). */
  spillAt?: number;
  /** The operators whose claims are checked (the aggregator's `operators`): with reverse DNS off, only those with published ranges. */
  operators?: readonly VerifiedOperator[];
}

/** What the job receives: a batch of rows to write, or, after the last one, the import's summary. */
export type ParseStep = { batch: RowBatch } | { done: LogSummary };

/** Which of an address's claims pass reverse DNS (the job's resolver). */
export type Lookup = (ip: string, operator: VerifiedOperator) => Promise<ClaimVerdict>;

export function createParseSession(request: ParseRequest, lookup: Lookup) {
  const spillAt = request.spillAt ?? SPILL_AT;
  const lookups = new Set<Promise<void>>();
  const aggregator = createLogAggregator(publishedRangeCheck(), {
    maxClaims: MAX_REVERSE_LOOKUPS,
    operators: request.operators,
    onClaim(ip, operator) {
      const answer: Promise<void> = lookup(ip, operator)
        .catch(() => false)
        .then((verdict) => {
          aggregator.decide(ip, verdict);
          lookups.delete(answer);
        });
      lookups.add(answer);
    },
  });

  /** The part being stored, a batch per `next`; the parse waits for it to be taken before offering another. */
  let part: Generator<RowBatch> | null = null;
  let summary: LogSummary | null = null;
  let failure: unknown = null;
  let closed = false;
  /** Whoever waits (the parse for the slot, `next` for a part): woken on every change. */
  let waiters: (() => void)[] = [];
  const changed = () => {
    const woken = waiters;
    waiters = [];
    for (const wake of woken) wake();
  };
  const change = () => new Promise<void>((resolve) => waiters.push(resolve));
  /** Settles when the session is closed: a wait for reverse-DNS answers ends there too. */
  let onClose = () => {};
  const closing = new Promise<void>((resolve) => (onClose = resolve));
  const answered = () => Promise.race([Promise.all(lookups), closing]);

  async function offer(rows: Generator<RowBatch>): Promise<void> {
    while (part && !closed) await change();
    if (closed) throw new Error('log parse closed');
    part = rows;
    changed();
  }

  const pause = {
    due: () => closed || aggregator.heldSettled() >= spillAt || aggregator.heldPending() >= spillAt,
    async run(): Promise<void> {
      if (closed) throw new Error('log parse closed');
      // Claims waiting for an answer hold memory too: past the threshold, wait for the answers.
      if (aggregator.heldPending() >= spillAt) await answered();
      if (closed) throw new Error('log parse closed');
      if (aggregator.heldSettled() >= spillAt) await offer(urlStatRows(aggregator.spill(), request.importId, request.projectId));
    },
  };

  const finished = (async () => {
    try {
      await parseLogFile(request.file, aggregator, pause);
      // No claim can start after the last line; every one ends settled, verified or not.
      await answered();
      if (closed) throw new Error('log parse closed');
      await offer(urlStatRows(aggregator.spill(), request.importId, request.projectId));
      await offer(dayStatRows(aggregator.dayEntries(), request.importId, request.projectId));
      while (part && !closed) await change();
      summary = summaryOf(aggregator.aggregate);
    } catch (error) {
      failure = error;
    }
    changed();
  })();

  return {
    /** The next batch of rows, or the summary once all are out. */
    async next(): Promise<ParseStep> {
      for (;;) {
        if (part) {
          const next = part.next();
          if (!next.done) return { batch: next.value };
          part = null;
          changed();
          continue;
        }
        if (failure) throw failure;
        if (summary) return { done: summary };
        await change();
      }
    },
    /** Stops a parse whose rows are no longer wanted (a failed write, its import deleted): the file is closed. */
    close(): void {
      closed = true;
      onClose();
      changed();
    },
    /** Settles once the parse has stopped reading, its file closed (after `close`, at its next line). */
    finished,
  };
}

export type ParseSession = ReturnType<typeof createParseSession>;
