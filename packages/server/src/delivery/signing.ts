/**
 * Standard Webhooks 1.0 signing (docs/decisions/webhook-delivery.md;
 * docs/decisions/webhook-delivery.md). Written with `createHmac` rather than the
 * `standardwebhooks` package because that package signs with one secret per instance and we
 * must send one signature per valid secret during a rotation; the tests verify our output with it.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { WEBHOOK_SECRET_BYTES, WEBHOOK_SECRET_PREFIX as SECRET_PREFIX } from '@siteaudit/schema/rules';

const STANDARD_BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Sent with every delivery so receivers can tell our calls apart in their logs. */
export const WEBHOOK_USER_AGENT = 'SiteAudit-Webhooks/1.0';

/** A new signing secret: `whsec_` and the standard base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(WEBHOOK_SECRET_BYTES).toString('base64');
}

function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : null;
  // The standard allows 24 to 64 bytes; anything else is not one of our secrets (an encrypted
  // value passed by mistake, a truncated column) and must fail loudly, not sign with garbage.
  const key = encoded && STANDARD_BASE64.test(encoded) ? Buffer.from(encoded, 'base64') : null;
  if (!key || key.length < 24 || key.length > 64) throw new TypeError('Not a webhook secret (expected whsec_<base64 of 24 to 64 bytes>)');
  return key;
}

function unixSeconds(timestamp: number | Date): number {
  return typeof timestamp === 'number' ? Math.floor(timestamp) : Math.floor(timestamp.getTime() / 1000);
}

export interface SignWebhookInput {
  /** The event id, stable across retries: receivers deduplicate on it. */
  id: string;
  /** Unix seconds (or a Date) of this attempt: receivers refuse signatures older than 5 minutes. */
  timestamp: number | Date;
  /** The exact body bytes sent, as a string: never re-serialize between signing and sending. */
  body: string;
  /** Every secret valid now (see `secretsValidAt`): one during normal operation, two in a rotation. */
  secrets: string[];
}

/**
 * The `webhook-signature` header value: `v1,<base64 HMAC-SHA256(key, "id.timestamp.body")>`,
 * one per secret, separated by spaces.
 */
export function signWebhook({ id, timestamp, body, secrets }: SignWebhookInput): string {
  if (secrets.length === 0) throw new TypeError('At least one secret is required to sign a webhook');
  const content = `${id}.${unixSeconds(timestamp)}.${body}`;
  return [...new Set(secrets)]
    .map((secret) => `v1,${createHmac('sha256', secretKey(secret)).update(content, 'utf8').digest('base64')}`)
    .join(' ');
}

export interface WebhookHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
  'content-type': 'application/json';
  'user-agent': string;
  [name: string]: string;
}

/**
 * Every header of one delivery attempt. Call it at each attempt (the timestamp must be fresh),
 * with the same `id` each time.
 */
export function webhookHeaders(input: Omit<SignWebhookInput, 'timestamp'> & { timestamp?: number | Date }): WebhookHeaders {
  const timestamp = unixSeconds(input.timestamp ?? new Date());
  return {
    'webhook-id': input.id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signWebhook({ ...input, timestamp }),
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
  };
}
