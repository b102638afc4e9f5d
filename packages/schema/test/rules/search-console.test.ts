import { describe, expect, it } from 'vitest';
import { SearchConsole } from '../../src/resources/search-console.js';
import { searchConsoleSync } from '../../src/rules/search-console.js';

describe('Search Console rules (docs/decisions/search-console.md)', () => {
  it('says whether linked properties synchronise: a provider does, none says why, in the read’s own shape', () => {
    expect(searchConsoleSync(true)).toEqual({ available: true, reason: null });
    expect(searchConsoleSync(false)).toEqual({ available: false, reason: 'no_provider' });
    for (const sync of [searchConsoleSync(true), searchConsoleSync(false)]) expect(SearchConsole.shape.sync.safeParse(sync).success).toBe(true);
  });
});
