/**
 * The parse thread: runs one import's parse session (parse-session.ts) on messages from the job,
 * so no line is parsed and no row built on the thread that answers HTTP.
 */
import { parentPort } from 'node:worker_threads';
import { createParseSession, type ParseRequest } from './parse-session.js';

export type ParseMessage = { step: 'parse'; request: ParseRequest } | { step: 'settle'; request: ParseRequest; verified: string[] } | { step: 'next' };

const session = createParseSession();

parentPort!.on('message', (message: ParseMessage) => {
  const answer = async () => {
    if (message.step === 'parse') return session.parse(message.request);
    if (message.step === 'settle') return session.settle(message.request, message.verified);
    return session.next();
  };
  answer().then(
    (value) => parentPort!.postMessage({ ok: true, value }),
    (error: unknown) => parentPort!.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) }),
  );
});
