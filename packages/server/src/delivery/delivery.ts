/**
 * One delivery attempt: POST the signed body to the subscriber and classify the outcome with a
 * stable reason code (docs/decisions/webhook-delivery.md). Never throws for anything the
 * receiver or the network does; the receiver's response body is never kept.
 */
import { performance } from 'node:perf_hooks';
import { request, type Dispatcher } from 'undici';
import { createGuardedAgent } from '../net/address-guard.js';
import { classifyFailure, type AttemptFailureReason } from './failure-reason.js';

/** The reasons an attempt can fail; `subscription_disabled` is set by the runner, not here. */
export type DeliveryErrorReason = AttemptFailureReason;

export interface DeliverWebhookInput {
  url: string;
  /** The exact string that was signed. */
  body: string;
  /** From `webhookHeaders`. */
  headers: Record<string, string>;
  /** Dev and tests only: allows http and private addresses (local receivers). */
  allowPrivateAddresses: boolean;
  /** Covers connection, response headers and the part of the body read. */
  timeoutMs?: number;
}

export interface DeliveryResult {
  ok: boolean;
  responseStatus: number | null;
  errorReason: DeliveryErrorReason | null;
  /** The network or TLS error's own code behind `errorReason` (`ECONNREFUSED`…), for the server log only. */
  errorCode: string | null;
  durationMs: number;
  /** From a 429 or 503 answer only; feed it to `nextAttemptDelayMs`. */
  retryAfterSeconds: number | null;
}

/**
 * How much of the response body is read before the connection is dropped. Reading a small body
 * to its end lets a shared agent reuse the connection; a larger one is not worth the time.
 */
export const RESPONSE_BODY_READ_LIMIT_BYTES = 4 * 1024;

/**
 * Seconds from a Retry-After value, delta-seconds or HTTP-date (RFC 9110 §10.2.3); null when
 * absent or unreadable. A date in the past gives 0.
 */
export function parseRetryAfter(value: string | string[] | undefined, now: number = Date.now()): number | null {
  const raw = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!raw) return null;
  if (/^\d+$/.test(raw)) return Number(raw);
  // Every HTTP-date form starts with a day name; Date.parse alone would read "-5" as a year.
  const at = /^[A-Za-z]{3,9},?\s/.test(raw) ? Date.parse(raw) : Number.NaN;
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

async function discardBody(body: AsyncIterable<Uint8Array>, limit: number): Promise<void> {
  let read = 0;
  for await (const chunk of body) {
    read += chunk.byteLength;
    // Leaving the loop destroys the stream, which closes the connection instead of reading on.
    if (read >= limit) break;
  }
}

/**
 * Sends one attempt. The address is vetted when the connection is made, by the guarded agent,
 * which connects to the address it vetted (so a DNS answer cannot change in between). Only 2xx
 * succeeds; redirects are not followed.
 *
 * @param dispatcher optional, to share connections between attempts; it MUST come from
 *   `createGuardedAgent` with the same `allowPrivate`. Without it, a one-shot guarded agent is used.
 */
export async function deliverWebhook(input: DeliverWebhookInput, dispatcher?: Dispatcher): Promise<DeliveryResult> {
  const { body, headers, allowPrivateAddresses, timeoutMs = 10_000 } = input;
  const started = performance.now();
  const result = (outcome: Partial<DeliveryResult>): DeliveryResult => ({
    ok: false,
    responseStatus: null,
    errorReason: null,
    errorCode: null,
    retryAfterSeconds: null,
    ...outcome,
    durationMs: Math.round(performance.now() - started),
  });

  let url: URL;
  try {
    url = new URL(input.url);
  } catch {
    return result({ errorReason: 'refused_address' });
  }
  // https only in production; http is for local receivers in dev and tests.
  if (!(url.protocol === 'https:' || (allowPrivateAddresses && url.protocol === 'http:'))) {
    return result({ errorReason: 'refused_address' });
  }

  const agent = dispatcher ?? createGuardedAgent({ allowPrivate: allowPrivateAddresses, connectTimeoutMs: timeoutMs, keepAlive: false });
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);

  let status: number | null = null;
  let retryAfterSeconds: number | null = null;
  try {
    const response = await request(url, {
      method: 'POST',
      headers,
      body,
      dispatcher: agent,
      signal: controller.signal,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    status = response.statusCode;
    if (status === 429 || status === 503) retryAfterSeconds = parseRetryAfter(response.headers['retry-after']);
    await discardBody(response.body, RESPONSE_BODY_READ_LIMIT_BYTES);

    if (status >= 200 && status < 300) return result({ ok: true, responseStatus: status });
    return result({ responseStatus: status, errorReason: status >= 300 && status < 400 ? 'redirect' : 'http_status', retryAfterSeconds });
  } catch (error) {
    // A caller mistake (bad header value, bad option) is a bug to surface, not a receiver failure.
    if ((error as { code?: unknown } | null)?.code === 'UND_ERR_INVALID_ARG') throw error;
    const failure = classifyFailure(error, timedOut);
    return result({ responseStatus: status, errorReason: failure.reason, errorCode: failure.code, retryAfterSeconds });
  } finally {
    clearTimeout(timer);
    // The attempt's own agent: its outcome is already decided, a failed close loses nothing.
    if (!dispatcher) await agent.destroy().catch(() => {});
  }
}
