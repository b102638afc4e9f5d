import { describe, expect, it } from 'vitest';
import { positionMovement, readListedKeywords, visibilityPercent, type ListedKeyword } from '../../src/rules/rank-tracking.js';

describe('rank tracking', () => {
  it('weighs positions by the CTR curve, 0 past the first page', () => {
    expect(visibilityPercent([])).toBeNull();
    expect(visibilityPercent([1])).toBe(100);
    expect(visibilityPercent([3])).toBe(38.6);
    expect(visibilityPercent([1, 11, null])).toBe(33.33);
  });

  it('compares the latest position with the one at the start of the period', () => {
    const at = (date: string, position: number | null) => ({ date, position });
    expect(positionMovement(at('2026-01-01', 5), at('2026-01-10', 3))).toBe('improved');
    expect(positionMovement(at('2026-01-01', 3), at('2026-01-10', 5))).toBe('declined');
    expect(positionMovement(at('2026-01-01', null), at('2026-01-10', 50))).toBe('entered');
    expect(positionMovement(at('2026-01-01', 50), at('2026-01-10', null))).toBe('exited');
    expect(positionMovement(at('2026-01-10', 5), at('2026-01-10', 3))).toBeNull();
    expect(positionMovement(undefined, at('2026-01-10', 3))).toBeNull();
  });

  it('sums up the listed keywords, paused ones included', () => {
    const history = new Map([
      ['2026-01-14', 4],
      ['2026-01-08', 9],
    ]);
    const keyword = (name: string, latest: ListedKeyword['latest'], active = true): ListedKeyword => ({
      keyword: name,
      active,
      latest,
      start: latest && { date: '2025-12-17', position: 8 },
      measuredOn: (day) => (history.has(day) ? { date: day, position: history.get(day)! } : undefined),
      search_volume: null,
      keyword_difficulty: null,
      search_intent: null,
    });
    const read = readListedKeywords(
      [
        keyword('b', { date: '2026-01-15', position: 2, url: 'https://example.com/b', serp_features: ['images'] }),
        keyword('a', { date: '2026-01-15', position: null, url: 'https://example.com/a', serp_features: [] }, false),
        keyword('c', undefined),
      ],
      true,
    );
    expect(read.keywords.map((k) => [k.keyword, k.active, k.measured, k.position, k.url])).toEqual([
      ['a', false, true, null, null],
      ['b', true, true, 2, 'https://example.com/b'],
      ['c', true, false, null, null],
    ]);
    expect(read.keywords[1]).toMatchObject({ delta_1d: 2, delta_7d: 7, delta_30d: null, serp_features: ['images'] });
    expect(read.summary).toEqual({
      average_position: 2,
      ranking_keywords: 1,
      measured_keywords: 2,
      tracked_keywords: 3,
      top3: 1,
      top10: 1,
      visibility_percent: 27.54,
      improved: 1,
      declined: 0,
      entered: 0,
      exited: 1,
    });
    expect(read).toMatchObject({ status: 'active', activeKeywords: 2, lastTrackedOn: '2026-01-15' });
    expect(readListedKeywords([], false).status).toBe('unconfigured');
    expect(readListedKeywords([keyword('a', undefined, false)], true).status).toBe('paused');
    expect(readListedKeywords([keyword('a', undefined)], true).status).toBe('pending');
  });
});
