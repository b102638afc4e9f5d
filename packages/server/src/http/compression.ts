/**
 * gzip of the API's JSON answers and OpenAPI documents, when the caller accepts it
 * (docs/decisions/compression.md): a page of 100 crawled pages is 38 KB of JSON and 5 KB gzipped.
 * Files (PDF, XLSX: already compressed) and small answers go as they are.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';

/** Below this, gzip's framing and the CPU cost more than the bytes they save. */
export const COMPRESS_MIN_BYTES = 1024;
/**
 * zlib level 4: that 38 KB list in 0.23 ms, 7.4× smaller; level 6 took 0.38 ms for 7.9×. On the
 * thread that answers HTTP, synchronously: every answer is bounded (a page of a list), and zlib's
 * asynchronous form would queue behind SQLite's writes on libuv's threads.
 */
const LEVEL = 4;

/** Whether `Accept-Encoding` accepts gzip (RFC 9110 §12.5.3): named with a weight above 0, or `*` with one and gzip not refused. */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  if (typeof header !== 'string' || header === '') return false;
  let anything = false;
  for (const part of header.split(',')) {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const accepted = q === undefined || Number(q.slice(2)) > 0;
    if (coding === 'gzip' || coding === 'x-gzip') return accepted;
    if (coding === '*') anything = accepted;
  }
  return anything;
}

/** The body to send for `req`: gzipped, with `Content-Encoding: gzip`, when accepted and worth it; else as it is. */
export function encodeBody(req: IncomingMessage, res: ServerResponse, body: string | Uint8Array): string | Uint8Array {
  // A HEAD answer has no body: its Content-Length stays that of the identity encoding.
  if (req.method === 'HEAD' || body.length < COMPRESS_MIN_BYTES || !acceptsGzip(req.headers['accept-encoding'])) return body;
  res.setHeader('Content-Encoding', 'gzip');
  return gzipSync(body, { level: LEVEL });
}
