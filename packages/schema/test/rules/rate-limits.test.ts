import { describe, expect, it } from 'vitest';
import { DEFAULT_PLANS } from '../../src/rules/plans.js';
import { decideRate, rateLimitHeaders, rateLimitRefusal } from '../../src/rules/rate-limits.js';

const NOW = new Date('2026-01-15T10:00:20Z'); // a Thursday

describe('rate limits', () => {
  const limits = { minute: 10, day: 100 };
  it('charges nothing when the cost does not fit, and names the window that frees up last', () => {
    const refused = decideRate({ minute: 10, day: 100 }, 1, limits, NOW);
    expect(refused).toMatchObject({ ok: false, exhausted: 'day' });
    expect(refused.states.map((s) => s.used)).toEqual([10, 100]);
    const minute = decideRate({ minute: 9, day: 5 }, 2, limits, NOW);
    expect(minute).toMatchObject({ ok: false, exhausted: 'minute' });
    const ok = decideRate({ minute: 9, day: 5 }, 1, limits, NOW);
    expect(ok.ok).toBe(true);
    expect(ok.states.map((s) => [s.window, s.used, s.remaining, s.resetsInSeconds])).toEqual([
      ['minute', 10, 0, 40],
      ['day', 6, 94, 50_400 - 20],
    ]);
  });

  it('sends the draft -10 headers for limited windows only', () => {
    const { states } = decideRate({ minute: 0, day: 0 }, 2, limits, NOW);
    expect(rateLimitHeaders(states, 2)).toEqual({
      'X-Request-Cost': '2',
      'RateLimit-Policy': '"minute";q=10;w=60, "day";q=100;w=86400',
      RateLimit: '"minute";r=8;t=40, "day";r=98;t=50380',
      'X-RateLimit-Limit': '10',
      'X-RateLimit-Remaining': '8',
      'X-RateLimit-Reset': '40',
    });
    const unlimited = decideRate({ minute: 0, day: 0 }, 1, { minute: null, day: null }, NOW);
    expect(rateLimitHeaders(unlimited.states, 1)).toEqual({ 'X-Request-Cost': '1' });
  });

  it('answers a 429 with Retry-After and the first plan with a larger window', () => {
    const refused = decideRate({ minute: 60, day: 0 }, 1, DEFAULT_PLANS.starter.rateLimits, NOW);
    if (refused.ok) throw new Error('expected a refusal');
    const { extras, headers } = rateLimitRefusal(refused, DEFAULT_PLANS, DEFAULT_PLANS.starter);
    expect(extras).toEqual({ window: 'minute', retry_after: 40, upgrade_to: 'pro' });
    expect(headers).toMatchObject({ 'Retry-After': '40', 'X-Request-Cost': '0' });
  });
});
