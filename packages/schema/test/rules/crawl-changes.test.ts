import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  HEALTH_DROP_ERROR,
  HEALTH_DROP_WARNING,
  IMPACT_PILLAR_WEIGHTS,
  compareRecommendations,
  scorePointsWon,
  pillarOf,
  recommendationImpact,
  regressionSignal,
} from '../../src/rules/crawl-changes.js';

const none = { error: 0, warning: 0, info: 0 };
const steady = { score: 80, previous: 80 };

describe('regressionSignal (docs/decisions/regression-signals.md)', () => {
  it('signals new issues at or above the threshold’s severity', () => {
    expect(regressionSignal('warning', { newIssues: { ...none, warning: 1 }, health: steady })).toEqual({ severity: 'warning', reasons: ['new_issues'] });
    expect(regressionSignal('warning', { newIssues: { ...none, error: 1 }, health: steady })).toEqual({ severity: 'error', reasons: ['new_issues'] });
    expect(regressionSignal('error', { newIssues: { ...none, warning: 3 }, health: steady })).toBeNull();
    expect(regressionSignal('error', { newIssues: { ...none, error: 1 }, health: steady })).toEqual({ severity: 'error', reasons: ['new_issues'] });
    expect(regressionSignal('warning', { newIssues: { ...none, info: 9 }, health: steady })).toBeNull();
  });

  it('signals a health score fall past the margin of the threshold’s severity', () => {
    const fall = (points: number) => ({ newIssues: none, health: { score: 80 - points, previous: 80 } });
    expect(regressionSignal('warning', fall(HEALTH_DROP_WARNING))).toBeNull();
    expect(regressionSignal('warning', fall(HEALTH_DROP_WARNING + 1))).toEqual({ severity: 'warning', reasons: ['health_score_drop'] });
    expect(regressionSignal('error', fall(HEALTH_DROP_WARNING + 1))).toBeNull();
    expect(regressionSignal('error', fall(HEALTH_DROP_ERROR + 1))).toEqual({ severity: 'error', reasons: ['health_score_drop'] });
    expect(regressionSignal('warning', { newIssues: none, health: { score: null, previous: 80 } })).toBeNull();
  });

  it('never signals when off; what error signals, warning signals too (property)', () => {
    const counts = fc.record({ error: fc.nat(5), warning: fc.nat(5), info: fc.nat(5) });
    const score = fc.option(fc.integer({ min: 0, max: 100 }), { nil: null });
    fc.assert(
      fc.property(counts, score, score, (newIssues, now, before) => {
        const input = { newIssues, health: { score: now, previous: before } };
        expect(regressionSignal('off', input)).toBeNull();
        const strict = regressionSignal('error', input);
        if (strict) {
          expect(strict.severity).toBe('error');
          expect(regressionSignal('warning', input)?.severity).toBe('error');
        }
      }),
    );
  });
});

describe('recommendations', () => {
  it('weighs severity × pages × pillar, a site-wide check on every scored page', () => {
    expect(recommendationImpact({ name: 'http_4xx', severity: 'error', category: 'http', pages: 4, scoredPages: 100 })).toBe(4);
    expect(recommendationImpact({ name: 'title_duplicate', severity: 'warning', category: 'titles', pages: 10, scoredPages: 100 })).toBe(Math.round(0.35 * 10 * IMPACT_PILLAR_WEIGHTS.contenu * 100) / 100);
    expect(recommendationImpact({ name: 'robots_txt_5xx', severity: 'error', category: 'robots_sitemaps', pages: 1, scoredPages: 100 })).toBe(100);
    expect(pillarOf('accessibility')).toBe('accessibilite');
  });

  it('orders the fix list by severity, then pages affected, then score points won: a 404 on 3 pages before any notice', () => {
    const sorted = [
      { name: 'robots_txt_missing', severity: 'info' as const, pages: 100, score_points: 0 },
      { name: 'b', severity: 'warning' as const, pages: 2, score_points: 1 },
      { name: 'http_4xx', severity: 'error' as const, pages: 3, score_points: 5 },
      { name: 'a', severity: 'warning' as const, pages: 2, score_points: 3 },
      { name: 'c', severity: 'warning' as const, pages: 9, score_points: 0.5 },
    ].sort(compareRecommendations);
    expect(sorted.map((r) => r.name)).toEqual(['http_4xx', 'c', 'a', 'b', 'robots_txt_missing']);
  });

  it('ranks a site-wide check as on every page, though it is reported once: a robots.txt answering 500 before a 404 on two pages', () => {
    // robots_txt_5xx and hreflang_missing are reported on the start URL (pages: 1) and cost their
    // full weight (share 1): the Debian Reference's missing hreflang (5 points) came after a
    // warning on 2 pages worth 1.9.
    const sorted = [
      { name: 'http_4xx', severity: 'error' as const, pages: 2, score_points: 2.8 },
      { name: 'robots_txt_5xx', severity: 'error' as const, pages: 1, score_points: 20 },
      { name: 'thin_content', severity: 'warning' as const, pages: 2, score_points: 1.9 },
      { name: 'description_missing', severity: 'warning' as const, pages: 48, score_points: 9.6 },
      { name: 'hreflang_missing', severity: 'warning' as const, pages: 1, score_points: 5 },
      { name: 'sitemap_not_in_robots', severity: 'info' as const, pages: 1, score_points: 0 },
      { name: 'og_missing', severity: 'info' as const, pages: 48, score_points: 0 },
    ].sort(compareRecommendations);
    expect(sorted.map((r) => r.name)).toEqual(['robots_txt_5xx', 'http_4xx', 'hreflang_missing', 'description_missing', 'thin_content', 'sitemap_not_in_robots', 'og_missing']);
  });

  it('computes the score points a fix wins: the pillar score without the check, minus the score with it', () => {
    const checks = [
      { name: 'http_4xx', severity: 'error' as const, category: 'http', pages: 25 },
      { name: 'redirect_chain', severity: 'warning' as const, category: 'http', pages: 100 },
      { name: 'robots_txt_missing', severity: 'info' as const, category: 'robots_sitemaps', pages: 1 },
      { name: 'title_missing', severity: 'error' as const, category: 'titles', pages: 100 },
    ];
    // Technique counts the content checks too (its content_checks axis, as the scorecard does):
    // exp(−0.35·√0.25 − 0.12 − 0.35) → without http_4xx exp(−0.12 − 0.35).
    const expected = Math.round((100 * Math.exp(-0.12 - 0.35) - 100 * Math.exp(-0.35 * 0.5 - 0.12 - 0.35)) * 10) / 10;
    const scored = { pages: 100, htmlPages: 100 };
    expect(scorePointsWon(checks[0], checks, scored)).toBe(expected);
    expect(scorePointsWon(checks[2], checks, scored)).toBe(0);
    expect(scorePointsWon(checks[3], checks, scored)).toBe(Math.round((100 - 100 * Math.exp(-0.35)) * 10) / 10);
    // With 75 HTML pages among the 100 URLs, title_missing on 75 pages is on all of them: the same points.
    const onHtml = checks.map((c) => (c.name === 'title_missing' ? { ...c, pages: 75 } : c));
    expect(scorePointsWon(onHtml[3], onHtml, { pages: 100, htmlPages: 75 })).toBe(scorePointsWon(checks[3], checks, scored));
  });
});
