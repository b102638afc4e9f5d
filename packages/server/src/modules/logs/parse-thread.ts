/**
 * The parse thread: runs one import's parse session (parse-session.ts) for the job, so no line is
 * parsed and no row built on the thread that answers HTTP. The job asks for one batch at a time;
 * the thread asks the job to look up the addresses reverse DNS must check (the resolver lives there).
 */
import { parentPort } from 'node:worker_threads';
import type { ClaimVerdict, VerifiedOperator } from '@siteaudit/schema/rules';
import { giveWayToRequests } from '../../threads/give-way.js';
import { createParseSession, type ParseRequest, type ParseSession } from './parse-session.js';

/** From the job. */
export type ParseMessage = { step: 'start'; request: ParseRequest } | { step: 'next' } | { step: 'verdict'; ip: string; verified: ClaimVerdict } | { step: 'stop' };
/** To the job. */
export type ThreadMessage = { kind: 'lookup'; ip: string; operator: VerifiedOperator } | { kind: 'stopped' } | { kind: 'answer'; ok: true; value: unknown } | { kind: 'answer'; ok: false; message: string };

// The parse gives way to the API thread: the store, not the parse, sets the import's pace.
giveWayToRequests();

const port = parentPort!;
const post = (message: ThreadMessage) => port.postMessage(message);
const verdicts = new Map<string, (verified: ClaimVerdict) => void>();
let session: ParseSession | null = null;

port.on('message', (message: ParseMessage) => {
  if (message.step === 'start') {
    session = createParseSession(message.request, (ip, operator) => {
      post({ kind: 'lookup', ip, operator });
      return new Promise((resolve) => verdicts.set(ip, resolve));
    });
  } else if (message.step === 'stop') {
    // Stopped from outside (its import deleted): the file is closed before the thread ends, so no
    // descriptor keeps a deleted upload's bytes on disk.
    session?.close();
    void (session?.finished ?? Promise.resolve()).then(() => post({ kind: 'stopped' }));
  } else if (message.step === 'verdict') {
    verdicts.get(message.ip)?.(message.verified);
    verdicts.delete(message.ip);
  } else {
    session!.next().then(
      (value) => post({ kind: 'answer', ok: true, value }),
      (error: unknown) => post({ kind: 'answer', ok: false, message: error instanceof Error ? error.message : String(error) }),
    );
  }
});
