/**
 * What the request pipeline takes and gives: a request read off any transport, the ports it
 * reaches the world through (who calls, counters, idempotency records, cursors, the handler),
 * and an answer the transport writes. Nothing here depends on Node, so the mock runs it in a
 * browser.
 */
import type { Language } from '../errors.js';
import type { OperationId } from '../operations.js';
import type { Plan, PlanCatalogue } from '../rules/plans.js';
import type { RateDecision, RateWindowState } from '../rules/rate-limits.js';
import type { ProblemExtras } from '../rules/problem-bodies.js';
import type { Role, Scope } from '../scopes.js';

/** A request as the transport read it. */
export interface PipelineRequest {
  /** Path parameters, percent-decoded (`decodePathParams`). */
  params: Record<string, string>;
  /** Query parameters in a null-prototype object; a repeated one is an array (refused). */
  query: Record<string, unknown>;
  /** A request header by lower-case name. */
  header(name: string): string | undefined;
  /** The body's bytes (or text), undefined when empty; read only for operations with a body. */
  body(): Promise<Uint8Array | string | undefined> | Uint8Array | string | undefined;
  /** The body as the transport streams it, for an upload operation (`upload` in operations.ts). */
  upload?(): unknown;
  requestId: string;
  language: Language;
}

/** An answer for the transport to write. `stream` (the server's file download) replaces `body`. */
export interface Answer<S = unknown> {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array | null;
  stream?: S;
}

/** The body of an upload operation: the transport's stream and what its headers say of it. */
export interface Upload<B> {
  body: B;
  contentType: string;
  gzip: boolean;
  /** Content-Length, when sent; once received (`receiveUpload`), the bytes read. */
  length: number | null;
  /** SHA-256 (hex) of the body as sent, once received: part of the request's idempotency fingerprint. */
  digest?: string;
  /** Drops what receiving kept of the body (a staged file), unless the handler took it: called after every answer. */
  discard?(): MaybePromise<void>;
}

/** What the gates need to know of a caller; the transport's own caller carries more. */
export interface CallerFacts {
  teamId: string;
  plan: Plan;
  role: Role;
  scopes: readonly Scope[];
}

/** Cursor position handed to list handlers: the sort key of the last item already seen. */
export interface PageRequest {
  limit: number;
  after: unknown[] | null;
}

/** What a handler is told besides its input. */
export interface PipelineContext<C extends CallerFacts = CallerFacts> {
  caller: C;
  language: Language;
  requestId: string;
  now: Date;
  idempotencyKey: string | null;
  page: PageRequest;
}

/** A JSON answer: `body` as is (`{ data }` is the handler's to build). */
export interface JsonOutput {
  body: unknown;
  status?: number;
  headers?: Record<string, string>;
}
export interface ListOutput<T = any> {
  /** Up to `limit + 1` items after the cursor: the extra one only says there is more. */
  items: T[];
  /** The keyset position of an item, stored in the next cursor. */
  key: (item: T) => unknown[];
  /** Turns a stored row into the resource, when `items` are rows. */
  map?: (item: T) => unknown;
}
/** A download: streamed by the transport (`stream`) or held whole (`bytes`). */
export interface FileOutput<S = unknown> {
  file: { stream?: S; bytes?: Uint8Array; contentType: string; filename: string; size?: number; etag?: string };
}

/** A stored first answer, replayed for the same Idempotency-Key. */
export interface StoredAnswer {
  status: number;
  body: string | null;
  headers: Record<string, string>;
}

export type IdempotencyClaim =
  | { kind: 'claimed' }
  | { kind: 'replay'; response: StoredAnswer }
  | { kind: 'in_flight' }
  | { kind: 'mismatch' };

type MaybePromise<T> = T | Promise<T>;

/**
 * `C` is the transport's caller, `S` its stream type for downloads, `R` its request (the
 * pipeline's with whatever the ports want to read of it).
 */
export interface PipelinePorts<C extends CallerFacts, S = unknown, R extends PipelineRequest = PipelineRequest> {
  clock(): Date;
  /** Where problem `type` URLs point, `problemTypeBase(docsUrl)`: each server its own. Default the public documentation. */
  problemTypeBase?: string;
  plans(): PlanCatalogue;
  /** The caller of the request's bearer token; throws `ApiError` (401, or 429 past the auth throttle). */
  authenticate(request: R, now: Date): MaybePromise<C>;
  /** Per-team counters over the plan's windows: a refused take charges nothing. */
  rateLimits: {
    take(teamId: string, cost: number, plan: Plan, now: Date): MaybePromise<RateDecision>;
    refund(teamId: string, cost: number, now: Date): MaybePromise<void>;
    peek(teamId: string, plan: Plan, now: Date): MaybePromise<RateWindowState[]>;
  };
  /** Idempotency records by team and key; `fingerprint` is the request's text (`requestFingerprintText`). */
  idempotency: {
    claim(teamId: string, key: string, fingerprint: string, now: Date): MaybePromise<IdempotencyClaim>;
    complete(teamId: string, key: string, answer: StoredAnswer): MaybePromise<void>;
    release(teamId: string, key: string): MaybePromise<void>;
  };
  /** Opaque list cursors bound to the operation, team, path and filters; `decode` throws 400. */
  cursors: {
    encode(op: OperationId, teamId: string, query: Record<string, unknown>, key: unknown[], params: Record<string, unknown>): string;
    decode(cursor: string, op: OperationId, teamId: string, query: Record<string, unknown>, params: Record<string, unknown>): unknown[];
  };
  /** The weak ETag of an answer's text. */
  etag(text: string): string;
  /** Closes a download's stream that will not be sent (a conditional GET answered 304). */
  discard?(stream: S): void;
  /**
   * Reads an upload's body whole before its idempotency claim, returning it with its `digest`
   * (the server streams it to a file, hashing it as it passes): the claim's fingerprint then
   * covers the content, and a replay is answered once the body is read, so the connection stays
   * usable. Its refusals (404, 403, 413) come before the claim and are not stored.
   */
  receiveUpload?(op: OperationId, caller: C, params: Record<string, unknown>, upload: Upload<unknown>): Promise<Upload<unknown>>;
  /** The operation's handler: a JSON, list or file output, nothing for an empty answer. */
  handle(op: OperationId, ctx: PipelineContext<C>, input: { params: unknown; query: unknown; body: unknown; upload?: Upload<unknown> }): MaybePromise<unknown>;
  /** Hold every JSON answer to the contract (an answer outside it is a 500). */
  validateResponses: boolean;
  /**
   * An unexpected error: answered 500 with the extras returned; with `warning`, one that did not
   * fail the request.
   */
  unexpected(error: unknown, request: R, warning?: string): ProblemExtras | void;
}
