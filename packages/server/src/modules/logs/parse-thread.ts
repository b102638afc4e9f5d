/**
 * The parse thread: parses one file per message and posts the aggregate back (a structured clone
 * of its maps), so no line is ever parsed on the thread that answers HTTP.
 */
import { parentPort } from 'node:worker_threads';
import { parseLogFile } from './parse-file.js';

parentPort!.on('message', (message: { file: string }) => {
  parseLogFile(message.file).then(
    (aggregate) => parentPort!.postMessage({ ok: true, aggregate }),
    (error: unknown) => parentPort!.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) }),
  );
});
