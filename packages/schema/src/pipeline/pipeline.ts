/**
 * The request pipeline of the server and the mock: every common rule of the API around an
 * operation's handler, in this order:
 *
 *   authentication → plan gate → rate limit → role and scope → path (404) → Idempotency-Key
 *   presence → query and body validation (415, 400, 422) → cursor (400) → an upload's body
 *   received and hashed (`receiveUpload`) → idempotency claim (409, replay) → handler → ETag
 *   (304) → problem details.
 *
 * Validation failures, 401 and 429 come before the idempotency layer and are not stored; a
 * handler's answer, refusals included, is stored and replayed. A 429 and a 304 cost nothing.
 * The transports (express in the server, msw in the mock) only read the request and write
 * the answer.
 */
import type { ContractEntry } from '../contract.js';
import type { Language } from '../errors.js';
import { parseIdempotencyKey, requestFingerprintText } from '../rules/idempotency.js';
import { rateLimitHeaders, rateLimitRefusal } from '../rules/rate-limits.js';
import { checkInput } from '../rules/request-input.js';
import { ifNoneMatchMatches, NEVER_NOT_MODIFIED } from '../rules/conditional-requests.js';
import { accessRefusal, planRefusal } from '../rules/gates.js';
import type { z } from 'zod';
import { DEFAULT_PAGE_SIZE, parseJsonBody, toAnswer } from './answer.js';
import { ApiError, problemAnswer } from './problem.js';
import type { Answer, CallerFacts, PipelineContext, PipelinePorts, PipelineRequest, Upload } from './ports.js';
import { LOG_UPLOAD_TYPES } from '../resources/logs.js';

const CACHE_CONTROL = 'private, no-cache';

export type Pipeline<S, R extends PipelineRequest = PipelineRequest> = (op: ContractEntry, request: R) => Promise<Answer<S>>;

function validate<T extends z.ZodType>(schema: T, value: unknown, language: Language, whole?: string): z.output<T> {
  const checked = checkInput(schema, value, language, whole);
  if (checked.ok) return checked.data;
  throw new ApiError('validation_failed', { errors: checked.errors });
}

/** Bytes as a binary string, for the ETag of a download held whole. */
function binary(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return text;
}

/** An upload's body and headers; 415 when its type is neither text nor gzip (rules/logs.ts). */
function readUpload(request: PipelineRequest): Upload<unknown> {
  const contentType = (request.header('content-type') ?? '').split(';')[0].trim().toLowerCase();
  const encoding = (request.header('content-encoding') ?? 'identity').trim().toLowerCase();
  if (!(LOG_UPLOAD_TYPES as readonly string[]).includes(contentType) || (encoding !== 'identity' && encoding !== 'gzip')) {
    throw new ApiError('log_import.unsupported_media_type');
  }
  const lengthHeader = request.header('content-length');
  const length = lengthHeader !== undefined && /^[0-9]{1,15}$/.test(lengthHeader) ? Number(lengthHeader) : null;
  return { body: request.upload?.(), contentType, gzip: encoding === 'gzip' || contentType.endsWith('gzip'), length };
}

export function createPipeline<C extends CallerFacts, S = unknown, R extends PipelineRequest = PipelineRequest>(ports: PipelinePorts<C, S, R>): Pipeline<S, R> {
  return async (op, request) => {
    const { language, requestId } = request;
    let claimed: { teamId: string; key: string } | null = null;
    /** A received upload: whatever the handler did not take is dropped once the answer is settled. */
    let received: Upload<unknown> | null = null;
    let rateHeaders: Record<string, string> = {};
    try {
      const now = ports.clock();
      const caller = await ports.authenticate(request, now);
      const plans = ports.plans();
      const refusedPlan = planRefusal(op, caller.plan, plans);
      if (refusedPlan) throw new ApiError(refusedPlan.code, refusedPlan.extras);

      const taken = await ports.rateLimits.take(caller.teamId, op.cost, caller.plan, now);
      if (!taken.ok) {
        const refusal = rateLimitRefusal(taken, plans, caller.plan);
        throw new ApiError('rate_limited', refusal.extras, refusal.headers);
      }
      rateHeaders = rateLimitHeaders(taken.states, op.cost);

      const denied = accessRefusal(op, caller.role, caller.scopes);
      if (denied) throw new ApiError(denied.code, denied.extras);

      // A malformed identifier names no resource, it answers like a missing one.
      // Every path parameter is a UUID (spec, common rule 5): read in any case (RFC 9562 §4), kept
      // in lower case as ids are stored, so both databases and the mock find the same resource.
      const parsedParams = op.params.safeParse(Object.fromEntries(Object.entries(request.params).map(([name, value]) => [name, value.toLowerCase()])));
      if (!parsedParams.success) throw new ApiError('not_found');
      const params = parsedParams.data as Record<string, unknown>;

      const keyHeader = request.header('idempotency-key');
      let key: string | null = null;
      if (op.idempotency !== 'none' && keyHeader !== undefined) {
        key = parseIdempotencyKey(keyHeader);
        if (key === null) throw new ApiError('idempotency.key_invalid');
      } else if (op.idempotency === 'required') {
        throw new ApiError('idempotency.key_required');
      }

      const query = validate(op.query, request.query, language) as Record<string, unknown>;
      const body = op.body ? validate(op.body, parseJsonBody(await request.body(), request.header('content-type')), language, 'body') : undefined;
      let upload = op.upload ? readUpload(request) : undefined;

      let after: unknown[] | null = null;
      if (op.kind === 'list' && typeof query.cursor === 'string') after = ports.cursors.decode(query.cursor, op.id, caller.teamId, query, params);

      // An upload is read whole before the claim, so its fingerprint covers its content: the same
      // key with other bytes is a reused key, and a replay answers a request whose body was read.
      if (upload && ports.receiveUpload) upload = await ports.receiveUpload(op.id, caller, params, upload);
      received = upload ?? null;

      if (key !== null) {
        const described = upload ? { content_type: upload.contentType, gzip: upload.gzip, length: upload.length, digest: upload.digest ?? null } : body;
        const claim = await ports.idempotency.claim(caller.teamId, key, requestFingerprintText(op.id, params, query, described), now);
        if (claim.kind === 'mismatch') throw new ApiError('idempotency.key_reused');
        if (claim.kind === 'in_flight') throw new ApiError('idempotency.key_in_use');
        if (claim.kind === 'replay') {
          const stored = claim.response;
          return { status: stored.status, body: stored.body, headers: { ...rateHeaders, ...stored.headers, 'Idempotent-Replayed': 'true' } };
        }
        claimed = { teamId: caller.teamId, key };
      }

      const ctx: PipelineContext<C> = {
        caller,
        language,
        requestId,
        now,
        idempotencyKey: key,
        page: { limit: typeof query.limit === 'number' ? query.limit : DEFAULT_PAGE_SIZE, after },
      };
      let answer: Answer<S>;
      try {
        const output = await ports.handle(op.id, ctx, { params, query, body, upload });
        answer = toAnswer(op, output, ctx, query, params, ports);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        answer = problemAnswer(error, language, requestId, ports.problemTypeBase);
      }

      if (claimed) {
        // A download is not kept: it is fetched again rather than replayed.
        if (typeof answer.body === 'string' || (answer.body === null && answer.stream === undefined)) {
          await ports.idempotency.complete(claimed.teamId, claimed.key, { status: answer.status, body: answer.body as string | null, headers: answer.headers });
        } else {
          await ports.idempotency.release(claimed.teamId, claimed.key);
        }
        claimed = null;
      }

      // A JSON answer is cached by its text, a download by its own ETag (the export's id), a
      // download held whole without one by its bytes.
      const etag =
        op.method !== 'GET' || answer.status !== 200
          ? undefined
          : typeof answer.body === 'string'
            ? ports.etag(answer.body)
            : (answer.headers.ETag ?? (answer.body !== null ? ports.etag(binary(answer.body)) : undefined));
      if (etag) {
        answer.headers = { ...answer.headers, ETag: etag, 'Cache-Control': CACHE_CONTROL };
        if (!NEVER_NOT_MODIFIED.has(op.id) && ifNoneMatchMatches(request.header('if-none-match'), etag)) {
          if (answer.stream !== undefined) ports.discard?.(answer.stream);
          await ports.rateLimits.refund(caller.teamId, op.cost, now);
          const states = await ports.rateLimits.peek(caller.teamId, caller.plan, now);
          return { status: 304, body: null, headers: { ...rateLimitHeaders(states, 0), ETag: etag, 'Cache-Control': CACHE_CONTROL } };
        }
      }
      answer.headers = { ...rateHeaders, ...answer.headers };
      return answer;
    } catch (error) {
      // Not released, the key answers 409 key_in_use until its claim expires: worth a warning.
      if (claimed) {
        const { teamId, key } = claimed;
        try {
          await ports.idempotency.release(teamId, key);
        } catch (cause) {
          ports.unexpected(cause, request, 'idempotency key not released');
        }
      }
      const refusal = error instanceof ApiError ? error : new ApiError('internal_error', ports.unexpected(error, request) ?? {});
      const answer = problemAnswer(refusal, language, requestId, ports.problemTypeBase);
      answer.headers = { ...rateHeaders, ...answer.headers };
      return answer;
    } finally {
      if (received?.discard) {
        try {
          await received.discard();
        } catch (cause) {
          ports.unexpected(cause, request, 'received upload not discarded');
        }
      }
    }
  };
}
