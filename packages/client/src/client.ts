import { OPERATIONS, fillPath, type OperationId, type OperationInfo } from '@siteaudit/schema/operations';
import { ConnectionError, GoneError, SiteAuditError, errorFromResponse, networkFailure } from './errors.js';
import {
  attemptSignal,
  backoff,
  lruCache,
  parseFilename,
  parseRateLimit,
  parseRetryAfter,
  resolveRetries,
  sleep,
  uuid,
} from './http.js';
import type {
  CallOptions,
  ClientOptions,
  DownloadedFile,
  IdempotentCallOptions,
  Input,
  Output,
  ListPromise,
  Page,
  RateLimitInfo,
  Resources,
  Result,
} from './types.js';

type Crawl = Result<'getCrawl'>;
type Export = Result<'getExport'>;

/** Options of {@link SiteAuditClient.waitForCrawl} and {@link SiteAuditClient.waitForExport}. */
export interface WaitOptions<T> {
  /** Called with each polled state, the first one included. */
  onProgress?: (state: T) => void;
  /** Stops waiting (and the poll in flight); the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Pause between polls; default 5000 for crawls, 2000 for exports. */
  intervalMs?: number;
}

/** The client: one method per operation, grouped by resource, plus the polling helpers. */
export interface SiteAuditClient extends Resources {
  /**
   * Calls an operation by its id, as the resource methods do: `request('getProject', { project })`.
   * Useful to drive the client from the operations table.
   */
  request<K extends OperationId>(id: K, input?: Input<K>, options?: IdempotentCallOptions): Output<K>;
  /**
   * Polls the crawl until it has stopped running (`active` false) and its reports are ready
   * (`stage_plan.settled` true), then resolves with it, whatever its final status.
   *
   * @example
   * const crawl = await client.waitForCrawl(launched.id, {
   *   onProgress: (c) => console.log(`${c.stage}: ${c.pages.crawled}/${c.pages.budget}`),
   *   signal: AbortSignal.timeout(30 * 60_000),
   * });
   */
  waitForCrawl(crawl: string, options?: WaitOptions<Crawl>): Promise<Crawl>;
  /**
   * Polls the export until it is `ready`; rejects when it ends `failed` (code `export.failed`) or
   * `expired` (a GoneError, code `export.expired`).
   */
  waitForExport(exportId: string, options?: WaitOptions<Export>): Promise<Export>;
  /** Rate-limit headers of the latest response, or undefined before the first one. */
  readonly lastRateLimit: RateLimitInfo | undefined;
}

type AnyInput = Record<string, unknown>;
type Ops = Record<OperationId, OperationInfo>;

/**
 * Creates a client. Every method takes one input object (path parameters, then query or body
 * fields, side by side) and per-call options (`idempotencyKey`, `signal`, `headers`).
 *
 * @example
 * import { createClient } from '@siteaudit/client';
 *
 * const client = createClient({ baseUrl: 'https://api.siteaudit.dev', token: process.env.SITEAUDIT_TOKEN!, language: 'en' });
 * const project = await client.projects.create({ url: 'https://example.com' });
 * const campaign = await client.campaigns.create({ project: project.id, name: 'Weekly', start_url: project.url, max_depth: 5, max_urls: 500 });
 * const crawl = await client.crawls.launch({ campaign: campaign.id });
 */
export function createClient(options: ClientOptions): SiteAuditClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  // Every path already starts with /v1: `…/v1` would call `/v1/v1/projects` and answer 404s.
  if (/\/v1$/i.test(baseUrl)) {
    throw new TypeError(`@siteaudit/client: baseUrl must not end with /v1 (the client adds it): drop it, e.g. "${baseUrl.slice(0, -3) || 'https://api.siteaudit.dev'}"`);
  }
  const retry = resolveRetries(options.retries);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const cache = options.etagCache === true ? lruCache(500) : options.etagCache || undefined;
  // Looked up at call time, so a fetch stubbed after creation is honoured, and never called
  // as a method of another object (browsers throw "Illegal invocation").
  const fetchImpl = options.fetch ?? ((url: string, init: RequestInit) => globalThis.fetch(url, init));
  let lastRateLimit: RateLimitInfo | undefined;

  async function call(id: OperationId, input: AnyInput = {}, opts: IdempotentCallOptions = {}): Promise<unknown> {
    const op = (OPERATIONS as Ops)[id];
    const params: Record<string, string> = {};
    const rest: AnyInput = { ...input };
    for (const [, name] of op.path.matchAll(/:([a-z_]+)/g)) {
      if (rest[name!] !== undefined) params[name!] = String(rest[name!]);
      delete rest[name!];
    }
    let url = baseUrl + fillPath(op.path, params);
    const hasBody = op.method === 'POST' || op.method === 'PATCH';
    // null is a value in a body (`http_password: null` clears it) but means "no filter" in a query.
    const fields = Object.entries(rest).filter(([, v]) => v !== undefined && (hasBody || v !== null));
    if (!hasBody && fields.length) url += `?${new URLSearchParams(fields.map(([k, v]) => [k, String(v)]))}`;

    const headers: Record<string, string> = { authorization: `Bearer ${options.token}` };
    if (op.kind !== 'file') headers.accept = 'application/json';
    if (options.language) headers['accept-language'] = options.language;
    if (options.userAgent) headers['user-agent'] = options.userAgent;
    // `required`: refused without a key, so one is generated; `accepted`: sent only when given.
    const key = op.idempotency === 'required' ? (opts.idempotencyKey ?? uuid()) : op.idempotency === 'accepted' ? opts.idempotencyKey : undefined;
    if (key) headers['idempotency-key'] = key;
    let body: BodyInit | undefined;
    let streamed = false;
    if (op.upload) {
      const { file, content_type } = rest as { file?: unknown; content_type?: string };
      headers['content-type'] = content_type ?? 'text/plain';
      body = file as BodyInit;
      streamed = typeof ReadableStream !== 'undefined' && file instanceof ReadableStream;
    } else if (hasBody && fields.length) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(Object.fromEntries(fields));
    }
    Object.assign(headers, lowerKeys(opts.headers));

    const cacheKey = cache && op.method === 'GET' && op.kind !== 'file' ? `${url} ${headers['accept-language'] ?? ''}` : undefined;
    const cached = cacheKey ? await cache!.get(cacheKey) : undefined;
    if (cached) headers['if-none-match'] = cached.etag;

    // A POST without a key may have been applied when the answer was lost: retrying it on a
    // network error or a 502 could repeat it. 429 and 503 mean it was not applied.
    // A stream can be read once: its upload is never retried.
    const replayable = !streamed && (op.method !== 'POST' || key !== undefined);
    const init: RequestInit & { duplex?: 'half' } = { method: op.method, headers, body };
    if (streamed) init.duplex = 'half';
    const { res, text } = await send(id, url, init, replayable, op.kind === 'file', opts.signal);

    if (res.status === 304 && cached) return finish(op, JSON.parse(cached.body));
    if (!res.ok) throw errorFromResponse(res, text, null);
    if (op.kind === 'file') return downloaded(res);
    const etag = res.headers.get('etag');
    if (cacheKey && etag) await cache!.set(cacheKey, { etag, body: text });
    return finish(op, text ? JSON.parse(text) : undefined);
  }

  async function send(
    id: OperationId,
    url: string,
    init: RequestInit,
    replayable: boolean,
    isFile: boolean,
    signal: AbortSignal | undefined,
  ): Promise<{ res: Response; text: string }> {
    for (let attempt = 0; ; attempt++) {
      // Not every fetch (a test double, an old polyfill) honours an already-aborted signal.
      signal?.throwIfAborted();
      const attemptCtl = attemptSignal(signal, timeoutMs);
      let res: Response | undefined;
      let text = '';
      let failure: unknown;
      try {
        res = await fetchImpl(url, { ...init, signal: attemptCtl.signal });
        // A file streams to the caller; anything else is read here, under the timeout, so that
        // a connection cut mid-body is retried like any network error.
        if (!isFile || !res.ok) text = await res.text();
      } catch (err) {
        if (signal?.aborted) throw signal.reason;
        failure = err;
        res = undefined;
      } finally {
        attemptCtl.done();
      }

      let error: SiteAuditError;
      let delay: number | null = null;
      if (!res) {
        const timedOut = attemptCtl.timedOut();
        error = new ConnectionError({
          status: 0,
          code: timedOut ? 'timeout' : 'connection_error',
          title: timedOut ? `No answer from ${url} within ${timeoutMs} ms` : `Could not reach the Site Audit API at ${url}`,
          detail: networkFailure(failure),
          cause: failure,
          url: String(url),
        });
        if (replayable) delay = backoff(attempt, retry);
      } else {
        const info = parseRateLimit(res.headers);
        if (info) lastRateLimit = info;
        const s = res.status;
        if (s !== 429 && s !== 502 && s !== 503) return { res, text };
        const retryAfter = parseRetryAfter(res.headers.get('retry-after'));
        error = errorFromResponse(res, text, retryAfter === null ? null : Math.ceil(retryAfter / 1000));
        if (s !== 502 || replayable) {
          const hinted = retryAfter ?? (s === 429 && error.problem?.retry_after != null ? error.problem.retry_after * 1000 : null);
          delay = hinted ?? backoff(attempt, retry);
          if (delay > retry.maxRetryAfterMs) delay = null;
        }
      }
      if (attempt >= retry.max) delay = null;
      if (res?.status === 429) {
        options.onRateLimit?.({ operation: id, attempt, willRetry: delay !== null, delayMs: delay ?? 0, error: error as never });
      }
      if (delay === null) throw error;
      await sleep(delay, signal);
    }
  }

  function list(id: OperationId, input: AnyInput = {}, opts?: CallOptions): ListPromise<unknown> {
    // Same filters on every page; only the cursor changes (a cursor is bound to its filters).
    const page = (cursor?: string) => call(id, cursor ? { ...input, cursor } : input, opts) as Promise<Page<unknown>>;
    const first = page();
    // Iterating without awaiting the first page must not leave its rejection unhandled.
    first.catch(() => {});
    async function* items() {
      for (let p = await first; ; p = await page(p.meta.next_cursor!)) {
        yield* p.data;
        if (!p.meta.has_more || !p.meta.next_cursor) return;
      }
    }
    return Object.assign(first, {
      [Symbol.asyncIterator]: items,
      async toArray({ limit }: { limit: number }) {
        if (!(limit > 0)) throw new TypeError('toArray({ limit }) needs a positive limit');
        const out: unknown[] = [];
        for await (const item of items()) {
          if (out.push(item) >= limit) break;
        }
        return out;
      },
    });
  }

  const invoke = (id: OperationId, input?: AnyInput, opts?: IdempotentCallOptions) =>
    (OPERATIONS as Ops)[id].kind === 'list' ? list(id, input, opts) : call(id, input, opts);

  async function poll<T>(id: OperationId, input: AnyInput, done: (state: T) => boolean, o: WaitOptions<T>, interval: number) {
    for (;;) {
      const state = (await call(id, input, { signal: o.signal })) as T;
      o.onProgress?.(state);
      if (done(state)) return state;
      await sleep(o.intervalMs ?? interval, o.signal);
    }
  }

  const client: AnyInput = {
    request: invoke,
    waitForCrawl: (crawl: string, o: WaitOptions<Crawl> = {}) =>
      poll<Crawl>('getCrawl', { crawl }, (c) => !c.active && c.stage_plan.settled, o, 5000),
    waitForExport: (exportId: string, o: WaitOptions<Export> = {}) =>
      poll<Export>(
        'getExport',
        { export: exportId },
        (e) => {
          if (e.status === 'failed' || e.status === 'expired') {
            const init = { status: 0, code: `export.${e.status}` as const, title: `Export ${e.status}`, detail: e.error ?? undefined };
            throw e.status === 'expired' ? new GoneError(init) : new SiteAuditError(init);
          }
          return e.status === 'ready';
        },
        o,
        2000,
      ),
  };
  Object.defineProperty(client, 'lastRateLimit', { get: () => lastRateLimit, enumerable: true });
  for (const id of Object.keys(OPERATIONS) as OperationId[]) {
    const sdk = OPERATIONS[id].sdk;
    let node = client;
    for (const segment of sdk.slice(0, -1)) node = (node[segment] ??= {}) as AnyInput;
    node[sdk[sdk.length - 1]!] = (input?: AnyInput, opts?: IdempotentCallOptions) => invoke(id, input, opts);
  }
  return client as unknown as SiteAuditClient;
}

/** A single resource is `{ data }` (the envelope of docs/openapi.json), returned unwrapped. */
function finish(op: OperationInfo, body: unknown): unknown {
  if (op.kind === 'empty') return undefined;
  return op.kind === 'json' && body !== null && typeof body === 'object' && !('meta' in body) && 'data' in body ? body.data : body;
}

function lowerKeys(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers ?? {})) out[k.toLowerCase()] = v;
  return out;
}

function downloaded(res: Response): DownloadedFile {
  const length = res.headers.get('content-length');
  return {
    filename: parseFilename(res.headers.get('content-disposition')),
    contentType: res.headers.get('content-type'),
    size: length === null ? null : Number(length),
    get body() {
      return res.body;
    },
    arrayBuffer: () => res.arrayBuffer(),
    blob: () => res.blob(),
    text: () => res.text(),
    response: res,
  };
}
