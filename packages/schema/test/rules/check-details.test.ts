import { describe, expect, it } from 'vitest';
import { CHECK_DETAILS } from '../../src/rules/check-details.js';

describe('check details', () => {
  it('lists at most a few items and counts the rest', () => {
    expect(CHECK_DETAILS.internalLinksToHttp(['a', 'b', 'c'])).toBe('3 internal link(s) to HTTP: a, b, c');
    expect(CHECK_DETAILS.internalLinksToHttp(['a', 'b', 'c', 'd', 'e'])).toBe('5 internal link(s) to HTTP: a, b, c (+2)');
    expect(CHECK_DETAILS.urlParameters(['a', 'b', 'c', 'd', 'e', 'f', 'g'])).toBe('7 parameters: a, b, c, d, e, f (+1)');
  });

  it('counts the nofollow links apart from the sample it names (the crawl keeps a few target ids, not every URL)', () => {
    expect(CHECK_DETAILS.nofollowToIndexable(5, ['a', 'b', 'c'], false)).toBe('5 nofollow link(s) to indexable pages: a, b, c (+2)');
    expect(CHECK_DETAILS.nofollowToIndexable(2, ['a', 'b'], true)).toBe('page-level nofollow on 2 link(s) to indexable pages: a, b');
    expect(CHECK_DETAILS.internalNofollow(4, ['a', 'b', 'c'], false)).toBe('4 nofollow internal link(s): a, b, c (+1)');
    expect(CHECK_DETAILS.internalNofollow(4, ['a', 'b', 'c'], true)).toBe('meta robots nofollow on the page');
  });

  it('cuts quoted page text to a bounded length', () => {
    expect(CHECK_DETAILS.soft404('x'.repeat(500))).toBe(`answers 200 with the title "${'x'.repeat(120)}"`);
    expect(CHECK_DETAILS.hreflangInvalid('y'.repeat(100))).toBe(`invalid hreflang "${'y'.repeat(40)}"`);
  });

  it('names what a structured data entity lacks', () => {
    expect(CHECK_DETAILS.schemaIncomplete('Product', ['offers', 'review'])).toBe('Product without offers, review');
  });
});
