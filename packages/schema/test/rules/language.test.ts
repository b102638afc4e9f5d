import { describe, expect, it } from 'vitest';
import { pickLanguage } from '../../src/rules/language.js';

describe('language negotiation (docs/decisions/errors.md)', () => {
  it('answers in French by default and when neither language is asked for', () => {
    expect(pickLanguage(undefined)).toBe('fr');
    expect(pickLanguage('')).toBe('fr');
    expect(pickLanguage('de-DE, es')).toBe('fr');
  });

  it('honours regions, q-values and, between equals, the order given', () => {
    expect(pickLanguage('en-GB')).toBe('en');
    expect(pickLanguage('fr;q=0.5, en;q=0.8')).toBe('en');
    expect(pickLanguage('en, fr')).toBe('en');
    expect(pickLanguage('FR-ca, en')).toBe('fr');
    expect(pickLanguage('de, en;q=0.1')).toBe('en');
  });

  it('never picks a language refused with q=0', () => {
    expect(pickLanguage('en;q=0')).toBe('fr');
    expect(pickLanguage('fr;q=0, en;q=0.2')).toBe('en');
  });

  it('gives the weight of * to the language the header does not name', () => {
    expect(pickLanguage('*')).toBe('fr');
    expect(pickLanguage('fr;q=0, *')).toBe('en');
    expect(pickLanguage('en;q=0, *')).toBe('fr');
    expect(pickLanguage('*;q=0.5, en;q=0.1')).toBe('fr');
    expect(pickLanguage('de, *;q=0.5, fr;q=0.1')).toBe('en');
    expect(pickLanguage('en, *')).toBe('en');
    expect(pickLanguage('*;q=0')).toBe('fr');
  });
});
