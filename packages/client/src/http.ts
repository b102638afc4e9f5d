import type { EtagCache, EtagCacheEntry, RateLimitInfo, RateLimitWindow, RetryOptions } from './types.js';

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * One attempt's signal: the caller's, plus a timeout. `AbortSignal.any` would do, but it is too
 * recent for some browsers this package supports (Safari < 17.4).
 */
export function attemptSignal(outer: AbortSignal | undefined, timeoutMs: number) {
  const controller = new AbortController();
  let timedOut = false;
  const onAbort = () => controller.abort(outer!.reason);
  if (outer?.aborted) onAbort();
  else outer?.addEventListener('abort', onAbort, { once: true });
  const timer =
    timeoutMs > 0
      ? setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, timeoutMs)
      : undefined;
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    done() {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
    },
  };
}

export type ResolvedRetries = Required<RetryOptions>;

export function resolveRetries(retries: number | RetryOptions | undefined): ResolvedRetries {
  const r = typeof retries === 'number' ? { max: retries } : (retries ?? {});
  return { max: 2, baseDelayMs: 500, maxDelayMs: 8000, maxRetryAfterMs: 60_000, ...r };
}

/** Exponential backoff with full jitter (AWS architecture blog): uniform in [0, min(cap, base·2^n)]. */
export function backoff(attempt: number, r: ResolvedRetries): number {
  return Math.random() * Math.min(r.maxDelayMs, r.baseDelayMs * 2 ** attempt);
}

/** `Retry-After` in milliseconds from now: delay-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

const num = (v: string | null | undefined) => (v == null || v === '' || Number.isNaN(Number(v)) ? undefined : Number(v));

/**
 * Minimal reader of the IETF structured-field lists our server sends
 * (`"minute";r=540;t=42, "day";r=19000;t=3600`); names never contain commas or semicolons.
 */
function parseList(value: string | null): Record<string, Record<string, number | undefined>> {
  const out: Record<string, Record<string, number | undefined>> = {};
  for (const item of value ? value.split(',') : []) {
    const [name, ...params] = item.split(';');
    const entry: Record<string, number | undefined> = {};
    for (const p of params) {
      const [k, v] = p.split('=');
      entry[k!.trim()] = num(v?.trim());
    }
    out[name!.trim().replace(/^"|"$/g, '')] = entry;
  }
  return out;
}

/** Reads the rate-limit headers of a response; undefined when it has none. */
export function parseRateLimit(headers: Headers): RateLimitInfo | undefined {
  const policy = headers.get('ratelimit-policy');
  const state = headers.get('ratelimit');
  const limit = num(headers.get('x-ratelimit-limit'));
  if (policy === null && state === null && limit === undefined) return undefined;
  const windows: Record<string, RateLimitWindow> = {};
  for (const [name, p] of Object.entries(parseList(policy))) windows[name] = { limit: p.q, windowSeconds: p.w };
  for (const [name, p] of Object.entries(parseList(state))) windows[name] = { ...windows[name], remaining: p.r, resetSeconds: p.t };
  return {
    limit,
    remaining: num(headers.get('x-ratelimit-remaining')),
    resetSeconds: num(headers.get('x-ratelimit-reset')),
    cost: num(headers.get('x-request-cost')),
    windows,
  };
}

/** Filename from Content-Disposition, preferring the RFC 6266 / RFC 8187 `filename*` form. */
export function parseFilename(disposition: string | null): string | null {
  if (!disposition) return null;
  const extended = /filename\*\s*=\s*[\w-]*'[^']*'([^;]+)/i.exec(disposition);
  if (extended) {
    try {
      return decodeURIComponent(extended[1]!.trim());
    } catch {
      // Malformed percent-encoding: fall back to the plain parameter.
    }
  }
  const plain = /filename\s*=\s*("(?:[^"\\]|\\.)*"|[^;]+)/i.exec(disposition);
  if (!plain) return null;
  const v = plain[1]!.trim();
  return v.startsWith('"') ? v.slice(1, -1).replace(/\\(.)/g, '$1') : v;
}

/** The `etagCache: true` store: a Map that forgets the least recently used URL beyond `max`. */
export function lruCache(max: number): EtagCache {
  const map = new Map<string, EtagCacheEntry>();
  return {
    get(key) {
      const v = map.get(key);
      if (v) {
        map.delete(key);
        map.set(key, v);
      }
      return v;
    },
    set(key, entry) {
      map.delete(key);
      map.set(key, entry);
      if (map.size > max) map.delete(map.keys().next().value!);
    },
  };
}

/** RFC 9562 version 4; `randomUUID` is missing outside secure contexts (plain-http pages). */
export function uuid(): string {
  const c = globalThis.crypto;
  if (typeof c.randomUUID === 'function') return c.randomUUID();
  const b = c.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
