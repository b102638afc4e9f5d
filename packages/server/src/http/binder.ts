/**
 * The generic route binder: walks the contract once and routes every operation, applying
 * every common rule of the spec before a handler runs, in this order:
 * authentication → plan gate → rate limit → role → scope → path (404) → Idempotency-Key
 * presence → query and body validation (422) → cursor (400) → idempotency claim → handler →
 * ETag (304). Validation failures, 401 and 429 come before the idempotency layer and are not
 * stored; a 429 and a 304 cost nothing.
 */
import { hash, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import express, { type NextFunction, type Request, type Response } from 'express';
import {
  accessRefusal,
  buildProblem,
  checkInput,
  contract,
  decodePathParams,
  ifNoneMatchMatches,
  matchOperation,
  parseIdempotencyKey,
  pickLanguage,
  planRefusal,
  rateLimitHeaders,
  rateLimitRefusal,
  requestFingerprintText,
  type ContractEntry,
  type Language,
  type OperationId,
  type ParsedBody,
  type ParsedParams,
  type ParsedQuery,
  type PlanCatalogue,
} from '@siteaudit/schema';
import type { z } from 'zod';
import type { Authenticator } from './auth.js';
import type { Caller, RequestContext } from './context.js';
import type { CursorCodec } from './cursor.js';
import { ApiError } from './errors.js';
import { fingerprint, type IdempotencyStore, type StoredResponse } from './idempotency.js';
import type { RateLimiter } from './rate-limit.js';
import { facts } from './request-log.js';

export interface Input<K extends OperationId> {
  params: ParsedParams<K>;
  query: ParsedQuery<K>;
  body: ParsedBody<K>;
}

export interface JsonOutput {
  body: unknown;
  status?: number;
  headers?: Record<string, string>;
}
export interface ListOutput<T = any> {
  /** Up to `limit + 1` items: the extra one only says there is more. */
  items: T[];
  /** The keyset position of an item, stored in the next cursor. */
  key: (item: T) => unknown[];
  /** Turns a stored row into the resource, when `items` are rows. */
  map?: (item: T) => unknown;
}
export interface FileOutput {
  file: { stream: Readable; contentType: string; filename: string; size?: number; etag?: string };
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
  /** Check every response body against the contract (tests, development). */
  validateResponses: boolean;
  /** An unexpected error (answered 500), or with `warning` one that did not fail the request. */
  onError: (error: unknown, req: Request, warning?: string) => void;
}

interface Reply extends StoredResponse {
  stream?: Readable;
}

const JSON_TYPE = /^application\/([a-z.+-]*\+)?json\s*(;|$)/i;

export function requestLanguage(req: Request): Language {
  return pickLanguage(req.headers['accept-language']);
}

/** Serialises a problem for the caller's language; used for every refusal. */
export function problemReply(error: ApiError, language: Language, requestId: string): Reply {
  const problem = buildProblem(error.code, language, { ...error.extras, request_id: requestId });
  return {
    status: problem.status,
    body: JSON.stringify(problem),
    headers: { 'Content-Type': 'application/problem+json', ...error.headers },
  };
}

/** Writes a reply; `first` are headers the reply's own may override (the rate-limit headers). */
function send(res: Response, reply: Reply, first?: Record<string, string>): void {
  res.statusCode = reply.status;
  if (first) for (const name in first) res.setHeader(name, first[name]);
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

/**
 * Query strings arrive as strings or arrays; a repeated parameter is a validation error. Null
 * prototype: a parameter named `__proto__` or `constructor` is a field like any other.
 */
function queryObject(req: Request): Record<string, unknown> {
  return Object.assign(Object.create(null) as Record<string, unknown>, req.query);
}

function parseBody(op: ContractEntry, req: Request): unknown {
  const raw = req.body as Buffer | undefined;
  if (!raw || !Buffer.isBuffer(raw) || raw.length === 0) return undefined;
  const type = req.headers['content-type'] ?? '';
  if (!JSON_TYPE.test(type)) throw new ApiError('request.unsupported_media_type');
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw new ApiError('request.malformed_json');
  }
}

function validate<T extends z.ZodType>(schema: T, value: unknown, language: Language, whole?: string): z.output<T> {
  const checked = checkInput(schema, value, language, whole);
  if (checked.ok) return checked.data;
  throw new ApiError('validation_failed', { errors: checked.errors });
}

/**
 * The middleware that routes every operation: the contract's own matcher (`matchOperation`)
 * finds it in a few pattern tests, where one express route per operation would walk up to forty
 * router layers per request. A path the contract does not route goes on to `next` (405, 404, or
 * the application embedding this one).
 */
export function contractRouter(handlers: Handlers, deps: BinderDeps): (req: Request, res: Response, next: NextFunction) => void {
  const rawBody = express.raw({ type: () => true, limit: '1mb' });
  const operations = new Map<OperationId, (req: Request, res: Response) => Promise<void>>();
  for (const op of Object.values(contract) as ContractEntry[]) operations.set(op.id, operation(op, handlers, deps));

  return (req: Request, res: Response, next: NextFunction) => {
    // HEAD is answered as GET, without the body (node:http drops it).
    const found = matchOperation(req.method === 'HEAD' ? 'GET' : req.method, req.path);
    if (!found) return next();
    const serve = operations.get(found.id)!;
    facts(res).operation = found.id;
    const run = () => {
      req.params = decodePathParams(found.params);
      // The operation answers every error itself; whatever escapes (a socket gone mid-write)
      // goes to express's error handling, never an unhandled rejection.
      serve(req, res).catch(next);
    };
    if (contract[found.id].body) rawBody(req, res, (error?: unknown) => (error ? next(error) : run()));
    else run();
  };
}

/** The handler of one operation, with every common rule applied before and after it. */
function operation(op: ContractEntry, handlers: Handlers, deps: BinderDeps): (req: Request, res: Response) => Promise<void> {
  const handler = handlers[op.id] as unknown as (ctx: RequestContext, input: unknown) => Promise<unknown>;
  return async (req: Request, res: Response) => {
    // Both were settled by the app's first layer (http/app.ts) for every answer: not parsed again.
    const requestId = res.getHeader('X-Request-Id') as string;
    const language = (res.getHeader('Content-Language') as Language | undefined) ?? requestLanguage(req);
    let charged: { teamId: string; cost: number } | null = null;
    let claimed: { teamId: string; key: string } | null = null;
    let rateHeaders: Record<string, string> = {};
    try {
      const now = deps.clock();
      // The client's address: express's req.ip honours the embedding app's `trust proxy`.
      const caller = await deps.authenticator.authenticate(req.headers.authorization, now, req.ip);
      facts(res).team = caller.teamId;
      gatePlan(op, caller, deps.plans());

      const limits = caller.plan.rateLimits;
      const taken = await deps.rateLimiter.take(caller.teamId, op.cost, limits, now);
      if (!taken.ok) {
        const refusal = rateLimitRefusal(taken, deps.plans(), caller.plan);
        throw new ApiError('rate_limited', refusal.extras, refusal.headers);
      }
      charged = { teamId: caller.teamId, cost: op.cost };
      rateHeaders = rateLimitHeaders(taken.states, op.cost);

      const denied = accessRefusal(op, caller.role, caller.scopes);
      if (denied) throw new ApiError(denied.code, denied.extras);

      // A malformed identifier cannot name a resource: it answers like a missing one.
      const params = op.params.safeParse(req.params);
      if (!params.success) throw new ApiError('not_found');

      const keyHeader = req.headers['idempotency-key'];
      let key: string | null = null;
      if (op.idempotency !== 'none' && keyHeader !== undefined) {
        key = parseIdempotencyKey(String(keyHeader));
        if (key === null) throw new ApiError('idempotency.key_invalid');
      } else if (op.idempotency === 'required') {
        throw new ApiError('idempotency.key_required');
      }

      const rawQuery = queryObject(req);
      const query = validate(op.query, rawQuery, language) as Record<string, unknown>;
      const body = op.body ? validate(op.body, parseBody(op, req), language, 'body') : undefined;

      let after: unknown[] | null = null;
      if (op.kind === 'list' && typeof query.cursor === 'string') {
        after = deps.cursors.decode(query.cursor, op.id, caller.teamId, query, params.data as Record<string, unknown>);
      }

      if (key !== null) {
        const claim = await deps.idempotency.claim(
          caller.teamId,
          key,
          fingerprint(requestFingerprintText(op.id, params.data, query, body)),
          now,
        );
        if (claim.kind === 'mismatch') throw new ApiError('idempotency.key_reused');
        if (claim.kind === 'in_flight') throw new ApiError('idempotency.key_in_use');
        if (claim.kind === 'replay') {
          const stored = claim.response;
          send(res, { ...stored, headers: { ...stored.headers, ...rateHeaders, 'Idempotent-Replayed': 'true' } });
          return;
        }
        claimed = { teamId: caller.teamId, key };
      }

      const ctx: RequestContext = {
        caller,
        language,
        requestId,
        now,
        idempotencyKey: key,
        page: { limit: typeof query.limit === 'number' ? query.limit : 25, after },
      };
      let reply: Reply;
      try {
        const output = await handler(ctx, { params: params.data, query, body });
        reply = toReply(op, output, ctx, query, params.data as Record<string, unknown>, deps);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        reply = problemReply(error, language, requestId);
      }

      if (claimed) {
        if (reply.stream) await deps.idempotency.release(claimed.teamId, claimed.key);
        else await deps.idempotency.complete(claimed.teamId, claimed.key, reply);
        claimed = null;
      }

      if (op.method === 'GET' && reply.status === 200 && !reply.stream) {
        const etag = etagOf(reply.body ?? '');
        reply.headers = { ...reply.headers, ETag: etag, 'Cache-Control': 'private, no-cache' };
        if (ifNoneMatchMatches(req.headers['if-none-match'], etag)) {
          await deps.rateLimiter.refund(caller.teamId, op.cost, now);
          const states = await deps.rateLimiter.peek(caller.teamId, limits, now);
          send(res, { status: 304, body: null, headers: { ETag: etag, 'Cache-Control': 'private, no-cache', ...rateLimitHeaders(states, 0) } });
          return;
        }
      }
      send(res, reply, rateHeaders);
    } catch (error) {
      // Not released, the key answers 409 key_in_use until its claim expires: worth a warning.
      if (claimed) await deps.idempotency.release(claimed.teamId, claimed.key).catch((cause) => deps.onError(cause, req, 'idempotency key not released'));
      if (error instanceof ApiError) {
        send(res, problemReply(error, language, requestId), rateHeaders);
        return;
      }
      deps.onError(error, req);
      if (charged) rateHeaders['X-Request-Cost'] = String(charged.cost);
      send(res, problemReply(new ApiError('internal_error'), language, requestId), rateHeaders);
    }
  };
}

function gatePlan(op: ContractEntry, caller: Caller, plans: PlanCatalogue): void {
  const refused = planRefusal(op, caller.plan, plans);
  if (refused) throw new ApiError(refused.code, refused.extras);
}

function toReply(
  op: ContractEntry,
  output: unknown,
  ctx: RequestContext,
  query: Record<string, unknown>,
  params: Record<string, unknown>,
  deps: BinderDeps,
): Reply {
  switch (op.kind) {
    case 'empty':
      return { status: op.status, body: null, headers: {} };
    case 'file': {
      const { file } = output as FileOutput;
      const headers: Record<string, string> = {
        'Content-Type': file.contentType,
        'Content-Disposition': `attachment; filename="${file.filename.replace(/["\\\r\n]/g, '_')}"`,
      };
      if (file.size !== undefined) headers['Content-Length'] = String(file.size);
      if (file.etag) headers.ETag = file.etag;
      return { status: op.status, body: null, headers, stream: file.stream };
    }
    case 'list': {
      const { items, key, map } = output as ListOutput;
      const limit = ctx.page.limit;
      const page = items.slice(0, limit);
      const hasMore = items.length > limit;
      const nextCursor = hasMore && page.length > 0 ? deps.cursors.encode(op.id, ctx.caller.teamId, query, key(page[page.length - 1]), params) : null;
      const body = { data: map ? page.map(map) : page, meta: { limit, has_more: hasMore, next_cursor: nextCursor } };
      checkResponse(op, body, deps);
      return { status: op.status, body: JSON.stringify(body), headers: {} };
    }
    default: {
      const out = output as JsonOutput;
      checkResponse(op, out.body, deps);
      return { status: out.status ?? op.status, body: JSON.stringify(out.body), headers: out.headers ?? {} };
    }
  }
}

function checkResponse(op: ContractEntry, body: unknown, deps: BinderDeps): void {
  if (!deps.validateResponses || !op.response) return;
  const result = op.response.safeParse(body);
  if (!result.success) {
    throw new Error(`Response of ${op.id} does not match the contract: ${JSON.stringify(result.error.issues.slice(0, 5))}`);
  }
}

export function newRequestId(): string {
  return `req_${randomUUID().replace(/-/g, '')}`;
}
