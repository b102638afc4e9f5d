/** The health score's published properties (docs/health-score.md), as property tests. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { healthScore as publishedScore, healthScoreExact } from '../../../src/crawler/index.js';

type Sev = 'error' | 'warning' | 'info';
const severity = fc.constantFrom<Sev>('error', 'warning', 'info');
const site = fc.integer({ min: 1, max: 500 }).chain((pages) =>
  fc.record({
    pages: fc.constant(pages),
    checks: fc.array(fc.record({ severity, pages: fc.integer({ min: 1, max: pages }) }), { maxLength: 12 }),
  }),
);

/** A site whose scored URLs are all HTML pages, so every check's share is of the same pages. */
interface ScoreInput {
  pages: number;
  checks: { severity: Sev; pages: number; site?: boolean }[];
}
const input = ({ pages, checks }: ScoreInput) => ({ pages, htmlPages: pages, checks: checks.map((c) => ({ severity: c.severity, pages: c.pages, basis: c.site ? ('site' as const) : ('page' as const) })) });
const score = (s: ScoreInput) => healthScoreExact(input(s))!;
const healthScore = (s: ScoreInput) => publishedScore(input(s));

describe('health score', () => {
  it('is 100 without issues, null without pages, and stays within 0..100', () => {
    expect(healthScore({ pages: 10, checks: [] })).toBe(100);
    expect(healthScore({ pages: 0, checks: [] })).toBeNull();
    fc.assert(
      fc.property(site, (s) => {
        const v = score(s);
        expect(v).toBeGreaterThan(0);
        expect(v).toBeLessThanOrEqual(100);
      }),
    );
  });

  it('info never lowers it', () => {
    fc.assert(
      fc.property(site, fc.integer({ min: 1, max: 500 }), (s, n) => {
        const withInfo = { ...s, checks: [...s.checks, { severity: 'info' as const, pages: Math.min(n, s.pages) }] };
        expect(score(withInfo)).toBe(score(s));
      }),
    );
  });

  it('an error weighs more than a warning on the same pages', () => {
    fc.assert(
      fc.property(site, fc.integer({ min: 1, max: 500 }), (s, n) => {
        const pages = Math.min(n, s.pages);
        const e = score({ ...s, checks: [...s.checks, { severity: 'error', pages }] });
        const w = score({ ...s, checks: [...s.checks, { severity: 'warning', pages }] });
        expect(e).toBeLessThan(w);
      }),
    );
  });

  it('more affected pages never raise it', () => {
    fc.assert(
      fc.property(site, severity, fc.integer({ min: 1, max: 500 }), fc.integer({ min: 1, max: 500 }), (s, sev, a, b) => {
        const [lo, hi] = [Math.min(a, b, s.pages), Math.min(Math.max(a, b), s.pages)];
        expect(score({ ...s, checks: [...s.checks, { severity: sev, pages: hi }] })).toBeLessThanOrEqual(
          score({ ...s, checks: [...s.checks, { severity: sev, pages: lo }] }),
        );
      }),
    );
  });

  it('fixing every instance of one check beats the same number of fixes scattered over checks left open', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 50, max: 400 }),
        fc.constantFrom<Sev>('error', 'warning'),
        fc.integer({ min: 2, max: 40 }),
        fc.integer({ min: 2, max: 5 }),
        fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 5, maxLength: 5 }),
        (pages, sev, n, k, extra) => {
          // Check A has n affected pages; k other checks of the same severity have at least n.
          const others = extra.slice(0, k).map((e) => Math.min(pages, n + e));
          const before: ScoreInput = { pages, checks: [{ severity: sev, pages: n }, ...others.map((p) => ({ severity: sev, pages: p }))] };
          const fixedA: ScoreInput = { pages, checks: others.map((p) => ({ severity: sev, pages: p })) };
          // The same n fixes spread over the others, none of which gets fully fixed.
          const cut = others.map(() => 0);
          for (let left = n, i = 0; left > 0; i = (i + 1) % k) {
            if (cut[i] < others[i] - 1) {
              cut[i]++;
              left--;
            } else if (cut.every((c, j) => c >= others[j] - 1)) return; // cannot scatter without completing one
          }
          const scattered: ScoreInput = {
            pages,
            checks: [{ severity: sev, pages: n }, ...others.map((p, i) => ({ severity: sev, pages: p - cut[i] }))],
          };
          expect(score(fixedA)).toBeGreaterThan(score(scattered));
          expect(score(fixedA)).toBeGreaterThan(score(before));
        },
      ),
    );
  });

  it('counts site-wide checks as affecting every page', () => {
    expect(healthScore({ pages: 50, checks: [{ severity: 'error', pages: 0, site: true }] })).toBe(
      healthScore({ pages: 50, checks: [{ severity: 'error', pages: 50 }] }),
    );
  });

  it('matches the published examples', () => {
    expect(healthScore({ pages: 100, checks: [{ severity: 'error', pages: 100 }] })).toBe(70);
    expect(healthScore({ pages: 100, checks: [{ severity: 'error', pages: 1 }] })).toBe(97);
    expect(healthScore({ pages: 100, checks: [{ severity: 'warning', pages: 100 }] })).toBe(89);
  });
});
