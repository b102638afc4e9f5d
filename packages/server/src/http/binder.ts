/**
 * The express binding of the request pipeline (`createPipeline` of `@siteaudit/schema`, shared
 * with the mock): routes every contract operation, reads the request, hands the pipeline the
 * server's ports (token lookup, rate-limit counters and idempotency records in memory or
 * PostgreSQL, HMAC cursors, the handlers) and writes its answer, streaming a download.
 */
import { hash, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import express, { type NextFunction, type Request, type Response } from 'express';
import {
  contract,
  createPipeline,
  decodePathParams,
  matchOperation,
  pickLanguage,
  problemAnswer,
  type Answer,
  type ContractEntry,
  type FileOutput as PipelineFileOutput,
  type JsonOutput,
  type Language,
  type ListOutput,
  type OperationId,
  type ParsedBody,
  type ParsedParams,
  type ParsedQuery,
  type PipelineRequest,
  type PlanCatalogue,
} from '@siteaudit/schema';
import type { Authenticator } from './auth.js';
import type { Caller, RequestContext } from './context.js';
import type { CursorCodec } from './cursor.js';
import type { ApiError } from './errors.js';
import { fingerprint, type IdempotencyStore } from './idempotency.js';
import type { RateLimiter } from './rate-limit.js';
import { facts } from './request-log.js';

export type { JsonOutput, ListOutput };
export type FileOutput = PipelineFileOutput<Readable>;

export interface Input<K extends OperationId> {
  params: ParsedParams<K>;
  query: ParsedQuery<K>;
  body: ParsedBody<K>;
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
  /** An unexpected error (answered 500), or with `warning` one that did not fail the request. */
  onError: (error: unknown, req: Request, warning?: string) => void;
}

type Reply = Answer<Readable>;

/** The pipeline's request, with the express one for the authenticator's address and the error log. */
interface ExpressRequest extends PipelineRequest {
  req: Request;
}

export function requestLanguage(req: Request): Language {
  return pickLanguage(req.headers['accept-language']);
}

/** Serialises a problem for the caller's language; used for every refusal outside the pipeline. */
export function problemReply(error: ApiError, language: Language, requestId: string, typeBase: string): { status: number; body: string; headers: Record<string, string> } {
  return problemAnswer(error, language, requestId, typeBase) as { status: number; body: string; headers: Record<string, string> };
}

function send(res: Response, reply: Reply): void {
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
  res.end(reply.body);
}

function etagOf(body: string): string {
  return `W/"${hash('sha1', body, 'base64url')}"`;
}

/** An express request as the pipeline reads it; the request id and language were set by the app's first layer. */
function pipelineRequest(req: Request, res: Response): ExpressRequest {
  return {
    req,
    params: req.params as Record<string, string>,
    // Null prototype: a parameter named `__proto__` or `constructor` is a field like any other.
    query: Object.assign(Object.create(null) as Record<string, unknown>, req.query),
    header: (name) => {
      const value = req.headers[name];
      return value === undefined ? undefined : String(value);
    },
    body: () => {
      const raw = req.body as Buffer | undefined;
      return raw && Buffer.isBuffer(raw) && raw.length > 0 ? raw.toString('utf8') : undefined;
    },
    requestId: res.getHeader('X-Request-Id') as string,
    language: (res.getHeader('Content-Language') as Language | undefined) ?? requestLanguage(req),
  };
}

/**
 * The middleware that routes every operation: the contract's own matcher (`matchOperation`)
 * finds it in a few pattern tests, where one express route per operation would walk up to forty
 * router layers per request. A path the contract does not route goes on to `next` (405, 404, or
 * the application embedding this one).
 */
export function contractRouter(handlers: Handlers, deps: BinderDeps): (req: Request, res: Response, next: NextFunction) => void {
  const rawBody = express.raw({ type: () => true, limit: '1mb' });
  const byId = handlers as unknown as Record<OperationId, (ctx: RequestContext, input: unknown) => Promise<unknown>>;
  const run = createPipeline<Caller, Readable, ExpressRequest>({
    clock: deps.clock,
    problemTypeBase: deps.problemTypeBase,
    plans: deps.plans,
    // The client's address: express's req.ip honours the embedding app's `trust proxy`.
    authenticate: async ({ req }, now) => {
      const caller = await deps.authenticator.authenticate(req.headers.authorization, now, req.ip);
      facts(req.res!).team = caller.teamId;
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
    handle: (op, ctx, input) => byId[op](ctx, input),
    validateResponses: deps.validateResponses,
    unexpected: (error, { req }, warning) => {
      deps.onError(error, req, warning);
    },
  });

  const serve = async (op: ContractEntry, req: Request, res: Response) => {
    send(res, await run(op, pipelineRequest(req, res)));
  };

  return (req: Request, res: Response, next: NextFunction) => {
    // HEAD is answered as GET, without the body (node:http drops it).
    const found = matchOperation(req.method === 'HEAD' ? 'GET' : req.method, req.path);
    if (!found) return next();
    const op = contract[found.id] as ContractEntry;
    facts(res).operation = found.id;
    const go = () => {
      req.params = decodePathParams(found.params);
      // The pipeline answers every error itself; whatever escapes (a socket gone mid-write)
      // goes to express's error handling, never an unhandled rejection.
      serve(op, req, res).catch(next);
    };
    if (op.body) rawBody(req, res, (error?: unknown) => (error ? next(error) : go()));
    else go();
  };
}

export function newRequestId(): string {
  return `req_${randomUUID().replace(/-/g, '')}`;
}
