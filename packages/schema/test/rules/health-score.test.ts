import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { healthScore, healthScoreExact, maxCheckLoss } from '../../src/rules/health-score.js';

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

  it('one template decision (a check on every page of any size of site) costs at most its weight: 29.5 points for an error, 11.3 for a warning, none for info (property)', () => {
    expect([maxCheckLoss('error'), maxCheckLoss('warning'), maxCheckLoss('info')].map((x) => Math.round(x * 10) / 10)).toEqual([29.5, 11.3, 0]);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.nat(1_000_000), severity, fc.array(fc.record({ severity, pages: fc.nat(1000) }), { maxLength: 6 }), (pages, on, s, others) => {
        const without = healthScoreExact({ pages, checks: others })!;
        const withTemplate = healthScoreExact({ pages, checks: [...others, { severity: s, pages: Math.min(on, pages) }] })!;
        // Multiplicative: the decision takes at most its share of what is left.
        expect(without - withTemplate).toBeLessThanOrEqual((maxCheckLoss(s) * without) / 100 + 1e-9);
      }),
    );
  });
});
