import { describe, expect, it } from 'vitest';
import { bySummaryOrder } from '../../src/rules/index.js';

describe('the order of an issue summary’s groups (server and mock)', () => {
  it('puts errors first, then the most frequent, then names in code-point order, not the locale’s', () => {
    const groups = [
      { name: 'b', severity: 'info' as const, occurrences: 9 },
      { name: 'a', severity: 'warning' as const, occurrences: 1 },
      { name: 'c', severity: 'warning' as const, occurrences: 5 },
      { name: 'z', severity: 'error' as const, occurrences: 2 },
      { name: 'a', severity: 'error' as const, occurrences: 2 },
      { name: 'Z', severity: 'error' as const, occurrences: 2 },
    ];
    expect([...groups].sort(bySummaryOrder).map((g) => `${g.severity} ${g.name}`)).toEqual(['error Z', 'error a', 'error z', 'warning c', 'warning a', 'info b']);
  });
});
