import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { healthScore, healthScoreExact } from '../../src/rules/health-score.js';

const severity = fc.constantFrom('error' as const, 'warning' as const, 'info' as const);

describe('health score (docs/health-score.md)', () => {
  it('scores an error on every page 70, nothing 100, no pages null', () => {
    expect(healthScore({ pages: 100, checks: [{ severity: 'error', pages: 100 }] })).toBe(70);
    expect(healthScore({ pages: 100, checks: [] })).toBe(100);
    expect(healthScore({ pages: 10, checks: [{ severity: 'info', pages: 10, site: true }] })).toBe(100);
    expect(healthScore({ pages: 0, checks: [] })).toBeNull();
  });

  it('counts a site-wide check as firing on every page', () => {
    expect(healthScore({ pages: 100, checks: [{ severity: 'warning', pages: 1, site: true }] })).toBe(
      healthScore({ pages: 100, checks: [{ severity: 'warning', pages: 100 }] }),
    );
  });

  it('stays within 0..100 and never rises when a check fires on more pages (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1000 }), fc.array(fc.record({ severity, pages: fc.nat(1000) }), { maxLength: 8 }), fc.nat(1000), (pages, checks, more) => {
        const score = healthScoreExact({ pages, checks })!;
        expect(score).toBeGreaterThanOrEqual(0);
        expect(score).toBeLessThanOrEqual(100);
        if (checks.length === 0) return;
        const worse = checks.map((c, i) => (i === 0 ? { ...c, pages: c.pages + more } : c));
        expect(healthScoreExact({ pages, checks: worse })!).toBeLessThanOrEqual(score);
      }),
    );
  });
});
