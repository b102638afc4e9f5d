import { describe, expect, it } from 'vitest';
import { CHANGE_KINDS, CRAWL_PILLAR_CATEGORIES, CRAWL_PILLARS } from '../../src/rules/crawl-pillars.js';
import { CHECKS } from '../../src/rules/issue-catalogue.js';

describe('crawl pillars and change kinds', () => {
  it('lists the issue kinds before the page kinds, gone-with-page between fixed and persisting', () => {
    const firstPageKind = CHANGE_KINDS.findIndex((kind) => !kind.startsWith('issue_'));
    expect(CHANGE_KINDS.slice(firstPageKind).every((kind) => !kind.startsWith('issue_'))).toBe(true);
    expect(CHANGE_KINDS.indexOf('issue_gone_with_page')).toBe(CHANGE_KINDS.indexOf('issue_fixed') + 1);
    expect(CHANGE_KINDS.indexOf('issue_persisting')).toBe(CHANGE_KINDS.indexOf('issue_gone_with_page') + 1);
  });

  it('puts redirect_changed last, after status_changed: the ranks stored before it do not move', () => {
    expect(CHANGE_KINDS.slice(-2)).toEqual(['status_changed', 'redirect_changed']);
    expect(CHANGE_KINDS.indexOf('redirect_changed')).toBe(7);
  });

  it('puts every issue category of the catalogue in exactly one crawl pillar', () => {
    expect([...CRAWL_PILLARS].sort()).toEqual(Object.keys(CRAWL_PILLAR_CATEGORIES).sort());
    const placed = Object.values(CRAWL_PILLAR_CATEGORIES).flat();
    expect(new Set(placed).size).toBe(placed.length);
    const used = new Set(Object.values(CHECKS).map((check) => check.category));
    // Every category a check of the catalogue is filed under counts in a pillar (accessibility's
    // checks come from axe at run time, not from the catalogue).
    for (const category of used) expect(placed).toContain(category);
  });
});
