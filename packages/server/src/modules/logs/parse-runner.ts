/**
 * Runs one import's parse session in a thread of its own (started for it, ended after it), or on
 * this thread when threads are off (`logs.threads: false`, the tests' in-process case). Several
 * imports parse at once on as many threads as the job runner runs jobs.
 */
import type { Worker } from 'node:worker_threads';
import { spawnThread } from '../../threads/spawn.js';
import { createParseSession, type Lookup, type ParseRequest, type ParseStep } from './parse-session.js';
import type { ParseMessage, ThreadMessage } from './parse-thread.js';

/**
 * The parse thread's heap. What it keeps is bounded by the spills (parse-session.ts): tens of MB.
 * Left to Node's defaults, V8 lets a heap grow to several times what it keeps before a full
 * collection (docs/benchmarks.md, "Log import"); a smaller old generation makes it collect
 * sooner, and a smaller young one is enough for a parse's short-lived strings. Past the limit
 * the thread ends and the import fails, which is what a log that would need more should do,
 * rather than take the server's memory.
 */
const PARSE_THREAD_LIMITS = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 24 };

/** How long a stopped parse thread is given to close its file before it is ended. */
const STOP_WAIT_MS = 2_000;

export interface ParseRun {
  /** The next batch of rows to write, or the summary once all are out; one call at a time. */
  next(): Promise<ParseStep>;
  close(): Promise<void>;
}

/** `lookup` answers the reverse-DNS questions the parse asks, on this thread. */
export function startParse(request: ParseRequest, useThread: boolean, lookup: Lookup): ParseRun {
  if (!useThread) {
    const session = createParseSession(request, lookup);
    return {
      next: () => session.next(),
      close: async () => {
        session.close();
        await session.finished;
      },
    };
  }
  const worker: Worker = spawnThread(import.meta.url, './parse-thread.ts', 'log-parse-thread.js', 'siteaudit-log-parse', PARSE_THREAD_LIMITS);
  const send = (message: ParseMessage) => worker.postMessage(message);
  let failure: Error | null = null;
  let waiting: ((answer: { ok: true; value: unknown } | { ok: false; message: string }) => void) | null = null;
  const fail = (error: Error) => {
    failure ??= error;
    waiting?.({ ok: false, message: error.message });
    waiting = null;
  };
  let stopped: (() => void) | null = null;
  let closing: Promise<void> | null = null;
  worker.on('message', (message: ThreadMessage) => {
    if (message.kind === 'stopped') return stopped?.();
    if (message.kind === 'lookup') {
      const { ip, operator } = message;
      void lookup(ip, operator)
        .catch(() => false)
        .then((verified) => failure === null && send({ step: 'verdict', ip, verified }));
      return;
    }
    const resolve = waiting;
    waiting = null;
    resolve?.(message);
  });
  worker.once('error', fail);
  const exited = (code: number) => fail(new Error(`log parse thread exited with code ${code}`));
  worker.once('exit', exited);
  send({ step: 'start', request });
  return {
    next: () =>
      new Promise<ParseStep>((resolve, reject) => {
        if (failure) return reject(failure);
        waiting = (answer) => (answer.ok ? resolve(answer.value as ParseStep) : reject(new Error(answer.message)));
        send({ step: 'next' });
      }),
    // Once (a deletion and the job both close it); the job's call waits for the deletion's.
    close: () => (closing ??= stop()),
  };

  async function stop(): Promise<void> {
    const running = failure === null;
    fail(new Error('log parse closed'));
    worker.off('exit', exited);
    if (running) {
      // The thread closes its file first (a descriptor left open would keep a deleted upload's
      // bytes on disk); a thread stuck elsewhere is ended all the same after a moment.
      await new Promise<void>((resolve) => {
        stopped = resolve;
        setTimeout(resolve, STOP_WAIT_MS).unref();
        send({ step: 'stop' });
      });
    }
    await worker.terminate();
  }
}
