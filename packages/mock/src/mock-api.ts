import { contract, type ErrorCode, type OperationId } from '@siteaudit/schema';
import { DEFAULT_AUTH_FAILURES_PER_MINUTE, resolvePlans, type PlanOverride } from '@siteaudit/schema/rules';
import type { HttpHandler } from 'msw';
import type { MockEnv } from './context.js';
import { clearDb, createDb, type MockDb } from './db.js';
import { createHandlers } from './http.js';
import { nextProgressAt, runDueJobs } from './jobs.js';
import { BUSINESS_BY_ID } from './operations.js';
import { createRandom, hashHex } from './random.js';
import { createAdmin, createSeedApi, seedBase, type MockAdmin, type MockTokens, type ScenarioName, type ScenarioResults, type SeedApi } from './seed.js';
import { nextSeq } from './store.js';

export const DEFAULT_BASE_URL = 'https://api.siteaudit.dev';
export const DEFAULT_NOW = '2026-01-15T10:00:00Z';

/** Overrides of one plan, deep-merged over the default catalogue (`resolvePlans`, as the server's `plans` option). */
export type { PlanOverride };

export interface MockApiOptions {
  /** Where the handlers answer; default `https://api.siteaudit.dev`. */
  baseUrl?: string;
  /** Seeds ids, tokens, secrets and generated data; default 1. */
  seed?: number;
  /** The clock before any `advance()`; default a fixed instant, 2026-01-15T10:00:00Z. */
  now?: () => Date;
  /** Scenarios seeded at creation and again on every `reset()`; results in `mock.scenarios`. */
  scenarios?: readonly ScenarioName[];
  /**
   * Whether the mock simulates a SERP provider: keyword checks then produce seeded positions.
   * Default true; false behaves like a server without one (checks measure nothing).
   */
  serp?: boolean;
  /**
   * Finish pending work (as `advance()` does) before every request, so a client that polls
   * (`waitForCrawl`, `waitForExport`) sees crawls and exports done on its next call. Default
   * false: time moves only when the test calls `advance()`.
   */
  autoAdvance?: boolean;
  /** Plan overrides, e.g. `{ agency: { rateLimits: { minute: 5 } } }` to reach a 429 quickly. */
  plans?: Record<string, PlanOverride>;
  /**
   * Failed authentications per minute of the mock clock before a failing request answers 429
   * instead of 401, as the server's option of that name; default 20, null for no limit. The mock
   * sees no client address: all its callers count as one.
   */
  authFailuresPerMinute?: number | null;
  /**
   * As the server's `network.allowPrivateAddresses` (local development): project, start and
   * webhook URLs on private hosts (`localhost`, `127.0.0.1`, `192.168.…`) are taken, and so are
   * http webhook URLs. Default false: webhook URLs must be https to a public host.
   */
  allowPrivateAddresses?: boolean;
}

export interface FailNextOptions {
  /** How many consecutive calls answer the error; default 1. */
  times?: number;
  /** Seconds sent in `Retry-After` (and, for `rate_limited`, in `retry_after`); default 1 for `rate_limited`. */
  retryAfter?: number;
  /** The problem's `detail`. */
  detail?: string;
}

export interface MockApi {
  /** msw handlers for the 40 operations, then a catch-all answering 404 / 405 under `/v1`. */
  readonly handlers: HttpHandler[];
  /** The in-memory store, for assertions; prefer the HTTP API to change it. */
  readonly db: MockDb;
  /** Seeded bearer tokens, stable for a seed. */
  readonly tokens: MockTokens;
  /** One-call scenarios returning ids and a ready token. */
  readonly seed: SeedApi;
  /** Results of the `scenarios` option, refreshed by `reset()`. */
  readonly scenarios: Partial<ScenarioResults>;
  /** Operator helpers named as on the server's `server.admin`. */
  readonly admin: MockAdmin;
  /** Restores the seed state (teams, tokens, option scenarios), the clock and the id sequence. */
  reset(): void;
  /** Forces the next answer(s) of an operation to the catalogue error `code`. */
  failNext(operationId: OperationId, code: ErrorCode, options?: FailNextOptions): void;
  /**
   * Moves the mock clock by `ms` and runs what falls due (crawl stages, exports, keyword checks,
   * deliveries, export expiry). Without `ms`, runs every pending crawl, export, check and
   * delivery to its end, moving the clock as far as needed (never expiring exports). Returns
   * the new clock.
   */
  advance(ms?: number): Date;
  /** The mock clock. */
  now(): Date;
}

/**
 * Creates an in-memory Site Audit API for msw: the handlers answer as the server does (same
 * contract, validation, envelopes, errors, idempotency, rate limits, ETags) from a seeded store.
 *
 * @example
 * import { setupServer } from 'msw/node';
 * import { createMockApi } from '@siteaudit/mock';
 *
 * const mock = createMockApi();
 * const server = setupServer(...mock.handlers);
 * beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
 * afterEach(() => { server.resetHandlers(); mock.reset(); });
 * afterAll(() => server.close());
 *
 * const { token, crawlId } = mock.seed.completedCrawl();
 * const res = await fetch(`https://api.siteaudit.dev/v1/crawls/${crawlId}/issues/summary`, {
 *   headers: { Authorization: `Bearer ${token}` },
 * });
 */
export function createMockApi(options: MockApiOptions = {}): MockApi {
  const baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const seed = options.seed ?? 1;
  const now = options.now ?? (() => new Date(DEFAULT_NOW));
  const db = createDb();
  let offset = 0;
  const env: MockEnv = {
    db,
    baseUrl,
    plans: resolvePlans(options.plans),
    serp: options.serp ?? true,
    allowPrivateAddresses: options.allowPrivateAddresses ?? false,
    authFailuresPerMinute: options.authFailuresPerMinute === undefined ? DEFAULT_AUTH_FAILURES_PER_MINUTE : options.authFailuresPerMinute,
    random: createRandom(seed),
    requestIds: createRandom(`requests:${seed}`),
    cursorSecret: hashHex(`cursor:${seed}`),
    forced: new Map(),
    clock: () => new Date(now().getTime() + offset),
    schedule(kind, id, at, progress = true) {
      db.jobs.push({ at, order: nextSeq(db), kind, id, progress });
    },
  };
  const admin = createAdmin(env);
  const tokens = {} as MockTokens;
  const seedApi = createSeedApi(env, tokens);
  const scenarios: Partial<ScenarioResults> = {};

  const populate = () => {
    clearDb(db);
    offset = 0;
    env.random = createRandom(seed);
    env.requestIds = createRandom(`requests:${seed}`);
    env.forced.clear();
    Object.assign(tokens, seedBase(env, admin));
    for (const key of Object.keys(scenarios)) delete scenarios[key as ScenarioName];
    for (const name of options.scenarios ?? []) {
      if (typeof seedApi[name] !== 'function') throw new TypeError(`@siteaudit/mock: unknown scenario "${name}"`);
      (scenarios as Record<string, unknown>)[name] = seedApi[name]();
    }
  };
  populate();

  const advance = (ms?: number): Date => {
    if (ms !== undefined) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError('@siteaudit/mock: advance(ms) takes a finite, non-negative number');
      runDueJobs(env, env.clock().getTime() + ms);
      offset += ms;
      return env.clock();
    }
    for (let next = nextProgressAt(env); next !== null; next = nextProgressAt(env)) {
      const current = env.clock().getTime();
      if (next > current) offset += next - current;
      runDueJobs(env, env.clock().getTime());
    }
    return env.clock();
  };
  if (options.autoAdvance) env.beforeRequest = () => void advance();

  return {
    handlers: createHandlers(env, Object.values(contract), BUSINESS_BY_ID),
    db,
    tokens,
    seed: seedApi,
    scenarios,
    admin,
    reset: populate,
    failNext(operationId, code, { times = 1, retryAfter, detail } = {}) {
      if (!(operationId in contract)) throw new TypeError(`@siteaudit/mock: unknown operation "${operationId}"`);
      const queue = env.forced.get(operationId) ?? [];
      queue.push({ code, times, retryAfter, detail });
      env.forced.set(operationId, queue);
    },
    advance,
    now: () => env.clock(),
  };
}
