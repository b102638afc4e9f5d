/**
 * The generic handler factory: one msw handler per contract entry, applying the spec's common
 * rules in the server binder's order before the operation's business function runs:
 *
 *   forced answer (failNext) → bearer token (401) → plan gate (403) → rate limit (429) →
 *   role and scope (403) → path parameters (malformed UUID → 404) → Idempotency-Key presence
 *   (400) → query, then body syntax (415, 400) and validation (422) → cursor (400) →
 *   idempotency claim (409, replay) → business → envelope, pagination, ETag / 304.
 *
 * Validation failures, 401 and 429 happen before the idempotency layer and are never stored
 * (../shared/api-rules.md); a business answer, errors included, is stored and replayed.
 */
import {
  IDEMPOTENCY_KEY_RETENTION_MS,
  WWW_AUTHENTICATE,
  VARY,
  accessRefusal,
  allowedMethods,
  buildProblem,
  checkInput,
  decodePathParams,
  ifNoneMatchMatches,
  matchOperation,
  parseIdempotencyKey,
  pickLanguage,
  planRefusal,
  rateLimitHeaders,
  rateLimitRefusal,
  rateLimitUpgrade,
  recordAuthFailure,
  requestFingerprintText,
  type ContractEntry,
  type Language,
  type OperationId,
} from '@siteaudit/schema';
import { http, type HttpHandler } from 'msw';
import type { z } from 'zod';
import { MockProblem, type Business, type Caller, type MockEnv, type Outcome } from './context.js';
import { bindingHash, decodeCursor, encodeCursor } from './cursor.js';
import { hashHex } from './random.js';
import { peek, refund, take } from './rate-limit.js';

/** Headers of a first answer that a replay repeats; request id and rate headers are fresh. */
const REPLAYED_HEADERS = ['content-type', 'location', 'etag', 'content-disposition'];
const JSON_TYPE = /^application\/([a-z.+-]*\+)?json\s*(;|$)/i;
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
const CACHE_CONTROL = 'private, no-cache';

type Headers = Record<string, string>;

function json(body: unknown, status: number, headers: Headers, contentType = 'application/json'): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...headers, 'Content-Type': contentType } });
}

function problemResponse(problem: MockProblem, language: Language, requestId: string, headers: Headers): Response {
  const body = buildProblem(problem.code, language, { ...problem.extras, request_id: requestId });
  return json(body, body.status, { ...headers, ...problem.headers }, 'application/problem+json');
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
  return { token, member, team, plan };
}

/** Spec, Authentication 7, first part: the team plan opens the verb (before the rate limit). */
function checkPlan(env: MockEnv, entry: ContractEntry, caller: Caller): void {
  const refused = planRefusal(entry, caller.plan, env.plans);
  if (refused) throw new MockProblem(refused.code, refused.extras);
}

/** Then the member role (webhooks: owners and admins) and the token scope. */
function checkRoleAndScope(entry: ContractEntry, caller: Caller): void {
  const denied = accessRefusal(entry, caller.member.role, caller.token.scopes);
  if (denied) throw new MockProblem(denied.code, denied.extras);
}

/** 422 with `errors` by field; a whole missing body is reported on `body`, as the server does. */
function validate(schema: z.ZodType, value: unknown, language: Language, whole?: string): unknown {
  const checked = checkInput(schema, value, language, whole);
  if (checked.ok) return checked.data;
  throw new MockProblem('validation_failed', { errors: checked.errors });
}

/** The JSON body, undefined when empty; 415 when not JSON, 400 when malformed. */
async function readJson(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text.length === 0) return undefined;
  if (!JSON_TYPE.test(request.headers.get('content-type') ?? '')) throw new MockProblem('request.unsupported_media_type');
  try {
    return JSON.parse(text);
  } catch {
    throw new MockProblem('request.malformed_json');
  }
}

/** `req_` and 32 hex characters, like the server's, from the mock's own seeded stream. */
function newRequestId(env: MockEnv): string {
  return `req_${env.requestIds.uuid().replace(/-/g, '')}`;
}

function baseHeaders(requestId: string, language: Language): Headers {
  return { 'X-Request-Id': requestId, 'Content-Language': language, Vary: VARY };
}

/** The answer `failNext` queued for this operation, if any, consumed one at a time. */
function forcedProblem(env: MockEnv, entry: ContractEntry, caller: Caller | null): MockProblem | null {
  const queue = env.forced.get(entry.id);
  const next = queue?.[0];
  if (!queue || !next) return null;
  if (--next.times <= 0) queue.shift();
  const extras: MockProblem['extras'] = next.detail ? { detail: next.detail } : {};
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
  return new MockProblem(next.code, extras, headers);
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

interface Built {
  status: number;
  body: BodyInit | null;
  /** The JSON text of the body, for the ETag and the idempotency record. */
  text: string | null;
  headers: Headers;
  json: unknown;
}

function build(entry: ContractEntry, outcome: Outcome, env: MockEnv, caller: Caller, binding: string, after: number | null, limit: number): Built {
  switch (outcome.type) {
    case 'empty':
      return { status: 204, body: null, text: null, headers: {}, json: undefined };
    case 'file': {
      const text = `file:${hashHex(Array.from(outcome.bytes, (b) => String.fromCharCode(b)).join(''))}`;
      return {
        status: entry.status,
        body: outcome.bytes as unknown as BodyInit,
        text,
        json: undefined,
        headers: {
          'Content-Type': outcome.contentType,
          'Content-Disposition': `attachment; filename="${outcome.filename.replace(/["\\\r\n]/g, '_')}"`,
          'Content-Length': String(outcome.bytes.byteLength),
          ...(outcome.etag ? { ETag: outcome.etag } : {}),
        },
      };
    }
    case 'list': {
      const rest = after === null ? outcome.items : outcome.items.filter((i) => i.key > after);
      const page = rest.slice(0, limit);
      const hasMore = rest.length > limit;
      const last = page[page.length - 1];
      const next = hasMore && last ? encodeCursor(env.cursorSecret, entry.id, caller.team.id, binding, last.key) : null;
      const body = { data: page.map((i) => i.item), meta: { limit, has_more: hasMore, next_cursor: next } };
      const text = JSON.stringify(body);
      return { status: entry.status, body: text, text, json: body, headers: { 'Content-Type': JSON_CONTENT_TYPE } };
    }
    case 'raw':
    case 'data': {
      const body = outcome.type === 'raw' ? outcome.body : { data: outcome.data };
      const text = JSON.stringify(body);
      const headers = { 'Content-Type': JSON_CONTENT_TYPE, ...(outcome.type === 'data' ? outcome.headers : {}) };
      return { status: outcome.status ?? entry.status, body: text, text, json: body, headers };
    }
  }
}

/** The resolver of one operation: every common rule, then `business`. */
async function handle(env: MockEnv, entry: ContractEntry, business: Business<OperationId>, request: Request, rawParams: Record<string, unknown>): Promise<Response> {
  env.beforeRequest?.();
  const language = pickLanguage(request.headers.get('accept-language'));
  const requestId = newRequestId(env);
  const headers: Headers = baseHeaders(requestId, language);
  const now = env.clock();
  const db = env.db;
  const caller = authenticate(env, request.headers.get('authorization'), now);
  const refuse = (problem: MockProblem) => problemResponse(problem, language, requestId, headers);

  const forced = forcedProblem(env, entry, caller);
  if (forced) {
    if (caller) Object.assign(headers, rateLimitHeaders(peek(db, caller.team.id, caller.plan, now), 0));
    return refuse(forced);
  }
  if (!caller) {
    // Past the limit of failed authentications, 429 instead of 401 (the server counts per address).
    const { count, refusal } = recordAuthFailure(db.authFailures.get('client'), env.authFailuresPerMinute, now);
    db.authFailures.set('client', count);
    if (refusal) return refuse(new MockProblem('rate_limited', refusal.extras, refusal.headers));
    return refuse(new MockProblem('unauthenticated', {}, { 'WWW-Authenticate': WWW_AUTHENTICATE }));
  }
  caller.token.last_used_at = now.toISOString();

  let idempotencyStoreKey: string | null = null;
  try {
    checkPlan(env, entry, caller);

    const taken = take(db, caller.team.id, caller.plan, entry.cost, now);
    if (!taken.ok) {
      const refusal = rateLimitRefusal(taken, env.plans, caller.plan);
      throw new MockProblem('rate_limited', refusal.extras, refusal.headers);
    }
    Object.assign(headers, rateLimitHeaders(taken.states, entry.cost));
    checkRoleAndScope(entry, caller);

    // Spec, Endpoints rule 5: path parameters are UUIDs; anything else names no resource.
    const params = entry.params.safeParse(rawParams);
    if (!params.success) throw new MockProblem('not_found');

    let key: string | null = null;
    const keyHeader = request.headers.get('idempotency-key');
    if (entry.idempotency !== 'none' && keyHeader !== null) {
      key = parseIdempotencyKey(keyHeader);
      if (key === null) throw new MockProblem('idempotency.key_invalid');
    } else if (entry.idempotency === 'required') {
      throw new MockProblem('idempotency.key_required');
    }

    const url = new URL(request.url);
    const queryData = validate(entry.query, queryObject(url), language) as Record<string, unknown>;
    const bodyData = entry.body ? validate(entry.body, await readJson(request), language, 'body') : undefined;
    const paramsData = params.data as Record<string, unknown>;

    let after: number | null = null;
    const binding = bindingHash(paramsData, queryData);
    if (entry.kind === 'list' && typeof queryData.cursor === 'string') {
      after = decodeCursor(env.cursorSecret, queryData.cursor, entry.id, caller.team.id, binding);
      if (after === null) throw new MockProblem('pagination.invalid_cursor');
    }

    if (key !== null) {
      const storeKey = `${caller.team.id}\u0000${key}`;
      const fingerprint = hashHex(requestFingerprintText(entry.id, paramsData, queryData, bodyData));
      let record = db.idempotency.get(storeKey);
      if (record && record.expires_at <= now.getTime()) {
        db.idempotency.delete(storeKey);
        record = undefined;
      }
      if (record) {
        if (record.fingerprint !== fingerprint) throw new MockProblem('idempotency.key_reused');
        if (record.state === 'in_flight') throw new MockProblem('idempotency.key_in_use');
        return new Response(record.body, { status: record.status, headers: { ...headers, ...record.headers, 'Idempotent-Replayed': 'true' } });
      }
      db.idempotency.set(storeKey, { fingerprint, state: 'in_flight', status: 0, body: null, headers: {}, expires_at: now.getTime() + IDEMPOTENCY_KEY_RETENTION_MS });
      idempotencyStoreKey = storeKey;
    }

    let built: Built;
    try {
      const outcome = business({ env, db, caller, params: paramsData as never, query: queryData as never, body: bodyData as never, now, language });
      built = build(entry, outcome, env, caller, binding, after, typeof queryData.limit === 'number' ? queryData.limit : 25);
      if (entry.response && built.json !== undefined) {
        // The mock's own answers are held to the contract, so a drift shows as a loud 500.
        const checked = entry.response.safeParse(built.json);
        if (!checked.success) throw new Error(`@siteaudit/mock answered ${entry.id} outside the contract: ${checked.error.message}`);
      }
    } catch (error) {
      if (!(error instanceof MockProblem)) throw error;
      const body = buildProblem(error.code, language, { ...error.extras, request_id: requestId });
      const text = JSON.stringify(body);
      built = { status: body.status, body: text, text, json: body, headers: { 'Content-Type': 'application/problem+json', ...error.headers } };
    }
    if (idempotencyStoreKey) {
      storeAnswer(env, idempotencyStoreKey, built.status, built.text, built.headers);
      idempotencyStoreKey = null;
    }

    if (entry.method === 'GET' && built.status === 200 && built.text !== null) {
      const etag = built.headers.ETag ?? `W/"${hashHex(built.text)}"`;
      Object.assign(built.headers, { ETag: etag, 'Cache-Control': CACHE_CONTROL });
      if (ifNoneMatchMatches(request.headers.get('if-none-match'), etag)) {
        // A 304 costs nothing (spec: Limits 4).
        refund(db, caller.team.id, entry.cost, now);
        Object.assign(headers, rateLimitHeaders(peek(db, caller.team.id, caller.plan, now), 0));
        return new Response(null, { status: 304, headers: { ...headers, ETag: etag, 'Cache-Control': CACHE_CONTROL } });
      }
    }
    return new Response(built.body, { status: built.status, headers: { ...headers, ...built.headers } });
  } catch (error) {
    // An unexpected failure frees the key, so the client's retry can run (as the server does).
    if (idempotencyStoreKey) db.idempotency.delete(idempotencyStoreKey);
    if (error instanceof MockProblem) return refuse(error);
    return refuse(new MockProblem('internal_error', { detail: error instanceof Error ? error.message : String(error) }));
  }
}

function storeAnswer(env: MockEnv, storeKey: string, status: number, text: string | null, headers: Headers): void {
  const record = env.db.idempotency.get(storeKey);
  if (!record) return;
  const kept: Headers = {};
  for (const [name, value] of Object.entries(headers)) if (REPLAYED_HEADERS.includes(name.toLowerCase())) kept[name] = value;
  Object.assign(record, { state: 'done', status, body: text, headers: kept });
}

/**
 * One msw handler per contract entry, then a catch-all under `/v1` that answers like the
 * server for what the contract does not have: 405 with `Allow` for a known path, else 404.
 */
export function createHandlers(env: MockEnv, entries: readonly ContractEntry[], businesses: Record<OperationId, Business<OperationId>>): HttpHandler[] {
  const base = new URL(env.baseUrl);
  const basePath = base.pathname.replace(/\/$/, '');
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
    return http[method](matches, ({ request, params }) => handle(env, entry, businesses[entry.id], request, params as Record<string, unknown>));
  });
  handlers.push(
    http.all(({ request }) => {
      const url = new URL(request.url);
      return url.origin === base.origin && url.pathname.startsWith(`${basePath}/v1/`);
    }, ({ request }) => {
      const language = pickLanguage(request.headers.get('accept-language'));
      const requestId = newRequestId(env);
      const headers = baseHeaders(requestId, language);
      const path = new URL(request.url).pathname.slice(basePath.length);
      const allowed = allowedMethods(path);
      if (allowed.length > 0) {
        return problemResponse(new MockProblem('method_not_allowed', {}, { Allow: allowed.join(', ') }), language, requestId, headers);
      }
      return problemResponse(new MockProblem('not_found'), language, requestId, headers);
    }),
  );
  return handlers;
}
