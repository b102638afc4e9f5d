import { describe, expect, it } from 'vitest';
import { ifNoneMatchMatches } from '../../src/rules/conditional-requests.js';

describe('conditional requests', () => {
  it('compares ETags weakly, `*` anywhere in the list matching', () => {
    expect(ifNoneMatchMatches('"a"', 'W/"a"')).toBe(true);
    expect(ifNoneMatchMatches('W/"b", W/"a"', 'W/"a"')).toBe(true);
    expect(ifNoneMatchMatches('W/"b", *', 'W/"a"')).toBe(true);
    expect(ifNoneMatchMatches('W/"b"', 'W/"a"')).toBe(false);
    expect(ifNoneMatchMatches(null, 'W/"a"')).toBe(false);
  });
});
