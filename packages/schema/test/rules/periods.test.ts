import { describe, expect, it } from 'vitest';
import { positionsPeriod, searchConsolePeriod } from '../../src/rules/periods.js';

const NOW = new Date('2026-01-15T10:00:20Z'); // a Thursday

describe('periods', () => {
  it('ends today for positions and yesterday for Search Console, both ends inclusive', () => {
    expect(positionsPeriod('7d', NOW)).toEqual({ preset: '7d', from: '2026-01-09', to: '2026-01-15' });
    expect(searchConsolePeriod('28d', NOW)).toEqual({ preset: '28d', from: '2025-12-18', to: '2026-01-14' });
  });
});
