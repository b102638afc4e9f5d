/**
 * The msw binding of the request pipeline (`createPipeline` of `@siteaudit/schema`, shared with
 * the server): one msw handler per contract entry reads the request, hands the pipeline the
 * mock's ports (tokens, counters, idempotency records and cursors in the in-memory db, the
 * business functions) and turns its answer into a `Response`. Only `failNext` is the mock's
 * own: a queued answer comes before every rule.
 */
import { bearerChallenge, type ContractEntry, type Language, type OperationId } from '@siteaudit/schema';
import {
  CORS_HEADERS,
  IDEMPOTENCY_KEY_RETENTION_MS,
  isPreflight,
  PREFLIGHT_HEADERS,
  VARY,
  decodePathParams,
  inflatesTooMuch,
  matchOperation,
  pickLanguage,
  rateLimitHeaders,
  rateLimitUpgrade,
  recordAuthFailure,
} from '@siteaudit/schema/rules';
import { ApiError, createPipeline, problemAnswer, unroutedError, type Answer, type ListOutput, type PipelinePorts, type PipelineRequest } from '@siteaudit/schema/pipeline';
import { http, type HttpHandler } from 'msw';
import type { Business, Caller, MockEnv, Outcome } from './context.js';
import { bindingHash, decodeCursor, encodeCursor } from './cursor.js';
import { checkLogUpload, type MockUpload } from './modules/logs.js';
import { hashHex } from './random.js';
import { peek, refund, take } from './rate-limit.js';

/** Headers of a first answer that a replay repeats; request id and rate headers are fresh. */
const REPLAYED_HEADERS = ['content-type', 'location', 'etag', 'content-disposition'];

type Headers = Record<string, string>;

/** The pipeline's request, with the caller of its token looked up before `failNext`. */
interface MockRequest extends PipelineRequest {
  caller: Caller | null;
}

export function authenticate(env: MockEnv, header: string | null, now: Date): Caller | null {
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (!match) return null;
  let token;
  for (const t of env.db.tokens.values()) if (t.token === match[1]) token = t;
  // A missing, expired or orphaned token all answer the same 401: nothing to probe.
  if (!token || token.expires_at <= now.toISOString()) return null;
  const member = env.db.members.get(token.member_id);
  const team = env.db.teams.get(token.team_id);
  const plan = team ? env.plans[team.plan] : undefined;
  if (!member || member.removed_at || !team || !plan) return null;
  return { token, member, team, plan, teamId: team.id, role: member.role, scopes: token.scopes };
}

/** `req_` and 32 hex characters, like the server's, from the mock's own seeded stream. */
function newRequestId(env: MockEnv): string {
  return `req_${env.requestIds.uuid().replace(/-/g, '')}`;
}

/** On every answer, as the server's: the request id, the language, and CORS (docs/decisions/cors.md). */
function baseHeaders(requestId: string, language: Language): Headers {
  return { 'X-Request-Id': requestId, 'Content-Language': language, Vary: VARY, ...CORS_HEADERS };
}

function toResponse(answer: Answer, headers: Headers): Response {
  return new Response(answer.body as BodyInit | null, { status: answer.status, headers: { ...headers, ...answer.headers } });
}

/** The answer `failNext` queued for this operation, if any, consumed one at a time. */
function forcedProblem(env: MockEnv, entry: ContractEntry, caller: Caller | null): ApiError | null {
  const queue = env.forced.get(entry.id);
  const next = queue?.[0];
  if (!queue || !next) return null;
  if (--next.times <= 0) queue.shift();
  const extras: ApiError['extras'] = next.detail ? { detail: next.detail } : {};
  const headers: Headers = {};
  if (next.code === 'rate_limited') {
    const retryAfter = next.retryAfter ?? 1;
    Object.assign(extras, { window: 'minute', retry_after: retryAfter, upgrade_to: caller ? rateLimitUpgrade(env.plans, caller.plan, 'minute') : null });
    headers['Retry-After'] = String(retryAfter);
  } else if (next.retryAfter !== undefined) {
    headers['Retry-After'] = String(next.retryAfter);
  }
  if (next.code === 'token.missing_scope' && entry.scope) extras.required_scopes = [entry.scope];
  if (next.code === 'validation_failed') extras.errors = {};
  return new ApiError(next.code, extras, headers);
}

function queryObject(url: URL): Record<string, string | string[]> {
  // Null prototype: a parameter named `__proto__` or `constructor` is a field like any other.
  const out = Object.create(null) as Record<string, string | string[]>;
  for (const [name, value] of url.searchParams) {
    const previous = out[name];
    // A repeated parameter becomes an array, which the schema refuses: never silently pick one.
    out[name] = previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
  }
  return out;
}

/** A business outcome as the pipeline's output: `{ data }` bodies, keyset pages, downloads held whole. */
function output(outcome: Outcome, after: unknown[] | null, limit: number): unknown {
  switch (outcome.type) {
    case 'empty':
      return undefined;
    case 'file':
      return { file: { bytes: outcome.bytes, contentType: outcome.contentType, filename: outcome.filename, etag: outcome.etag } };
    case 'list': {
      const from = after === null ? null : (after[0] as number);
      const rest = from === null ? outcome.items : outcome.items.filter((i) => i.key > from);
      const page: ListOutput<{ key: number; item: unknown }> = { items: rest.slice(0, limit + 1), key: (i) => [i.key], map: (i) => i.item };
      return page;
    }
    case 'raw':
      return { body: outcome.body, status: outcome.status };
    case 'data':
      return { body: { data: outcome.data }, status: outcome.status, headers: outcome.headers };
  }
}

/** The mock's ports: everything lives in `env.db`, on the mock clock. */
function mockPorts(env: MockEnv, businesses: Record<OperationId, Business<OperationId>>): PipelinePorts<Caller, never, MockRequest> {
  const storeKey = (teamId: string, key: string) => `${teamId}\u0000${key}`;
  return {
    clock: () => env.clock(),
    plans: () => env.plans,
    authenticate: ({ caller, header }, now) => {
      if (caller) {
        caller.token.last_used_at = now.toISOString();
        return caller;
      }
      // Past the limit of failed authentications, 429 instead of 401 (the server counts per address).
      const { count, refusal } = recordAuthFailure(env.db.authFailures.get('client'), env.authFailuresPerMinute, now);
      env.db.authFailures.set('client', count);
      if (refusal) throw new ApiError('rate_limited', refusal.extras, refusal.headers);
      throw new ApiError('unauthenticated', {}, { 'WWW-Authenticate': bearerChallenge(header('authorization')) });
    },
    rateLimits: {
      take: (teamId, cost, plan, now) => take(env.db, teamId, plan, cost, now),
      refund: (teamId, cost, now) => refund(env.db, teamId, cost, now),
      peek: (teamId, plan, now) => peek(env.db, teamId, plan, now),
    },
    idempotency: {
      claim: (teamId, key, text, now) => {
        const id = storeKey(teamId, key);
        const fingerprint = hashHex(text);
        let record = env.db.idempotency.get(id);
        if (record && record.expires_at <= now.getTime()) {
          env.db.idempotency.delete(id);
          record = undefined;
        }
        if (record) {
          if (record.fingerprint !== fingerprint) return { kind: 'mismatch' };
          if (record.state === 'in_flight') return { kind: 'in_flight' };
          return { kind: 'replay', response: { status: record.status, body: record.body, headers: record.headers } };
        }
        env.db.idempotency.set(id, { fingerprint, state: 'in_flight', status: 0, body: null, headers: {}, expires_at: now.getTime() + IDEMPOTENCY_KEY_RETENTION_MS });
        return { kind: 'claimed' };
      },
      complete: (teamId, key, answer) => {
        const record = env.db.idempotency.get(storeKey(teamId, key));
        if (!record) return;
        const kept: Headers = {};
        for (const [name, value] of Object.entries(answer.headers)) if (REPLAYED_HEADERS.includes(name.toLowerCase())) kept[name] = value;
        Object.assign(record, { state: 'done', status: answer.status, body: answer.body, headers: kept });
      },
      release: (teamId, key) => {
        env.db.idempotency.delete(storeKey(teamId, key));
      },
    },
    cursors: {
      encode: (op, teamId, query, key, params) => encodeCursor(env.cursorSecret, op, teamId, bindingHash(params, query), key[0] as number),
      decode: (cursor, op, teamId, query, params) => {
        const after = decodeCursor(env.cursorSecret, cursor, op, teamId, bindingHash(params, query));
        if (after === null) throw new ApiError('pagination.invalid_cursor');
        return [after];
      },
    },
    etag: (text) => `W/"${hashHex(text)}"`,
    // Read whole before the pipeline: its digest is known, and enters the idempotency fingerprint as on the server.
    receiveUpload: async (_op, caller, params, upload) => {
      const body = upload.body as MockUpload | undefined;
      checkLogUpload(env, caller, String(params.project), body);
      return { ...upload, length: body?.raw.byteLength ?? upload.length, digest: body?.digest };
    },
    handle: (op, ctx, input) => {
      const outcome = businesses[op]({
        env,
        db: env.db,
        caller: ctx.caller,
        params: input.params as never,
        query: input.query as never,
        body: input.body as never,
        upload: input.upload?.body,
        now: ctx.now,
        language: ctx.language,
      });
      return output(outcome, ctx.page.after, ctx.page.limit);
    },
    // The mock's own answers are held to the contract, so a drift shows as a loud 500.
    validateResponses: true,
    unexpected: (error) => ({ detail: error instanceof Error ? error.message : String(error) }),
  };
}

/** The bytes of an upload, their SHA-256 and their text, gunzipped when they start with gzip's magic bytes. */
async function readUpload(request: Request): Promise<MockUpload | undefined> {
  const raw = new Uint8Array(await request.arrayBuffer());
  const digest = [...new Uint8Array(await crypto.subtle.digest('SHA-256', raw))].map((b) => b.toString(16).padStart(2, '0')).join('');
  if (raw[0] !== 0x1f || raw[1] !== 0x8b) return { raw, text: new TextDecoder().decode(raw), digest };
  // Gunzipped piece by piece: a stream cut short keeps what decompressed, as on the server.
  const pieces: Uint8Array[] = [];
  let size = 0;
  let cut = false;
  const reader = new Blob([raw]).stream().pipeThrough(new DecompressionStream('gzip')).getReader();
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      pieces.push(next.value);
      size += next.value.byteLength;
      // A gzip bomb: read no further (the server's bound, rules/log-inflation.ts).
      if (inflatesTooMuch(size, raw.byteLength)) {
        await reader.cancel();
        return { raw, text: '', digest, inflationExceeded: true };
      }
    }
  } catch {
    cut = true;
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const piece of pieces) {
    bytes.set(piece, at);
    at += piece.byteLength;
  }
  return { raw, text: new TextDecoder().decode(bytes), digest, ...(cut ? { inflatedBytes: size } : {}) };
}

/**
 * One msw handler per contract entry, then a catch-all under `/v1` that answers like the
 * server for what the contract does not have: 405 with `Allow` for a known path, else 404.
 */
export function createHandlers(env: MockEnv, entries: readonly ContractEntry[], businesses: Record<OperationId, Business<OperationId>>): HttpHandler[] {
  const base = new URL(env.baseUrl);
  const basePath = base.pathname.replace(/\/$/, '');
  const run = createPipeline(mockPorts(env, businesses));

  const handle = async (entry: ContractEntry, request: Request, params: Record<string, string>): Promise<Response> => {
    env.beforeRequest?.();
    const language = pickLanguage(request.headers.get('accept-language'));
    const requestId = newRequestId(env);
    const headers = baseHeaders(requestId, language);
    const now = env.clock();
    const caller = authenticate(env, request.headers.get('authorization'), now);
    const forced = forcedProblem(env, entry, caller);
    if (forced) {
      if (caller) Object.assign(headers, rateLimitHeaders(peek(env.db, caller.team.id, caller.plan, now), 0));
      return toResponse(problemAnswer(forced, language, requestId), headers);
    }
    // An upload is read (and gunzipped) before the pipeline: the business functions are synchronous.
    const upload = entry.upload ? await readUpload(request) : undefined;
    const answer = await run(entry, {
      caller,
      params,
      query: queryObject(new URL(request.url)),
      header: (name) => request.headers.get(name) ?? undefined,
      body: async () => new Uint8Array(await request.arrayBuffer()),
      upload: () => upload,
      requestId,
      language,
    });
    return toResponse(answer, headers);
  };

  const handlers: HttpHandler[] = entries.map((entry) => {
    const method = entry.method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete';
    // Routed by the contract's own matcher, as the server routes: msw's path matching would
    // throw on a malformed percent-encoding (`%E0%A4%A`) where the server answers 404.
    const matches = ({ request }: { request: Request }) => {
      const url = new URL(request.url);
      if (url.origin !== base.origin || !url.pathname.startsWith(`${basePath}/`)) return false;
      const found = matchOperation(entry.method, url.pathname.slice(basePath.length));
      return found?.id === entry.id ? { matches: true, params: decodePathParams(found.params) } : false;
    };
    return http[method](matches, ({ request, params }) => handle(entry, request, params as Record<string, string>));
  });
  handlers.push(
    http.all(({ request }) => {
      const url = new URL(request.url);
      return url.origin === base.origin && url.pathname.startsWith(`${basePath}/v1/`);
    }, async ({ request }) => {
      const url = new URL(request.url);
      // HEAD is answered as GET without the body, as the server answers it.
      const read = request.method === 'HEAD' ? matchOperation('GET', url.pathname.slice(basePath.length)) : null;
      const entry = read && entries.find((e) => e.id === read.id);
      if (read && entry) {
        const answer = await handle(entry, new Request(request.url, { method: 'GET', headers: request.headers }), decodePathParams(read.params));
        return new Response(null, { status: answer.status, statusText: answer.statusText, headers: answer.headers });
      }
      const language = pickLanguage(request.headers.get('accept-language'));
      const requestId = newRequestId(env);
      // A page of another origin asks before its call, without a token: answered as the server does.
      if (isPreflight(request.method, request.headers.get('access-control-request-method'))) {
        return new Response(null, { status: 204, headers: { ...baseHeaders(requestId, language), ...PREFLIGHT_HEADERS } });
      }
      const path = new URL(request.url).pathname.slice(basePath.length);
      return toResponse(problemAnswer(unroutedError(path), language, requestId), baseHeaders(requestId, language));
    }),
  );
  return handlers;
}
