/**
 * The lines the PDF and the workbook print under "Why the score moved" (reports/score-movement.ts):
 * they add up to the published change, and what rounding cannot explain is not called rounding.
 */
import { describe, expect, it } from 'vitest';
import { exportStrings } from '../../src/reports/i18n.js';
import { movementLines } from '../../src/reports/score-movement.js';

const t = exportStrings('en');
const labels = { check: (name: string) => name };
const int = (n: number) => String(n);
const check = (name: string, previous_pages: number, pages: number, points: number) => ({ name, severity: 'error' as const, category: 'http', previous_pages, pages, previous_cost: 0, cost: 0, points });
const health = (previous: number, delta: number) => ({
  key: 'technique' as const,
  score: previous + delta,
  previous_score: previous,
  delta,
  attribution: { previous_score_exact: 78.24, score_exact: 70.93, exact_delta: -7.3, checks: [check('http_5xx', 0, 2, -8.1), check('http_4xx', 3, 1, 0.3), check('http_page', 4, 3, 0.3), check('noindex', 1, 0, 0.2)], other: 0 },
});
const total = (lines: { points: number }[]) => lines.reduce((s, l) => s + Math.round(l.points * 10), 0) / 10;

describe('why the score moved, as printed', () => {
  it('adds up to the published change: the parts, the others in one line, the rounding of the two scores', () => {
    const lines = movementLines(health(78, -7), t, labels, int, 2);
    expect(lines.map((l) => [l.label, l.points])).toEqual([
      ['http_5xx', -8.1],
      ['http_4xx', 0.3],
      ['2 other checks', 0.5],
      ['Rounding of the published scores', 0.3],
    ]);
    expect(lines[0].what).toBe('new (on 2 pages)');
    expect(total(lines)).toBe(-7);
  });

  it('calls a point or more beyond the exact movement "not from a check": a previous score published under earlier rules', () => {
    const lines = movementLines(health(80, -9), t, labels, int);
    expect(lines.at(-1)).toMatchObject({ label: t.changes.movement.notFromChecks, points: -1.7 });
    expect(lines.map((l) => l.label)).not.toContain('Rounding of the published scores');
    expect(total(lines)).toBe(-9);
  });
});
