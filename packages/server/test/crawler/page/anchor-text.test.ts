/** Generic anchor texts (anchor-text.ts): the same verdict as lower-casing and every replacement run on each text. */
import { expect, it } from 'vitest';
import fc from 'fast-check';
import { GENERIC_ANCHORS, isGenericAnchor } from '../../../src/crawler/page/anchor-text.js';

/** The verdict as first written: each replacement run on every text. */
const reference = (text: string) =>
  GENERIC_ANCHORS.has(text.toLowerCase().replace(/[\s.…:!»›>→]+$/u, '').replace(/^[«‹<←\s]+/u, '').replace(/’/g, "'"));

it('judges an anchor text as the full normalisation does, whatever decorates either end', () => {
  const decorations = ['', ' ', '.', '…', ':', '!', '»', '›', '>', '→', '«', '‹', '<', '←', '\u00a0', '\u2003', '’', "'"];
  const words = [...GENERIC_ANCHORS, 'Read More', 'EN SAVOIR PLUS', 'plus d’infos', 'Plus D’Informations', 'blue cotton', 'Item 12', ''];
  fc.assert(
    fc.property(fc.constantFrom(...decorations), fc.constantFrom(...words), fc.constantFrom(...decorations), fc.string({ maxLength: 4 }), fc.boolean(), (before, word, after, noise, noisy) => {
      const text = `${before}${word}${noisy ? noise : ''}${after}`;
      expect(isGenericAnchor(text)).toBe(reference(text));
    }),
    { numRuns: 3000 },
  );
  expect(isGenericAnchor('« Lire la suite »')).toBe(true);
  expect(isGenericAnchor('Plus d’infos →')).toBe(true);
  expect(isGenericAnchor('Blue cotton')).toBe(false);
});
