/**
 * Types of the client, derived from the contract so that they cannot drift from it. Type-only
 * imports: nothing here reaches the bundle, and zod is needed only by the type checker.
 */
import type { Body, Params, Query, ResponseBody } from '@siteaudit/schema';
import type { OPERATIONS, OperationId } from '@siteaudit/schema/operations';
import type { RateLimitError } from './errors.js';

export type { OperationId };
type Ops = typeof OPERATIONS;

type Simplify<T> = { [K in keyof T]: T[K] } & {};
// `z.strictObject({})` infers `Record<string, never>`: an intersection with it would make every
// field `never`, so it becomes `{}`.
type Clean<T> = T extends undefined ? {} : string extends keyof T ? {} : T;
// `limit` is `z.coerce.number()`, whose input type is `unknown`; a boolean filter is
// `'true' | 'false'` on the wire and a boolean here (sent as "true" / "false").
type FixLimit<T> = { [K in keyof T]: K extends 'limit' ? number : [T[K]] extends ['true' | 'false' | undefined] ? boolean : T[K] };
type BodyIn<K extends OperationId> = [Body<K>] extends [never] ? (Ops[K] extends { upload: true } ? UploadIn : {}) : Clean<Body<K>>;

/** A file to upload: bytes, text, a Blob, or a stream (sent as it reads, never retried). */
export type UploadFile = Uint8Array | ArrayBuffer | Blob | string | ReadableStream<Uint8Array>;
/** The input of an upload (a log import): the file and its type (text/plain unless said). */
export interface UploadIn {
  file: UploadFile;
  /** `text/plain` (default), `application/gzip`… (the contract's LOG_UPLOAD_TYPES). */
  content_type?: string;
}

/**
 * The one input object of an operation: its path parameters, then its query fields (GET, DELETE)
 * or its body fields (POST, PATCH), side by side: `{ project, name, start_url, … }`.
 */
export type Input<K extends OperationId> = Simplify<Clean<Params<K>> & FixLimit<Clean<Query<K>>> & BodyIn<K>>;

/** Envelope `meta` of a list (docs/decisions/pagination.md). */
export interface ListMeta {
  limit: number;
  has_more: boolean;
  next_cursor: string | null;
}

/** One page of a list: `{ data, meta }`. */
export interface Page<T> {
  data: T[];
  meta: ListMeta;
}

/**
 * What a list method returns: a promise of the first page that is also an async iterator over
 * every item of every page (it follows `meta.next_cursor` with the same filters).
 *
 * @example
 * const first = await client.projects.list({ limit: 10 }); // { data, meta }
 * for await (const project of client.projects.list()) console.log(project.name);
 * const issues = await client.crawls.issues.list({ crawl, severity: 'error' }).toArray({ limit: 500 });
 */
export interface ListPromise<T> extends Promise<Page<T>>, AsyncIterable<T> {
  /** Collects items across pages, up to `limit` (required, so a huge list is never read by accident). */
  toArray(options: { limit: number }): Promise<T[]>;
}

/**
 * A downloaded file: a `Response`-like object whose `filename` comes from Content-Disposition.
 * Read it once, with `arrayBuffer()`, `blob()`, `text()` or the `body` stream.
 */
export interface DownloadedFile {
  /** From `Content-Disposition` (`filename*` preferred), or null when the server sent none. */
  readonly filename: string | null;
  readonly contentType: string | null;
  /** From `Content-Length`, or null. */
  readonly size: number | null;
  readonly body: ReadableStream<Uint8Array> | null;
  arrayBuffer(): Promise<ArrayBuffer>;
  blob(): Promise<Blob>;
  text(): Promise<string>;
  /** The underlying response. */
  readonly response: Response;
}

type Item<K extends OperationId> = ResponseBody<K> extends { data: Array<infer T> } ? T : never;

/**
 * What an operation resolves to: the resource itself for a `{ data }` answer (the envelope is
 * dropped), the whole body when it carries `meta` too (`account.operations`), nothing for a 204.
 */
export type Result<K extends OperationId> = Ops[K]['kind'] extends 'empty'
  ? void
  : Ops[K]['kind'] extends 'file'
    ? DownloadedFile
    : ResponseBody<K> extends { meta: unknown }
      ? ResponseBody<K>
      : ResponseBody<K> extends { data: infer D }
        ? D
        : ResponseBody<K>;

/** Options of one call. */
export interface CallOptions {
  /** Aborts the call, its retries and its backoff waits. */
  signal?: AbortSignal;
  /** Extra headers, sent last (they override the client's). */
  headers?: Record<string, string>;
}

/** Options of a call to an operation that honours `Idempotency-Key`. */
export interface IdempotentCallOptions extends CallOptions {
  /**
   * Sent as `Idempotency-Key` and reused across retries. Operations that require one get a
   * random UUID when this is left out; operations that merely accept one send it only when given.
   */
  idempotencyKey?: string;
}

type OptionsOf<K extends OperationId> = Ops[K]['idempotency'] extends 'none' ? CallOptions : IdempotentCallOptions;
/** What the method of an operation returns: a ListPromise for a list, a Promise otherwise. */
export type Output<K extends OperationId> = Ops[K]['kind'] extends 'list' ? ListPromise<Item<K>> : Promise<Result<K>>;

/** The method of an operation; its input may be left out when no field is required. */
export type Method<K extends OperationId> = {} extends Input<K>
  ? (input?: Input<K>, options?: OptionsOf<K>) => Output<K>
  : (input: Input<K>, options?: OptionsOf<K>) => Output<K>;

/** Where the SDK exposes each operation, read from the operations table: `['crawls', 'issues', 'summary']`. */
export type SdkPaths = { [K in OperationId]: Ops[K]['sdk'] };
type SdkOf<K extends OperationId> = SdkPaths[K];

type Nest<P extends readonly string[], V> = P extends readonly [infer H extends string, ...infer R extends readonly string[]]
  ? { [X in H]: R extends readonly [] ? V : Nest<R, V> }
  : never;
type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
type Merge<T> = T extends (...args: never[]) => unknown ? T : { [K in keyof T]: Merge<T[K]> };

/** Every operation, grouped as `OPERATIONS[id].sdk` says: `client.crawls.issues.summary(…)`. */
export type Resources = Merge<UnionToIntersection<{ [K in OperationId]: Nest<SdkOf<K>, Method<K>> }[OperationId]>>;

/** Retry policy; a number sets `max` only. */
export interface RetryOptions {
  /** Retries after the first attempt (default 2; 0 disables retries). */
  max?: number;
  /** First backoff ceiling; each retry doubles it, with full jitter (default 500). */
  baseDelayMs?: number;
  /** Largest backoff ceiling (default 8000). */
  maxDelayMs?: number;
  /**
   * Longest `Retry-After` the client waits for (default 60000): a longer one (the day window)
   * throws the RateLimitError at once rather than holding the caller for hours.
   */
  maxRetryAfterMs?: number;
}

/** Rate-limit state of one window, from `RateLimit-Policy` and `RateLimit`. */
export interface RateLimitWindow {
  /** Units per window (`q`). */
  limit?: number;
  /** Units left (`r`). */
  remaining?: number;
  /** Seconds until units come back (`t`). */
  resetSeconds?: number;
  /** Length of the window in seconds (`w`). */
  windowSeconds?: number;
}

/** Rate-limit headers of the latest response. */
export interface RateLimitInfo {
  /** Minute window, from `X-RateLimit-Limit`, `-Remaining`, `-Reset` (seconds until reset). */
  limit?: number;
  remaining?: number;
  resetSeconds?: number;
  /** Units the call cost (`X-Request-Cost`). */
  cost?: number;
  /** Every window the server described (`minute`, `day`). */
  windows: Record<string, RateLimitWindow>;
}

/** Passed to `onRateLimit` on each 429. */
export interface RateLimitEvent {
  operation: OperationId;
  /** 0 for the first attempt. */
  attempt: number;
  /** Whether the client will retry, after `delayMs`. */
  willRetry: boolean;
  delayMs: number;
  error: RateLimitError;
}

/** A Map-like store of ETags and bodies; a `Map` fits, and so does an async store. */
export interface EtagCache {
  get(key: string): EtagCacheEntry | undefined | Promise<EtagCacheEntry | undefined>;
  set(key: string, entry: EtagCacheEntry): unknown;
}

/** What the ETag cache keeps for one URL: the validator and the body as received. */
export interface EtagCacheEntry {
  etag: string;
  body: string;
}

/** Options of {@link createClient}. */
export interface ClientOptions {
  /** Service base address, without `/v1`: `https://api.siteaudit.dev`. */
  baseUrl: string;
  /** The access token, sent as `Authorization: Bearer <token>`. */
  token: string;
  /** A `fetch` implementation (tests, proxies, instrumentation); default `globalThis.fetch`. */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /** Sent as `Accept-Language`: error titles and translated texts (server default `fr`). */
  language?: 'fr' | 'en';
  /** Retry policy (429, 502, 503 and network errors); a number sets the retry count. */
  retries?: number | RetryOptions;
  /** Per attempt, until the body is read (downloads: until the headers); default 30000; 0 for none. */
  timeoutMs?: number;
  /** Sent as `User-Agent` where the runtime allows it (not in browsers). */
  userAgent?: string;
  /** Called on each 429, whether or not the client retries it. */
  onRateLimit?: (event: RateLimitEvent) => void;
  /**
   * Conditional GETs: `true` for an in-memory cache (latest 500 URLs) or your own Map-like.
   * A GET sends the cached `If-None-Match`; a 304 (free of rate-limit cost) reuses the cached body.
   */
  etagCache?: boolean | EtagCache;
}
