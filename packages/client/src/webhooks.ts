/**
 * Standard Webhooks 1.0 verification with Web Crypto only, so that it runs in Node 20+, browsers,
 * Deno and edge runtimes. The `standardwebhooks` package needs Node's Buffer, fixes the tolerance
 * at 300 s and takes one secret per instance, while a receiver must accept either secret during
 * the 24-hour rotation overlap (docs/decisions/webhook-delivery.md).
 */
import type { WEBHOOK_EVENT_PAYLOADS } from '@siteaudit/schema';
import type { output } from 'zod';
import { brand, brandedHasInstance } from './errors.js';

/** Body of a delivery, by event type (`crawl.completed`, `export.ready`, `webhook.test`…). */
export type WebhookEvent = {
  [K in keyof typeof WEBHOOK_EVENT_PAYLOADS]: output<(typeof WEBHOOK_EVENT_PAYLOADS)[K]>;
}[keyof typeof WEBHOOK_EVENT_PAYLOADS];

/** A Fetch `Headers`, or a plain object such as Node's `req.headers` (any case). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookOptions {
  /** Largest gap between `webhook-timestamp` and now, either way (default 300). */
  toleranceSeconds?: number;
  /** The current time (a Date or epoch milliseconds); default `Date.now()`. */
  now?: Date | number;
}

/** Why a delivery was refused; answer it with a 400 and do not process the event. */
export class WebhookVerificationError extends Error {
  static readonly type: string = 'WebhookVerificationError';
  static override [Symbol.hasInstance](value: unknown): boolean {
    return brandedHasInstance(this, value);
  }
  /** `webhook.invalid_body`, `webhook.missing_headers`, `webhook.invalid_timestamp`, `webhook.invalid_secret` or `webhook.invalid_signature`. */
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = brand(this, new.target);
    this.code = code;
  }
}

const RAW_BODY_HINT =
  'Pass the raw request body exactly as received: with Express, express.raw({ type: "application/json" }) on this route; ' +
  'in a fetch handler, await request.text(). A body parsed as JSON and serialised again (JSON.stringify(req.body)) has ' +
  'different bytes and never matches.';

const fail = (code: string, message: string): never => {
  throw new WebhookVerificationError(code, message);
};

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return Array.isArray(v) ? v[0] : v;
  return undefined;
}

function base64(text: string): Uint8Array {
  const bin = atob(text);
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

/**
 * Checks the Standard Webhooks signature of a delivery and returns its parsed body.
 *
 * The signed content is `${webhook-id}.${webhook-timestamp}.${body}`; `webhook-signature` holds
 * one or more space-separated `v1,<base64 HMAC-SHA256>` (two during a secret rotation). The
 * delivery is accepted when any of them matches any of `secrets`, and its timestamp is within
 * `toleranceSeconds` of now (replay protection).
 *
 * @param rawBody The body as received (string or bytes), never a parsed object.
 * @param secrets One `whsec_…` secret, or several while rotating.
 * @throws {WebhookVerificationError} when the delivery must be refused.
 *
 * @example
 * app.post('/hooks/siteaudit', express.raw({ type: 'application/json' }), async (req, res) => {
 *   try {
 *     const event = await verifyWebhook(req.body, req.headers, [process.env.WHSEC_NEW!, process.env.WHSEC_OLD!]);
 *     if (event.type === 'crawl.completed') queue.push(event.data.crawl.id);
 *     res.sendStatus(204);
 *   } catch (err) {
 *     res.status(400).send(String(err));
 *   }
 * });
 */
export async function verifyWebhook<T = WebhookEvent>(
  rawBody: string | Uint8Array | ArrayBuffer,
  headers: WebhookHeaders,
  secrets: string | readonly string[],
  options: VerifyWebhookOptions = {},
): Promise<T> {
  if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array) && !(rawBody instanceof ArrayBuffer)) {
    fail('webhook.invalid_body', `verifyWebhook received ${rawBody === null ? 'null' : typeof rawBody} instead of the raw body: it was probably parsed as JSON already. ${RAW_BODY_HINT}`);
  }
  if (rawBody === '[object Object]') fail('webhook.invalid_body', `verifyWebhook received "[object Object]": a parsed body was turned into a string. ${RAW_BODY_HINT}`);
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) {
    return fail('webhook.missing_headers', 'Missing webhook-id, webhook-timestamp or webhook-signature header');
  }

  const sent = Number(timestamp);
  const now = Math.floor(Number(options.now ?? Date.now()) / 1000);
  const tolerance = options.toleranceSeconds ?? 300;
  if (!/^\d+$/.test(timestamp)) fail('webhook.invalid_timestamp', `webhook-timestamp is not Unix seconds: "${timestamp}"`);
  if (Math.abs(now - sent) > tolerance) {
    fail(
      'webhook.invalid_timestamp',
      `webhook-timestamp is ${now - sent} s ${now > sent ? 'old' : 'in the future'}, beyond the ${tolerance} s tolerance: a replayed delivery, or a clock out of sync`,
    );
  }

  const enc = new TextEncoder();
  const body = typeof rawBody === 'string' ? enc.encode(rawBody) : new Uint8Array(rawBody);
  const prefix = enc.encode(`${id}.${timestamp}.`);
  const signed = new Uint8Array(prefix.length + body.length);
  signed.set(prefix);
  signed.set(body, prefix.length);

  const candidates: Uint8Array[] = [];
  for (const entry of signatures.split(' ')) {
    const [version, value] = entry.split(',');
    if (version !== 'v1' || !value) continue;
    try {
      candidates.push(base64(value));
    } catch {
      // One malformed entry must not hide a valid one next to it.
    }
  }

  for (const secret of typeof secrets === 'string' ? [secrets] : secrets) {
    let keyBytes: Uint8Array;
    try {
      keyBytes = base64(secret.startsWith('whsec_') ? secret.slice(6) : secret);
    } catch {
      return fail('webhook.invalid_secret', 'A secret is not valid: expected whsec_ followed by base64, as returned at creation or rotation');
    }
    const key = await crypto.subtle.importKey('raw', keyBytes as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
    for (const candidate of candidates) {
      // subtle.verify compares in constant time.
      if (await crypto.subtle.verify('HMAC', key, candidate as BufferSource, signed as BufferSource)) {
        try {
          return JSON.parse(new TextDecoder().decode(body)) as T;
        } catch {
          return fail('webhook.invalid_body', 'The signature matched but the body is not JSON');
        }
      }
    }
  }
  return fail(
    'webhook.invalid_signature',
    `No v1 signature matched the ${typeof secrets === 'string' ? 'secret' : `${secrets.length} secret(s)`}. Check the secret (whsec_…) and the body. ${RAW_BODY_HINT}`,
  );
}
