/** Handler outputs turned into answers: JSON, a cursor page, a download, nothing. */
import type { ContractEntry } from '../contract.js';
import { ApiError } from './problem.js';
import type { Answer, CallerFacts, FileOutput, JsonOutput, ListOutput, PipelineContext, PipelinePorts } from './ports.js';

/** The page size of a list call without `limit`. */
export const DEFAULT_PAGE_SIZE = 25;
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
const JSON_TYPE = /^application\/([a-z.+-]*\+)?json\s*(;|$)/i;

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The JSON body of a request, undefined when empty; 415 when not JSON, 400 when malformed, bytes
 * that are no UTF-8 included (RFC 8259 §8.1: they were read as U+FFFD and stored so).
 */
export function parseJsonBody(body: Uint8Array | string | undefined, contentType: string | undefined): unknown {
  if (body === undefined || body.length === 0) return undefined;
  if (!JSON_TYPE.test(contentType ?? '')) throw new ApiError('request.unsupported_media_type');
  try {
    return JSON.parse(typeof body === 'string' ? body : UTF8.decode(body));
  } catch {
    throw new ApiError('request.malformed_json');
  }
}

/** `Content-Disposition` of a download; quotes, backslashes and line breaks cannot end the name. */
export function attachment(filename: string): string {
  return `attachment; filename="${filename.replace(/["\\\r\n]/g, '_')}"`;
}

export function toAnswer<C extends CallerFacts, S>(
  op: ContractEntry,
  output: unknown,
  ctx: PipelineContext<C>,
  query: Record<string, unknown>,
  params: Record<string, unknown>,
  ports: Pick<PipelinePorts<C, S, never>, 'cursors' | 'validateResponses'>,
): Answer<S> {
  switch (op.kind) {
    case 'empty':
      return { status: op.status, body: null, headers: {} };
    case 'file': {
      const { file } = output as FileOutput<S>;
      const headers: Record<string, string> = { 'Content-Type': file.contentType, 'Content-Disposition': attachment(file.filename) };
      const size = file.size ?? file.bytes?.byteLength;
      if (size !== undefined) headers['Content-Length'] = String(size);
      if (file.etag) headers.ETag = file.etag;
      return { status: op.status, body: file.bytes ?? null, headers, stream: file.stream };
    }
    case 'list': {
      const { items, key, map } = output as ListOutput;
      const limit = ctx.page.limit;
      const page = items.slice(0, limit);
      const hasMore = items.length > limit;
      const nextCursor = hasMore && page.length > 0 ? ports.cursors.encode(op.id, ctx.caller.teamId, query, key(page[page.length - 1]), params) : null;
      const body = { data: map ? page.map(map) : page, meta: { limit, has_more: hasMore, next_cursor: nextCursor } };
      checkResponse(op, body, ports.validateResponses);
      return { status: op.status, body: JSON.stringify(body), headers: { 'Content-Type': JSON_CONTENT_TYPE } };
    }
    default: {
      const out = output as JsonOutput;
      checkResponse(op, out.body, ports.validateResponses);
      return { status: out.status ?? op.status, body: JSON.stringify(out.body), headers: { 'Content-Type': JSON_CONTENT_TYPE, ...out.headers } };
    }
  }
}

function checkResponse(op: ContractEntry, body: unknown, validate: boolean): void {
  if (!validate || !op.response) return;
  const result = op.response.safeParse(body);
  if (!result.success) {
    throw new Error(`Response of ${op.id} does not match the contract: ${JSON.stringify(result.error.issues.slice(0, 5))}`);
  }
}
