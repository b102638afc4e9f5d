import { describe, expect, it } from 'vitest';
import { CONTENT_AXES, contentAxes, TECHNIQUE_AXES, techniqueAxes } from '../../src/rules/scorecard-axes.js';

const scoreOf = (category: string) => category.length;
const sum = (weights: number[]) => weights.reduce((a, b) => a + b, 0);

describe('scorecard axes (docs/decisions/scorecard.md)', () => {
  it('weighs the technique categories equally, and PageSpeed once measured', () => {
    const without = techniqueAxes(scoreOf, null);
    expect(without.map((a) => a.key)).toEqual([...TECHNIQUE_AXES]);
    expect(sum(without.map((a) => a.weight))).toBeCloseTo(1);
    const withSpeed = techniqueAxes(scoreOf, 42);
    expect(withSpeed.at(-1)).toEqual({ key: 'pagespeed', score: 42, weight: 1 / (TECHNIQUE_AXES.length + 1) });
    expect(withSpeed[0].score).toBe(scoreOf(TECHNIQUE_AXES[0]));
  });

  it('shows AI reachability with no score and no weight when the crawl did not check it', () => {
    const unchecked = contentAxes(scoreOf, false);
    expect(unchecked.scored).not.toContain('ai_reachability');
    expect(unchecked.axes.find((a) => a.key === 'ai_reachability')).toEqual({ key: 'ai_reachability', score: null, weight: 0 });
    expect(sum(unchecked.axes.map((a) => a.weight))).toBeCloseTo(1);
    const checked = contentAxes(scoreOf, true);
    expect(checked.scored).toEqual([...CONTENT_AXES]);
    expect(checked.axes.find((a) => a.key === 'ai_reachability')?.weight).toBe(1 / CONTENT_AXES.length);
  });
});
