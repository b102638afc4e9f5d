/**
 * Outbound HTTP for the crawler: undici `request` through the network guard's Agent (every
 * connection vetted and pinned, keep-alive), a per-request deadline, retries with backoff on
 * 5xx, 429 and timeouts, politeness per host (Crawl-delay, Retry-After), and capped, streamed
 * body reading with decompression. Redirects are never followed here: the crawler follows them
 * hop by hop (url-fetcher.ts) so every hop is recorded and re-vetted.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { brotliDecompressSync, createBrotliDecompress, createGunzip, createInflate, gunzipSync, inflateSync } from 'node:zlib';
import { pipeline, Readable, type Transform } from 'node:stream';
import { request, type Dispatcher } from 'undici';
import { abortError, throwIfAborted } from '../../abort.js';
import { AddressRefusedError, createGuardedAgent, resolveVetted } from '../../net/address-guard.js';
import { detectProtection, type ProtectionKind } from './protection.js';
import { RequestDeadlines } from './deadlines.js';

/** Why a request failed. A crawl that stops is not a failure: it throws an AbortError (src/abort.ts). */
export type FetchErrorType = 'timeout' | 'dns' | 'connection' | 'tls' | 'address_refused' | 'protocol';

export class FetchError extends Error {
  constructor(readonly type: FetchErrorType, message: string, readonly url: string) {
    super(message);
    this.name = 'FetchError';
  }
}

export type Headers = Record<string, string | string[] | undefined>;

export interface HttpResponse {
  url: string;
  status: number;
  headers: Headers;
  /** Milliseconds from sending the request to the response headers (last attempt). */
  ttfbMs: number;
  /** Error and throttling answers are read up front (capped, decompressed) to recognise challenges. */
  prefetched: Buffer | null;
  protection: ProtectionKind | null;
  body: Dispatcher.ResponseData['body'] | null;
}

export interface HttpClientOptions {
  allowPrivate: boolean;
  userAgent: string;
  timeoutMs: number;
  retries: number;
  retryBaseDelayMs: number;
  maxWaitMs: number;
  connections: number;
  /** Authorization header value for a URL, or null; decided per request so it never leaks. */
  authorization: (url: string) => string | null;
  signal?: AbortSignal;
}

const PEEK_BYTES = 64 * 1024;
const ACCEPT_HTML = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8';

export function headerValue(headers: Headers, name: string): string | null {
  const v = headers[name.toLowerCase()];
  if (v === undefined) return null;
  return Array.isArray(v) ? v.join(', ') : v;
}

/** Parses Retry-After (seconds or HTTP date) into milliseconds from now. */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** Spaces requests to one host: Crawl-delay between starts, and pauses asked by Retry-After. */
export class HostPacer {
  private readonly hosts = new Map<string, { delayMs: number; nextAt: number }>();

  setDelay(host: string, delayMs: number): void {
    const h = this.entry(host);
    h.delayMs = delayMs;
  }

  delay(host: string): number {
    return this.hosts.get(host)?.delayMs ?? 0;
  }

  pause(host: string, ms: number): void {
    const h = this.entry(host);
    h.nextAt = Math.max(h.nextAt, Date.now() + ms);
  }

  /** Waits for this host's turn and books the next one. */
  async turn(host: string, signal?: AbortSignal): Promise<void> {
    const h = this.entry(host);
    const now = Date.now();
    const start = Math.max(now, h.nextAt);
    h.nextAt = start + h.delayMs;
    if (start > now) await sleep(start - now, undefined, { signal });
  }

  private entry(host: string) {
    let h = this.hosts.get(host);
    if (!h) {
      h = { delayMs: 0, nextAt: 0 };
      this.hosts.set(host, h);
    }
    return h;
  }
}

/** What a failed request throws: an AbortError once the crawl stopped, else a FetchError saying why. */
function failure(error: unknown, url: string, signal?: AbortSignal): Error {
  return signal?.aborted ? abortError(signal, 'crawl stopped') : classify(error, url);
}

function classify(error: unknown, url: string): FetchError {
  if (error instanceof FetchError) return error;
  if (error instanceof AddressRefusedError) {
    return new FetchError(error.address ? 'address_refused' : 'dns', error.message, url);
  }
  const e = error as { code?: string; name?: string; message?: string; cause?: unknown };
  const code = e.code ?? '';
  const message = e.message ?? String(error);
  if (e.name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ETIMEDOUT') {
    return new FetchError('timeout', message, url);
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new FetchError('dns', message, url);
  if (code.startsWith('ERR_TLS') || code.startsWith('CERT_') || code.includes('SSL') || code === 'DEPTH_ZERO_SELF_SIGNED_CERT' || code === 'UNABLE_TO_VERIFY_LEAF_SIGNATURE') {
    return new FetchError('tls', message, url);
  }
  if (code.startsWith('UND_ERR_INVALID') || code === 'HPE_INVALID_CONSTANT' || code.startsWith('HPE_')) {
    return new FetchError('protocol', message, url);
  }
  if (e.cause && e.cause !== error) {
    const inner = classify(e.cause, url);
    if (inner.type !== 'connection') return inner;
  }
  return new FetchError('connection', message, url);
}

function decompressor(encoding: string | null): Transform | null {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      return null;
  }
}

function isDecodable(encoding: string | null): boolean {
  return ['gzip', 'x-gzip', 'deflate', 'br'].includes((encoding ?? '').trim().toLowerCase());
}

/** Inflates a whole small body in one call; null when the result would exceed `maxOutput`. */
function inflateWhole(encoding: string | null, data: Buffer, maxOutput: number): Buffer | null {
  const options = { maxOutputLength: maxOutput };
  try {
    switch ((encoding ?? '').trim().toLowerCase()) {
      case 'gzip':
      case 'x-gzip':
        return gunzipSync(data, options);
      case 'deflate':
        return inflateSync(data, options);
      case 'br':
        return brotliDecompressSync(data, options);
      default:
        return null;
    }
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return null;
    throw error;
  }
}

/**
 * Compressed bodies with a Content-Length up to this size are read whole and inflated in one
 * synchronous call: a zlib stream per page (thread-pool round trips, a pipeline and its abort)
 * cost more than the inflating itself in the crawl benchmark. Larger or chunked bodies stream.
 */
const WHOLE_INFLATE_BYTES = 64 * 1024;

export class HttpClient {
  readonly agent: Dispatcher;
  readonly pacer = new HostPacer();
  private readonly deadlines: RequestDeadlines;

  constructor(private readonly options: HttpClientOptions) {
    this.deadlines = new RequestDeadlines(options.timeoutMs, options.signal);
    this.agent = createGuardedAgent({
      allowPrivate: options.allowPrivate,
      connectTimeoutMs: Math.min(options.timeoutMs, 10_000),
      connections: options.connections,
    });
  }

  close(): Promise<void> {
    this.deadlines.close();
    return this.agent.close();
  }

  /** The refusal the address guard gives `url`'s host, if any, found without sending anything. */
  async addressRefusal(url: string): Promise<FetchError | null> {
    try {
      await resolveVetted(new URL(url).hostname, this.options.allowPrivate);
      return null;
    } catch (error) {
      const failure = classify(error, url);
      return failure.type === 'address_refused' ? failure : null;
    }
  }

  /**
   * One request with retries: 5xx, 429, timeouts and connection failures are retried up to
   * `retries` times, waiting Retry-After when given (capped) or an exponential backoff with
   * jitter. A challenge page is returned at once, never retried. Throws FetchError.
   */
  async exchange(url: string, method: 'GET' | 'HEAD', accept = ACCEPT_HTML): Promise<HttpResponse> {
    const { retries, signal } = this.options;
    const host = new URL(url).host;
    for (let attempt = 0; ; attempt++) {
      await this.pacer.turn(host, signal).catch(() => {
        throw abortError(signal, 'crawl stopped');
      });
      let response: HttpResponse;
      try {
        response = await this.send(url, method, accept);
      } catch (error) {
        throwIfAborted(signal);
        const failed = classify(error, url);
        const retryable = failed.type === 'timeout' || failed.type === 'connection';
        if (!retryable || attempt >= retries) throw failed;
        await this.wait(this.backoff(attempt));
        continue;
      }
      const { status } = response;
      // 403, 429 and 5xx bodies are read up front: they may be a firewall's challenge page.
      if (status < 500 && status !== 429 && status !== 403) return response;
      response.prefetched = method === 'HEAD' ? Buffer.alloc(0) : await this.peek(response);
      response.body = null;
      response.protection = detectProtection({
        status,
        headers: response.headers,
        title: /<title[^>]*>([^<]*)/i.exec(response.prefetched.toString('latin1'))?.[1] ?? null,
        body: response.prefetched.toString('utf8'),
      });
      if (response.protection || status === 403 || attempt >= retries) return response;
      const asked = retryAfterMs(headerValue(response.headers, 'retry-after'));
      if (asked !== null && asked > this.options.maxWaitMs) return response;
      const wait = asked ?? this.backoff(attempt);
      if (asked !== null) this.pacer.pause(host, asked);
      await this.wait(wait);
    }
  }

  /**
   * GET of a small resource (robots.txt, sitemap, llms.txt), following up to `maxHops`
   * redirects (RFC 9309 §2.3.1.2 asks for at least five). Network failures are returned, not
   * thrown, so callers can apply their own rule (robots.txt: unreachable means disallow all).
   */
  async getResource(
    url: string,
    opts: { maxHops: number; maxBytes: number; accept?: string; onChunk?: (chunk: Buffer) => void },
  ): Promise<{ status: number | null; finalUrl: string; body: Buffer | null; headers: Headers; error: FetchError | null; truncated: boolean }> {
    let current = url;
    for (let hop = 0; ; hop++) {
      let response: HttpResponse;
      try {
        response = await this.exchange(current, 'GET', opts.accept ?? '*/*');
      } catch (error) {
        throwIfAborted(this.options.signal);
        return { status: null, finalUrl: current, body: null, headers: {}, error: classify(error, current), truncated: false };
      }
      const location = headerValue(response.headers, 'location');
      if (response.status >= 300 && response.status < 400 && location && hop < opts.maxHops) {
        this.discard(response);
        let next: string;
        try {
          next = new URL(location, current).href;
        } catch {
          return { status: response.status, finalUrl: current, body: null, headers: response.headers, error: null, truncated: false };
        }
        if (!/^https?:$/.test(new URL(next).protocol)) {
          return { status: response.status, finalUrl: current, body: null, headers: response.headers, error: null, truncated: false };
        }
        current = next;
        continue;
      }
      if (response.status < 200 || response.status >= 300) {
        // An error page is not the resource: its body is not read.
        this.discard(response);
        return { status: response.status, finalUrl: current, body: null, headers: response.headers, error: null, truncated: false };
      }
      const chunks: Buffer[] = [];
      try {
        const { truncated } = await this.stream(response, opts.maxBytes, (chunk) => {
          if (opts.onChunk) opts.onChunk(chunk);
          else chunks.push(chunk);
        });
        return { status: response.status, finalUrl: current, body: Buffer.concat(chunks), headers: response.headers, error: null, truncated };
      } catch (error) {
        throwIfAborted(this.options.signal);
        return { status: response.status, finalUrl: current, body: null, headers: response.headers, error: classify(error, current), truncated: false };
      }
    }
  }

  private backoff(attempt: number): number {
    const base = this.options.retryBaseDelayMs * 2 ** attempt;
    return Math.min(this.options.maxWaitMs, base / 2 + Math.random() * (base / 2));
  }

  private async wait(ms: number): Promise<void> {
    try {
      await sleep(ms, undefined, { signal: this.options.signal });
    } catch {
      throw abortError(this.options.signal, 'crawl stopped');
    }
  }

  private async send(url: string, method: 'GET' | 'HEAD', accept: string): Promise<HttpResponse> {
    const { timeoutMs } = this.options;
    const headers: Record<string, string> = {
      'user-agent': this.options.userAgent,
      accept,
      'accept-encoding': 'gzip, deflate, br',
    };
    const auth = this.options.authorization(url);
    if (auth) headers.authorization = auth;
    const started = performance.now();
    const deadline = this.deadlines.start();
    let res: Dispatcher.ResponseData;
    try {
      res = await request(url, { method, headers, dispatcher: this.agent, signal: deadline.signal, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
    } catch (error) {
      deadline.done();
      throw error;
    }
    // Read, discarded or failed: the body closes, and the request no longer needs its deadline.
    res.body.once('close', deadline.done);
    return {
      url,
      status: res.statusCode,
      headers: res.headers,
      ttfbMs: Math.round(performance.now() - started),
      prefetched: null,
      protection: null,
      body: res.body,
    };
  }

  /** Reads the start of an error body (decompressed) and releases the connection. */
  private async peek(response: HttpResponse): Promise<Buffer> {
    const chunks: Buffer[] = [];
    try {
      await this.stream(response, PEEK_BYTES, (chunk) => void chunks.push(chunk));
    } catch {
      // an unreadable error body is just an error body
    }
    return Buffer.concat(chunks);
  }

  /** Releases a response's body without reading it (a small rest is drained to keep the connection). */
  discard(response: HttpResponse): void {
    const body = response.body;
    response.body = null;
    // A socket that fails while drained is simply not reused.
    if (body) body.dump({ limit: 64 * 1024 }).catch(() => undefined);
  }

  /**
   * Streams the decompressed body to `onChunk` until `maxBytes`; returns the bytes delivered and
   * whether the cap cut it. Stream errors (timeout, reset, bad gzip) throw FetchError.
   */
  async stream(response: HttpResponse, maxBytes: number, onChunk: (chunk: Buffer) => void): Promise<{ bytes: number; truncated: boolean }> {
    if (response.prefetched) {
      const slice = response.prefetched.subarray(0, maxBytes);
      if (slice.length) onChunk(slice);
      return { bytes: slice.length, truncated: response.prefetched.length > maxBytes };
    }
    const body = response.body;
    response.body = null;
    if (!body) return { bytes: 0, truncated: false };
    const encoding = headerValue(response.headers, 'content-encoding');
    if (isDecodable(encoding) && Number(headerValue(response.headers, 'content-length') ?? NaN) <= WHOLE_INFLATE_BYTES) {
      let inflated: Buffer | null;
      let data: Buffer;
      try {
        data = Buffer.from(await body.arrayBuffer());
        // One byte over the cap tells "exactly at the cap" (truncated, as when streaming) apart.
        inflated = inflateWhole(encoding, data, maxBytes + 1);
      } catch (error) {
        body.destroy();
        throw failure(error, response.url, this.options.signal);
      }
      // Larger than the cap once inflated: streamed, to deliver the first maxBytes.
      if (inflated === null) return this.pump(Readable.from([data]), decompressor(encoding), maxBytes, onChunk, response.url);
      if (inflated.length > 0 && inflated.length >= maxBytes) {
        if (maxBytes > 0) onChunk(inflated.subarray(0, maxBytes));
        return { bytes: maxBytes, truncated: true };
      }
      if (inflated.length) onChunk(inflated);
      return { bytes: inflated.length, truncated: false };
    }
    return this.pump(body, decompressor(encoding), maxBytes, onChunk, response.url);
  }

  private async pump(
    body: Readable,
    inflate: Transform | null,
    maxBytes: number,
    onChunk: (chunk: Buffer) => void,
    url: string,
  ): Promise<{ bytes: number; truncated: boolean }> {
    // pipeline, not pipe: an error or abort on the body must also end the decompressor.
    if (inflate) pipeline(body, inflate, () => undefined);
    const source: AsyncIterable<Buffer> = inflate ?? body;
    let bytes = 0;
    try {
      for await (const chunk of source) {
        const room = maxBytes - bytes;
        if (chunk.length >= room) {
          if (room > 0) onChunk(chunk.subarray(0, room));
          // At the cap: stop reading; the connection is closed rather than drained.
          body.destroy();
          inflate?.destroy();
          return { bytes: maxBytes, truncated: true };
        }
        bytes += chunk.length;
        onChunk(chunk);
      }
    } catch (error) {
      body.destroy();
      inflate?.destroy();
      throw failure(error, url, this.options.signal);
    }
    return { bytes, truncated: false };
  }
}
