import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalKeyword } from '../../src/rules/keywords.js';

describe('canonical keywords', () => {
  it('trims, lowercases (Unicode-aware), collapses spaces and composes accents', () => {
    expect(canonicalKeyword('  Café   CRÈME\t')).toBe('café crème');
    expect(canonicalKeyword('cafe\u0301')).toBe('café');
    expect(canonicalKeyword('ÉCOLE Ünï')).toBe('école ünï');
  });

  it('is idempotent (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        expect(canonicalKeyword(canonicalKeyword(text))).toBe(canonicalKeyword(text));
      }),
    );
  });
});
