import { describe, expect, it } from 'vitest';
import { CHECK_DETAILS } from '../../src/rules/check-details.js';

describe('check details', () => {
  it('lists at most a few items and counts the rest', () => {
    expect(CHECK_DETAILS.internalLinksToHttp(['a', 'b', 'c'])).toBe('3 internal link(s) to HTTP: a, b, c');
    expect(CHECK_DETAILS.internalLinksToHttp(['a', 'b', 'c', 'd', 'e'])).toBe('5 internal link(s) to HTTP: a, b, c (+2)');
    expect(CHECK_DETAILS.urlParameters(['a', 'b', 'c', 'd', 'e', 'f', 'g'])).toBe('7 parameters: a, b, c, d, e, f (+1)');
  });

  it('cuts quoted page text to a bounded length', () => {
    expect(CHECK_DETAILS.soft404('x'.repeat(500))).toBe(`answers 200 with the title "${'x'.repeat(120)}"`);
    expect(CHECK_DETAILS.hreflangInvalid('y'.repeat(100))).toBe(`invalid hreflang "${'y'.repeat(40)}"`);
  });

  it('names what a structured data entity lacks', () => {
    expect(CHECK_DETAILS.schemaIncomplete('Product', ['offers', 'review'])).toBe('Product without offers, review');
  });
});
