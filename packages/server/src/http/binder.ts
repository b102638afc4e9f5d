/**
 * The node:http binding of the request pipeline (`createPipeline` of `@siteaudit/schema`, shared
 * with the mock): routes every contract operation, reads the request, hands the pipeline the
 * server's ports (token lookup, rate-limit counters and idempotency records in memory or
 * PostgreSQL, HMAC cursors, the handlers) and writes its answer, streaming a download. It works on
 * node's own request and response, so `listen()` serves the API without entering express
 * (app.ts); inside an express app it is one middleware.
 */
import { hash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import type { Readable } from 'node:stream';
import express from 'express';
import { contract, type ContractEntry, type Language, type OperationId, type ParsedBody, type ParsedParams, type ParsedQuery } from '@siteaudit/schema';
import { decodePathParams, matchOperation, pickLanguage, type PlanCatalogue } from '@siteaudit/schema/rules';
import {
  createPipeline,
  problemAnswer,
  type Answer,
  type FileOutput as PipelineFileOutput,
  type JsonOutput,
  type ListOutput,
  type PipelineRequest,
  type Upload,
} from '@siteaudit/schema/pipeline';
import type { Authenticator } from './auth.js';
import type { Caller, RequestContext } from './context.js';
import type { CursorCodec } from './cursor.js';
import { ApiError } from './errors.js';
import { fingerprint, type IdempotencyStore } from './idempotency.js';
import type { RateLimiter } from './rate-limit.js';
import { facts } from './request-log.js';
import { encodeBody } from './compression.js';

export type { JsonOutput, ListOutput };
export type FileOutput = PipelineFileOutput<Readable>;

export interface Input<K extends OperationId> {
  params: ParsedParams<K>;
  query: ParsedQuery<K>;
  body: ParsedBody<K>;
  /** An upload operation's body, received to a file before the handler runs (set for those only). */
  upload?: ReceivedUpload;
}

/** An upload read whole to a staging file (`receiveUpload`), with its size and digest. */
export interface ReceivedUpload extends Upload<Readable> {
  /** The staging file: the handler renames it to keep it, else it is removed after the answer. */
  file: string;
  digest: string;
}

type OutputOf<K extends OperationId> = (typeof contract)[K]['kind'] extends 'list'
  ? ListOutput
  : (typeof contract)[K]['kind'] extends 'empty'
    ? void
    : (typeof contract)[K]['kind'] extends 'file'
      ? FileOutput
      : JsonOutput;

export type Handler<K extends OperationId> = (ctx: RequestContext, input: Input<K>) => Promise<OutputOf<K>>;
export type Handlers = { [K in OperationId]: Handler<K> };

export interface BinderDeps {
  authenticator: Authenticator;
  rateLimiter: RateLimiter;
  idempotency: IdempotencyStore;
  cursors: CursorCodec;
  plans: () => PlanCatalogue;
  clock: () => Date;
  /** Where problem `type` URLs point (`problemTypeBase(docsUrl)`). */
  problemTypeBase: string;
  /** Check every response body against the contract (tests, development). */
  validateResponses: boolean;
  /** Reads an upload operation's body to a file before its idempotency claim (the logs module). */
  receiveUpload?: (caller: Caller, params: { project: string }, upload: Upload<Readable>) => Promise<ReceivedUpload>;
  /** An unexpected error (answered 500), or with `warning` one that did not fail the request. */
  onError: (error: unknown, req: IncomingMessage, res: ServerResponse, warning?: string) => void;
}

type Reply = Answer<Readable>;

/** An unread upload body up to this size is drained to keep the connection; a larger one closes it. */
const UNREAD_UPLOAD_DRAIN_BYTES = 1 << 20;

/** The pipeline's request, with node's request and response for the address, the facts and the log. */
interface NodeRequest extends PipelineRequest {
  req: IncomingMessage;
  res: ServerResponse;
}

/** A layer on node's request and response: it answers, or calls `next` to leave the request to express. */
export type NodeLayer = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

export function requestLanguage(req: IncomingMessage): Language {
  return pickLanguage(req.headers['accept-language']);
}

/**
 * Path and query string of a request target, without a fragment a client sent by mistake (as
 * express's own parser drops it); an absolute-form target (`GET http://host/v1/…`) too.
 */
export function splitTarget(url: string): { path: string; search: string } {
  const fragment = url.indexOf('#');
  if (fragment !== -1) url = url.slice(0, fragment);
  if (url[0] !== '/') {
    try {
      const parsed = new URL(url);
      return { path: parsed.pathname, search: parsed.search.slice(1) };
    } catch {
      return { path: url, search: '' };
    }
  }
  const q = url.indexOf('?');
  return q === -1 ? { path: url, search: '' } : { path: url.slice(0, q), search: url.slice(q + 1) };
}

/** The client's address: express's `req.ip` honours the embedding app's `trust proxy`. */
function clientAddress(req: IncomingMessage): string | undefined {
  return (req as IncomingMessage & { ip?: string }).ip ?? req.socket.remoteAddress;
}

type ErrorDeps = Pick<BinderDeps, 'onError' | 'problemTypeBase'>;

/** An unexpected failure outside the pipeline: logged, and answered 500 if nothing was sent yet. */
export function answerFailure(deps: ErrorDeps, req: IncomingMessage, res: ServerResponse, error: unknown): void {
  deps.onError(error, req, res);
  sendProblem(res, new ApiError('internal_error'), req, deps.problemTypeBase);
}

/** An error of the body parser: 413 or 400 for a body it gave up on (too large, unreadable), else a failure. */
export function answerBodyError(deps: ErrorDeps, req: IncomingMessage, res: ServerResponse, error: unknown): void {
  const { type, status } = (error ?? {}) as { type?: string; status?: number };
  if (type === 'entity.too.large') return sendProblem(res, new ApiError('request.too_large'), req, deps.problemTypeBase);
  if (status && status < 500) return sendProblem(res, new ApiError('request.malformed_json'), req, deps.problemTypeBase);
  answerFailure(deps, req, res, error);
}

/** Writes a problem outside the pipeline (body parser, unexpected failure), unless an answer began. */
function sendProblem(res: ServerResponse, error: ApiError, req: IncomingMessage, typeBase: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const reply = problemReply(error, requestLanguage(req), (res.getHeader('X-Request-Id') as string | undefined) ?? newRequestId(), typeBase);
  res.writeHead(reply.status, reply.headers).end(reply.body);
}

/** Serialises a problem for the caller's language; used for every refusal outside the pipeline. */
export function problemReply(error: ApiError, language: Language, requestId: string, typeBase: string): { status: number; body: string; headers: Record<string, string> } {
  return problemAnswer(error, language, requestId, typeBase) as { status: number; body: string; headers: Record<string, string> };
}

function send(req: IncomingMessage, res: ServerResponse, reply: Reply): void {
  res.statusCode = reply.status;
  for (const name in reply.headers) res.setHeader(name, reply.headers[name]);
  if (reply.stream) {
    reply.stream.on('error', () => res.destroy());
    reply.stream.pipe(res);
    return;
  }
  if (reply.body === null) {
    res.end();
    return;
  }
  if (!res.hasHeader('Content-Type')) res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(encodeBody(req, res, reply.body));
}

function etagOf(body: string): string {
  return `W/"${hash('sha1', body, 'base64url')}"`;
}

/** A request as the pipeline reads it; the request id and language were set by the app's first layer. */
function pipelineRequest(req: IncomingMessage, res: ServerResponse, params: Record<string, string>, search: string): NodeRequest {
  return {
    req,
    res,
    params,
    // Node's query parser (express's `simple`) gives a null-prototype object: a parameter named
    // `__proto__` or `constructor` is a field like any other.
    query: search === '' ? (Object.create(null) as Record<string, unknown>) : parseQuery(search),
    header: (name) => {
      const value = req.headers[name];
      return value === undefined ? undefined : String(value);
    },
    body: () => {
      const raw = (req as IncomingMessage & { body?: unknown }).body;
      return raw && Buffer.isBuffer(raw) && raw.length > 0 ? raw : undefined;
    },
    upload: () => req,
    requestId: res.getHeader('X-Request-Id') as string,
    language: (res.getHeader('Content-Language') as Language | undefined) ?? requestLanguage(req),
  };
}

/**
 * A row written under a parent that a request running at the same time deleted (a campaign or a
 * tracked keyword of a project being deleted): a handler has found the parent, so the parent is
 * gone, and the answer is the 404 of a resource that is no longer there, not a 500.
 */
function isForeignKeyViolation(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  return e?.code === '23503' || (typeof e?.message === 'string' && e.message.includes('FOREIGN KEY constraint failed'));
}

/**
 * The layer that routes every operation: the contract's own matcher (`matchOperation`) finds it
 * in a few pattern tests, where one express route per operation would walk up to forty router
 * layers per request. A path the contract does not route goes on to `next` (405, 404, or the
 * application embedding this one); every other outcome, a body refused by the parser or a
 * failure while writing included, is answered here.
 */
export function contractRouter(handlers: Handlers, deps: BinderDeps): NodeLayer {
  const rawBody = express.raw({ type: () => true, limit: '1mb' }) as unknown as (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;
  const byId = handlers as unknown as Record<OperationId, (ctx: RequestContext, input: unknown) => Promise<unknown>>;
  const run = createPipeline<Caller, Readable, NodeRequest>({
    clock: deps.clock,
    problemTypeBase: deps.problemTypeBase,
    plans: deps.plans,
    // The client's address: express's req.ip honours the embedding app's `trust proxy`.
    authenticate: async ({ req, res }, now) => {
      const caller = await deps.authenticator.authenticate(req.headers.authorization, now, clientAddress(req));
      facts(res).team = caller.teamId;
      return caller;
    },
    rateLimits: {
      take: (teamId, cost, plan, now) => deps.rateLimiter.take(teamId, cost, plan.rateLimits, now),
      refund: (teamId, cost, now) => deps.rateLimiter.refund(teamId, cost, now),
      peek: (teamId, plan, now) => deps.rateLimiter.peek(teamId, plan.rateLimits, now),
    },
    idempotency: {
      claim: (teamId, key, text, now) => deps.idempotency.claim(teamId, key, fingerprint(text), now),
      complete: (teamId, key, answer) => deps.idempotency.complete(teamId, key, answer),
      release: (teamId, key) => deps.idempotency.release(teamId, key),
    },
    cursors: deps.cursors,
    etag: etagOf,
    discard: (stream) => stream.destroy(),
    receiveUpload: deps.receiveUpload && ((_op, caller, params, upload) => deps.receiveUpload!(caller, params as { project: string }, upload as Upload<Readable>)),
    handle: async (op, ctx, input) => {
      try {
        return await byId[op](ctx, input);
      } catch (error) {
        if (isForeignKeyViolation(error)) throw new ApiError('not_found');
        throw error;
      }
    },
    validateResponses: deps.validateResponses,
    unexpected: (error, { req, res }, warning) => {
      deps.onError(error, req, res, warning);
    },
  });

  return (req, res, next) => {
    const { path, search } = splitTarget(req.url ?? '/');
    // HEAD is answered as GET, without the body (node:http drops it).
    const found = matchOperation(req.method === 'HEAD' ? 'GET' : (req.method ?? ''), path);
    if (!found) return next();
    const op = contract[found.id] as ContractEntry;
    facts(res).operation = found.id;
    const go = () => {
      // The pipeline answers every error itself; whatever escapes it or the write (a socket gone
      // mid-write) is answered here, never an unhandled rejection.
      run(op, pipelineRequest(req, res, decodePathParams(found.params), search))
        .then((reply) => {
          // An upload refused or replayed before its body was read: node discards what is left so
          // the connection can serve the next request; closing at once would reset it under the
          // client. Above 1 MiB left (or an unknown length) reading the rest is not worth it.
          if (op.upload && !req.readableEnded && !(Number(req.headers['content-length'] ?? Infinity) <= UNREAD_UPLOAD_DRAIN_BYTES)) res.setHeader('Connection', 'close');
          send(req, res, reply);
        })
        .catch((error: unknown) => answerFailure(deps, req, res, error));
    };
    if (!op.body) return go();
    rawBody(req, res, (error?: unknown) => (error ? answerBodyError(deps, req, res, error) : go()));
  };
}

export function newRequestId(): string {
  return `req_${randomUUID().replace(/-/g, '')}`;
}
