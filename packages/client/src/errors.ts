import type { ErrorCode, Problem } from '@siteaudit/schema';

/**
 * Codes the client makes itself: no answer (`connection_error`, `timeout`), an export that
 * failed while `waitForExport` waited (`export.failed`), an error answer that carried no problem
 * body, e.g. a proxy's page (`http_<status>`).
 */
export type ClientErrorCode = 'connection_error' | 'timeout' | 'export.failed' | `http_${number}`;

/**
 * Every `code` a {@link SiteAuditError} can carry: the API's error catalogue (`ErrorCode` of
 * `@siteaudit/schema`: `validation_failed`, `token.missing_scope`, `plan_limit.…`) and the
 * client's own codes. A type only: switch on it and the compiler checks the spelling.
 */
export type SiteAuditErrorCode = ErrorCode | ClientErrorCode;

/**
 * Shared by every copy of this package (ESM and CJS builds, two versions in one tree): `instanceof`
 * falls back to this brand when the prototype check fails, as stripe-node does since its #1374.
 */
const BRAND = Symbol.for('siteaudit.client.error');

type Branded = { [BRAND]?: string[] };
type Typed = { readonly type: string; prototype: object };

/** `instanceof` that also recognises errors thrown by another copy of the class (ESM vs CJS). */
export function brandedHasInstance(ctor: Typed, value: unknown): boolean {
  if (Function.prototype[Symbol.hasInstance].call(ctor, value)) return true;
  const tags = value !== null && typeof value === 'object' ? (value as Branded)[BRAND] : undefined;
  return Array.isArray(tags) && tags.includes(ctor.type);
}

/** Stamps `error` with the `type` of its class and of each ancestor that declares one. */
export function brand(error: Error, target: Function): string {
  const tags: string[] = [];
  for (let c = target as Partial<Typed> | null; c && c.type; c = Object.getPrototypeOf(c)) {
    if (Object.prototype.hasOwnProperty.call(c, 'type')) tags.unshift(c.type);
  }
  Object.defineProperty(error, BRAND, { value: tags });
  return tags[tags.length - 1]!;
}

/** Fields every error of the API carries. */
export interface SiteAuditErrorInit {
  status: number;
  code: SiteAuditErrorCode;
  title: string;
  detail?: string;
  requestId?: string;
  problem?: Problem;
  headers?: Headers;
  cause?: unknown;
}

/**
 * Base class of every error the client throws for an API answer or a transport failure.
 *
 * @example
 * try {
 *   await client.projects.get({ project: id });
 * } catch (err) {
 *   if (err instanceof NotFoundError) return null;
 *   if (err instanceof SiteAuditError) console.error(err.code, err.requestId);
 *   throw err;
 * }
 */
export class SiteAuditError extends Error {
  /** Stable name of the class, used for the cross-build `instanceof` check (survives minification). */
  static readonly type: string = 'SiteAuditError';

  static override [Symbol.hasInstance](value: unknown): boolean {
    return brandedHasInstance(this, value);
  }

  /** HTTP status; 0 when no response was received. */
  readonly status: number;
  /** Stable, untranslated error code (`token.missing_scope`, `rate_limited`…). */
  readonly code: SiteAuditErrorCode;
  /** Human title, in the client's language. */
  readonly title: string;
  readonly detail?: string;
  /** From the `X-Request-Id` header or the problem's `request_id`: quote it to support. */
  readonly requestId?: string;
  /** The raw RFC 9457 problem body, when the server sent one. */
  readonly problem?: Problem;
  /** Response headers, when there was a response. */
  readonly headers?: Headers;

  constructor(init: SiteAuditErrorInit) {
    const suffix = [init.code, init.status && `HTTP ${init.status}`, init.requestId && `request ${init.requestId}`].filter(Boolean).join(', ');
    super(`${init.title}${init.detail ? `: ${init.detail}` : ''} (${suffix})`, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = brand(this, new.target);
    this.status = init.status;
    this.code = init.code;
    this.title = init.title;
    this.detail = init.detail;
    this.requestId = init.requestId;
    this.problem = init.problem;
    this.headers = init.headers;
  }
}

/** 401 `unauthenticated`: the token is missing, invalid or expired, or its holder left the team. */
export class AuthenticationError extends SiteAuditError {
  static override readonly type = 'AuthenticationError';
}

/**
 * 403: a scope is missing (`token.missing_scope`, see `requiredScopes`), the plan lacks the API or
 * a feature (`upgradeTo` names the plan that lifts it), the role forbids it, or the project is locked.
 */
export class PermissionError extends SiteAuditError {
  static override readonly type = 'PermissionError';
  /** Scopes the token needs (`token.missing_scope`); empty otherwise. */
  readonly requiredScopes: string[];
  /** Plan that would lift a plan refusal, or null. */
  readonly upgradeTo: string | null;
  constructor(init: SiteAuditErrorInit) {
    super(init);
    this.requiredScopes = init.problem?.required_scopes ?? [];
    this.upgradeTo = init.problem?.upgrade_to ?? null;
  }
}

/** 404: no such resource for the token's team (another team's resource answers 404 too). */
export class NotFoundError extends SiteAuditError {
  static override readonly type = 'NotFoundError';
}

/** 409: crawl already running, idempotency key in use, export not ready… */
export class ConflictError extends SiteAuditError {
  static override readonly type = 'ConflictError';
}

/** 410: the resource is gone for good (`export.expired`). */
export class GoneError extends SiteAuditError {
  static override readonly type = 'GoneError';
}

/** 400 or 422: the request was refused as invalid; `errors` lists the messages by field path. */
export class ValidationError extends SiteAuditError {
  static override readonly type = 'ValidationError';
  /** Messages by field path (`schedule.time`, `keywords.3`); empty when the problem has none. */
  readonly errors: Record<string, Array<{ code: string; message: string }>>;
  constructor(init: SiteAuditErrorInit) {
    super(init);
    this.errors = init.problem?.errors ?? {};
  }
}

/** 429 `rate_limited`: a window of the team's envelope is exhausted. */
export class RateLimitError extends SiteAuditError {
  static override readonly type = 'RateLimitError';
  /** Seconds to wait, from `Retry-After` (or the problem's `retry_after`); null when unknown. */
  readonly retryAfter: number | null;
  /** The exhausted window. */
  readonly window: 'minute' | 'day' | null;
  /** Plan with a larger envelope, or null. */
  readonly upgradeTo: string | null;
  constructor(init: SiteAuditErrorInit & { retryAfter?: number | null }) {
    super(init);
    this.retryAfter = init.retryAfter ?? init.problem?.retry_after ?? null;
    this.window = init.problem?.window ?? null;
    this.upgradeTo = init.problem?.upgrade_to ?? null;
  }
}

/** 5xx: the service failed or is unavailable (retried automatically on 502 and 503). */
export class ServerError extends SiteAuditError {
  static override readonly type = 'ServerError';
}

/**
 * No HTTP answer: DNS, connection, TLS or timeout failure (`code` `connection_error` or `timeout`).
 * Its message names the URL it could not reach and the network code (`ECONNREFUSED`…).
 */
export class ConnectionError extends SiteAuditError {
  static override readonly type = 'ConnectionError';
  /** The URL of the request that got no answer. */
  readonly url: string;
  constructor(init: SiteAuditErrorInit & { url: string }) {
    super(init);
    this.url = init.url;
  }
}

/** What a failed fetch says: its message, and the network code of its cause (undici's `fetch failed` says little alone). */
export function networkFailure(failure: unknown): string | undefined {
  if (!(failure instanceof Error)) return failure === undefined ? undefined : String(failure);
  const cause = failure.cause as { code?: unknown; message?: unknown } | undefined;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  const inner = typeof cause?.message === 'string' && cause.message !== failure.message ? cause.message : undefined;
  return [failure.message, code && !inner?.includes(code) ? code : undefined, inner].filter(Boolean).join(': ');
}

/** Builds the error matching an HTTP error answer; `text` is its body as received. */
export function errorFromResponse(res: Response, text: string, retryAfter: number | null): SiteAuditError {
  let problem: Problem | undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object') problem = parsed as Problem;
  } catch {
    // A proxy's HTML or plain-text page: keep the status, no problem body.
  }
  const status = res.status;
  const init = {
    status,
    code: problem?.code ?? (`http_${status}` as const),
    title: problem?.title ?? (res.statusText || `HTTP ${status}`),
    detail: problem?.detail,
    requestId: res.headers.get('x-request-id') ?? problem?.request_id,
    problem,
    headers: res.headers,
    retryAfter,
  };
  const Class =
    status === 401
      ? AuthenticationError
      : status === 403
        ? PermissionError
        : status === 404
          ? NotFoundError
          : status === 409
            ? ConflictError
            : status === 410
              ? GoneError
              : status === 400 || status === 422
                ? ValidationError
                : status === 429
                  ? RateLimitError
                  : status >= 500
                    ? ServerError
                    : SiteAuditError;
  return new Class(init);
}
