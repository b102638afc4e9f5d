/**
 * Runs the parsing of one file in a thread of its own (started for it, ended after it), or on
 * this thread when threads are off (`logThreads: 0`, the tests' in-process case). Several imports
 * parse at once on as many threads as the job runner runs jobs.
 */
import type { LogAggregate } from '@siteaudit/schema/rules';
import { spawnThread } from '../../threads/spawn.js';
import { parseLogFile } from './parse-file.js';

export function parseInThread(file: string, useThread: boolean): Promise<LogAggregate> {
  if (!useThread) return parseLogFile(file);
  const worker = spawnThread(import.meta.url, './parse-thread.ts', 'log-parse-thread.js', 'siteaudit-log-parse');
  return new Promise<LogAggregate>((resolve, reject) => {
    worker.once('message', (message: { ok: true; aggregate: LogAggregate } | { ok: false; message: string }) => {
      void worker.terminate();
      if (message.ok) resolve(message.aggregate);
      else reject(new Error(message.message));
    });
    worker.once('error', (error) => {
      void worker.terminate();
      reject(error);
    });
    worker.once('exit', (code) => reject(new Error(`log parse thread exited with code ${code}`)));
    worker.postMessage({ file });
  });
}
