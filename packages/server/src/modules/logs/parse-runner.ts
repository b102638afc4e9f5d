/**
 * Runs one import's parse session in a thread of its own (started for it, ended after it), or on
 * this thread when threads are off (`logs.threads: false`, the tests' in-process case). Several
 * imports parse at once on as many threads as the job runner runs jobs.
 */
import type { Worker } from 'node:worker_threads';
import { spawnThread } from '../../threads/spawn.js';
import { createParseSession, type Parsed, type ParseRequest } from './parse-session.js';
import type { ParseMessage } from './parse-thread.js';
import type { RowBatch } from './store.js';

export interface ParseRun {
  parse(): Promise<Parsed>;
  settle(verified: ReadonlySet<string>): Promise<void>;
  next(): Promise<RowBatch | null>;
  close(): Promise<void>;
}

export function startParse(request: ParseRequest, useThread: boolean): ParseRun {
  if (!useThread) {
    const session = createParseSession();
    return {
      parse: () => session.parse(request),
      settle: async (verified) => session.settle(request, [...verified]),
      next: async () => session.next(),
      close: async () => undefined,
    };
  }
  const worker: Worker = spawnThread(import.meta.url, './parse-thread.ts', 'log-parse-thread.js', 'siteaudit-log-parse');
  let failure: Error | null = null;
  let waiting: ((answer: { ok: true; value: unknown } | { ok: false; message: string }) => void) | null = null;
  const fail = (error: Error) => {
    failure ??= error;
    waiting?.({ ok: false, message: error.message });
    waiting = null;
  };
  worker.on('message', (answer) => {
    const resolve = waiting;
    waiting = null;
    resolve?.(answer);
  });
  worker.once('error', fail);
  worker.once('exit', (code) => fail(new Error(`log parse thread exited with code ${code}`)));
  const call = <T>(message: ParseMessage): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (failure) return reject(failure);
      waiting = (answer) => (answer.ok ? resolve(answer.value as T) : reject(new Error(answer.message)));
      worker.postMessage(message);
    });
  return {
    parse: () => call<Parsed>({ step: 'parse', request }),
    settle: (verified) => call<void>({ step: 'settle', request, verified: [...verified] }),
    next: () => call<RowBatch | null>({ step: 'next' }),
    close: async () => {
      worker.removeAllListeners('exit');
      await worker.terminate();
    },
  };
}
