import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { healthScoreExact } from '../../src/rules/health-score.js';
import { checkBasis } from '../../src/rules/crawl-changes.js';
import {
  CONTENT_AXES,
  contentAxes,
  meanAxes,
  meanComputation,
  pagespeedAxis,
  productComputation,
  type ScoreData,
  scoreOf,
  TECHNIQUE_AXES,
  TECHNIQUE_CONTENT_AXIS,
  techniqueAxes,
} from '../../src/rules/scorecard-axes.js';
import { CHECKS } from '../../src/rules/issue-catalogue.js';

const DATA: ScoreData = {
  pages: 100,
  htmlPages: 100,
  checks: [
    { name: 'http_4xx', severity: 'error', category: 'http', pages: 25 },
    { name: 'robots_txt_missing', severity: 'info', category: 'robots_sitemaps', pages: 1 },
    { name: 'title_missing', severity: 'error', category: 'titles', pages: 100 },
  ],
};

describe('scorecard axes and their computation (docs/decisions/scorecard.md)', () => {
  it('technique: one axis per technical category, the content checks, then PageSpeed; each multiplies the score', () => {
    const axes = techniqueAxes(DATA, 50);
    expect(axes.map((a) => a.key)).toEqual([...TECHNIQUE_AXES, TECHNIQUE_CONTENT_AXIS, 'pagespeed']);
    expect(axes.every((a) => a.weight === 1)).toBe(true);
    const http = axes.find((a) => a.key === 'http')!;
    expect(http.checks).toEqual([{ name: 'http_4xx', severity: 'error', pages: 25, judged_pages: 100, site: false, share: 0.25, weight: 0.35, cost: 0.175 }]);
    expect(http.factor).toBeCloseTo(Math.exp(-0.175));
    expect(http.score).toBe(84);
    expect(axes.find((a) => a.key === TECHNIQUE_CONTENT_AXIS)!.score).toBe(70);
    // A notice is shown and costs nothing; a site-wide check counts on every page.
    expect(axes.find((a) => a.key === 'robots_sitemaps')!.checks).toEqual([{ name: 'robots_txt_missing', severity: 'info', pages: 1, judged_pages: 100, site: true, share: 1, weight: 0, cost: 0 }]);
    expect(axes.at(-1)).toEqual({ key: 'pagespeed', score: 50, weight: 1, factor: Math.exp(-0.35 * 0.5), checks: [] });
    // 100 × 0.84 × 0.70 × 0.84 = 49.4
    expect(productComputation(axes, DATA).exact).toBeCloseTo(100 * Math.exp(-0.175 - 0.35 - 0.175));
  });

  it('content: AI reachability has no score, weight nor factor when the crawl did not check it', () => {
    const unchecked = contentAxes(DATA, false);
    expect(unchecked.scored).not.toContain('ai_reachability');
    expect(unchecked.axes.find((a) => a.key === 'ai_reachability')).toEqual({ key: 'ai_reachability', score: null, weight: 0, factor: null, checks: [] });
    expect(productComputation(unchecked.axes, DATA).exact).toBeCloseTo(70.469, 2);
    const checked = contentAxes(DATA, true);
    expect(checked.scored).toEqual([...CONTENT_AXES]);
    expect(checked.axes.find((a) => a.key === 'ai_reachability')).toMatchObject({ score: 100, weight: 1, factor: 1 });
  });

  it('no scored page: no axis score and no exact score', () => {
    const axes = techniqueAxes({ pages: 0, htmlPages: 0, checks: [] }, null);
    expect(axes.every((a) => a.score === null && a.factor === null)).toBe(true);
    expect(productComputation(axes, { pages: 0, htmlPages: 0 })).toEqual({ method: 'product', scored_pages: 0, html_pages: 0, exact: null });
  });

  it('weighted mean: Σ weight × score over the axes with a score', () => {
    const axes = [
      { key: 'ctr', score: 73, weight: 0.6 },
      { key: 'trend', score: 80, weight: 0.4 },
    ];
    expect(meanAxes(axes)[0]).toEqual({ key: 'ctr', score: 73, weight: 0.6, factor: null, checks: [] });
    expect(meanComputation(axes).exact).toBeCloseTo(75.8);
    expect(meanComputation([{ score: null, weight: 0 }]).exact).toBeNull();
  });

  it('the technique axes multiply to the health score of the same checks, whatever they are', () => {
    const names = Object.keys(CHECKS) as (keyof typeof CHECKS)[];
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.uniqueArray(fc.constantFrom(...names), { maxLength: 25 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 25, maxLength: 25 }),
        fc.option(fc.double({ min: 0, max: 100, noNaN: true }), { nil: null }),
        (pages, htmlShare, picked, fractions, speed) => {
          const htmlPages = Math.round(htmlShare * pages);
          const checks = picked.map((name, i) => ({ name, severity: CHECKS[name].severity, category: CHECKS[name].category as string, pages: Math.round(fractions[i] * pages) }));
          const exact = productComputation(techniqueAxes({ pages, htmlPages, checks }, speed), { pages, htmlPages }).exact!;
          const scored = checks.filter((c) => c.category !== 'accessibility');
          let expected = healthScoreExact({ pages, htmlPages, checks: scored.map((c) => ({ severity: c.severity, pages: c.pages, basis: checkBasis(c.name) })) })!;
          if (speed !== null) expected *= pagespeedAxis(speed).factor!;
          expect(exact).toBeCloseTo(expected, 8);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('scoreOf: the content pillar is the rounded product of its axes (server and mock score it so)', () => {
    expect(scoreOf(DATA, CONTENT_AXES)).toBe(Math.round(productComputation(contentAxes(DATA, true).axes, DATA).exact!));
    expect(scoreOf(DATA, ['http'])).toBe(Math.round(100 * Math.exp(-0.35 * Math.sqrt(0.25))));
    expect(scoreOf({ pages: 0, htmlPages: 0, checks: DATA.checks }, ['http'])).toBeNull();
  });

  it('a check shows the pages it judges: a content check the HTML pages, a status check every scored URL', () => {
    // 100 URLs, of which 50 HTML pages answering 2xx (the rest 404s and PDFs).
    const data = { ...DATA, htmlPages: 50, checks: [...DATA.checks.filter((c) => c.name !== 'title_missing'), { name: 'title_missing', severity: 'error' as const, category: 'titles', pages: 50 }] };
    const axes = techniqueAxes(data, null);
    expect(axes.find((a) => a.key === 'http')!.checks[0]).toMatchObject({ name: 'http_4xx', pages: 25, judged_pages: 100, share: 0.25 });
    expect(axes.find((a) => a.key === TECHNIQUE_CONTENT_AXIS)!.checks[0]).toMatchObject({ name: 'title_missing', pages: 50, judged_pages: 50, share: 1 });
    expect(productComputation(axes, data)).toMatchObject({ scored_pages: 100, html_pages: 50 });
    // The title missing on every HTML page costs what it did when every URL was one.
    expect(scoreOf(data, CONTENT_AXES)).toBe(scoreOf(DATA, CONTENT_AXES));
  });
});
