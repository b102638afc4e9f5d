/**
 * What node:http answers on its own, before express sees the request: a header block above
 * `maxHeaderSize` (431) or a request it cannot parse (400). Node would write a bare status line;
 * we write the catalogue's problem, in the default language since the headers were not read.
 */
import type { Duplex } from 'node:stream';
import { buildProblem } from '@siteaudit/schema/rules';
import { newRequestId } from './binder.js';

export function answerClientError(error: Error & { code?: string }, socket: Duplex, problemTypeBase: string): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const requestId = newRequestId();
  const problem = buildProblem(error.code === 'HPE_HEADER_OVERFLOW' ? 'request.headers_too_large' : 'request.malformed', 'fr', { request_id: requestId }, problemTypeBase);
  const body = JSON.stringify(problem);
  socket.end(
    `HTTP/1.1 ${problem.status} ${problem.status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
      'Content-Type: application/problem+json\r\n' +
      'Content-Language: fr\r\n' +
      `X-Request-Id: ${requestId}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}
