/**
 * Webhook numbers fixed for every deployment (rotation overlap, log retention, the test event) and the secret format, shared by the
 * server's deliveries and the mock's (docs/decisions/webhook-delivery.md). The retry schedule and
 * the disablement threshold are the server's alone: the mock's receiver never fails.
 */

import type { Language } from '../errors.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A signing secret is this prefix and the standard base64 of `WEBHOOK_SECRET_BYTES` random bytes. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
export const WEBHOOK_SECRET_BYTES = 32;

/** Old and new secrets both sign for 24 h after a rotation. */
export const SECRET_ROTATION_OVERLAP_MS = DAY_MS;
/** The delivery log is kept 30 days. */
export const DELIVERY_LOG_RETENTION_DAYS = 30;
export const DELIVERY_LOG_RETENTION_MS = DELIVERY_LOG_RETENTION_DAYS * DAY_MS;

/** Sent only by the test operation, never retried, never counted as a failure. */
export const TEST_EVENT_TYPE = 'webhook.test';

/** True when this event's failed deliveries are retried and count toward disablement. */
export function isRetriedEvent(eventType: string): boolean {
  return eventType !== TEST_EVENT_TYPE;
}

/** When the overlap of a rotation made at `now` ends (the subscription's `secret_rotation_ends_at`). */
export function secretRotationEndsAt(now: Date = new Date()): Date {
  return new Date(now.getTime() + SECRET_ROTATION_OVERLAP_MS);
}

/** Deliveries created before this instant are past retention: not listed, and may be deleted. */
export function deliveryLogCutoff(now: Date = new Date()): Date {
  return new Date(now.getTime() - DELIVERY_LOG_RETENTION_MS);
}

/** What a refused webhook URL scheme is told, in both languages. */
export const WEBHOOK_URL_MESSAGE = { en: 'Must be an absolute https URL', fr: 'Doit être une URL https absolue' } as const;

/**
 * The scheme rule of a webhook URL, which depends on the server (docs/decisions/webhook-delivery.md):
 * https only (docs/decisions/webhooks.md), and http too when private addresses are allowed (local
 * development, `network.allowPrivateAddresses`). The contract takes any absolute http(s) URL; the
 * server and the mock call this next, so both answer alike. Null when the URL is taken, else the
 * `validation_failed` errors to answer.
 */
export function webhookUrlSchemeError(
  url: string,
  allowPrivateAddresses: boolean,
  language: Language,
): { url: { code: string; message: string }[] } | null {
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    protocol = '';
  }
  if (protocol === 'https:' || (allowPrivateAddresses && protocol === 'http:')) return null;
  return { url: [{ code: 'invalid_url', message: WEBHOOK_URL_MESSAGE[language] }] };
}

/**
 * The time of the next event: now, or 1 ms after the previous event when the clock has not moved
 * on, so that events published together (signal.detected, then recommendations.ready) keep their
 * order wherever they are ordered by time.
 */
export function nextEventTime(previousMs: number, nowMs: number): number {
  return Math.max(nowMs, previousMs + 1);
}
