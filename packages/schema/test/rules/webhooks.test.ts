import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { deliveryLogCutoff, isRetriedEvent, nextEventTime, secretRotationEndsAt, webhookUrlSchemeError } from '../../src/rules/webhooks.js';

const NOW = new Date('2026-01-15T10:00:00Z');

describe('webhook rules (docs/decisions/webhook-delivery.md)', () => {
  it('takes https URLs, and http only where private addresses are allowed', () => {
    expect(webhookUrlSchemeError('https://hooks.example.com/in', false, 'en')).toBeNull();
    expect(webhookUrlSchemeError('http://hooks.example.com/in', true, 'en')).toBeNull();
    expect(webhookUrlSchemeError('http://hooks.example.com/in', false, 'en')).toEqual({ url: [{ code: 'invalid_url', message: 'Must be an absolute https URL' }] });
    expect(webhookUrlSchemeError('ftp://x', true, 'fr')).toEqual({ url: [{ code: 'invalid_url', message: 'Doit être une URL https absolue' }] });
    expect(webhookUrlSchemeError('not a url', true, 'en')).not.toBeNull();
  });

  it('retries every event but the test one', () => {
    expect(isRetriedEvent('crawl.completed')).toBe(true);
    expect(isRetriedEvent('webhook.test')).toBe(false);
  });

  it('overlaps a rotated secret for 24 h and keeps the delivery log 30 days', () => {
    expect(secretRotationEndsAt(NOW).toISOString()).toBe('2026-01-16T10:00:00.000Z');
    expect(deliveryLogCutoff(NOW).toISOString()).toBe('2025-12-16T10:00:00.000Z');
  });
});

describe('nextEventTime', () => {
  it('is now when the clock has moved on, else 1 ms after the previous event: always strictly later', () => {
    expect(nextEventTime(1_000, 5_000)).toBe(5_000);
    expect(nextEventTime(5_000, 5_000)).toBe(5_001);
    expect(nextEventTime(5_001, 5_000)).toBe(5_002);
    fc.assert(
      fc.property(fc.nat(), fc.nat(), (previous, now) => {
        const next = nextEventTime(previous, now);
        return next > previous && next >= now;
      }),
    );
  });
});
