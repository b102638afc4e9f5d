/**
 * What the generic handler hands to each operation's business function, and what the business
 * function hands back. A business function never checks auth, scope, cost, validation or
 * idempotency: the generic handler has done it (as the server's binder does).
 */
import { ApiError } from '@siteaudit/schema/pipeline';
import type { ErrorCode, Language, OperationId, ParsedBody, ParsedParams, ParsedQuery } from '@siteaudit/schema';
import type { Plan, PlanCatalogue, ProblemExtras } from '@siteaudit/schema/rules';
import type { CallerFacts } from '@siteaudit/schema/pipeline';
import type { Job, MemberRecord, MockDb, TeamRecord, TokenRecord } from './db.js';
import type { Random } from './random.js';

/** The caller resolved from the bearer token, with the facts the pipeline's gates read. */
export interface Caller extends CallerFacts {
  token: TokenRecord;
  member: MemberRecord;
  team: TeamRecord;
  plan: Plan;
}

/** A forced answer queued by `failNext`. */
export interface ForcedFailure {
  code: ErrorCode;
  times: number;
  retryAfter?: number;
  detail?: string;
}

/** The mock's shared machinery, one per `createMockApi` call. */
export interface MockEnv {
  readonly db: MockDb;
  /** Without a trailing slash. */
  readonly baseUrl: string;
  readonly plans: PlanCatalogue;
  /** Whether keyword checks produce positions (a simulated SERP provider). */
  readonly serp: boolean;
  /** As the server's `network.allowPrivateAddresses`: private hosts and http webhook URLs are taken. */
  readonly allowPrivateAddresses: boolean;
  /** Failed authentications per minute before 429 (the server's option), null for none. */
  readonly authFailuresPerMinute: number | null;
  /** Ids and generated data; replaced by a fresh one from the seed on `reset()`. */
  random: Random;
  /** Request ids come from their own stream so the number of calls never shifts resource ids. */
  requestIds: Random;
  /** Keys the cursor checksum, so a cursor of another mock (or a hand-made one) is refused. */
  readonly cursorSecret: string;
  forced: Map<OperationId, ForcedFailure[]>;
  /** The mock clock: the `now` option plus what `advance()` added. */
  clock(): Date;
  /** Runs before every request (the `autoAdvance` option), or nothing. */
  beforeRequest?: () => void;
  /** Queues later work; `at` is epoch milliseconds. */
  schedule(kind: Job['kind'], id: string, at: number, progress?: boolean): void;
}

/** Throws the catalogue error `code`. */
export function fail(code: ErrorCode, extras: ProblemExtras = {}, headers: Record<string, string> = {}): never {
  throw new ApiError(code, extras, headers);
}

/** 404 `not_found`: no such resource for the caller's team (another team's included). */
export function notFound(): never {
  throw new ApiError('not_found');
}

export interface OpContext<K extends OperationId> {
  env: MockEnv;
  db: MockDb;
  caller: Caller;
  params: ParsedParams<K>;
  query: ParsedQuery<K>;
  body: ParsedBody<K>;
  /** An upload operation's body, read whole (the mock holds it in memory). */
  upload?: unknown;
  now: Date;
  language: Language;
}

/** What a business function answers; the generic handler turns it into HTTP. */
export type Outcome =
  | { type: 'data'; data: unknown; status?: number; headers?: Record<string, string> }
  /** A body that is not `{ data }` (the operations list and its `{ total, shown }` meta). */
  | { type: 'raw'; body: unknown; status?: number }
  /** Every matching item in list order, each with a key that grows along that order. */
  | { type: 'list'; items: { key: number; item: unknown }[] }
  | { type: 'empty' }
  | { type: 'file'; bytes: Uint8Array; contentType: string; filename: string; etag?: string };

export type Business<K extends OperationId> = (ctx: OpContext<K>) => Outcome;
export type BusinessMap = { [K in OperationId]: Business<K> };

export const data = (value: unknown, extra: { status?: number; headers?: Record<string, string> } = {}): Outcome => ({
  type: 'data',
  data: value,
  ...extra,
});
export const empty = (): Outcome => ({ type: 'empty' });
