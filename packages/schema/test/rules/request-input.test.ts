import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkInput, nulPaths } from '../../src/rules/request-input.js';

const Body = z.strictObject({ name: z.string(), keywords: z.array(z.string()).optional() });

describe('request input', () => {
  it('gives the parsed value when it passes', () => {
    expect(checkInput(Body, { name: 'a', keywords: ['b'] }, 'en')).toEqual({ ok: true, data: { name: 'a', keywords: ['b'] } });
  });

  it('refuses a NUL character in any string, by field path, once per field', () => {
    const refused = checkInput(Body, { name: 'a\u0000', keywords: ['ok', 'b\u0000'] }, 'en');
    expect(refused).toEqual({
      ok: false,
      errors: expect.objectContaining({
        name: [{ code: 'invalid_format', message: 'Must not contain the NUL character' }],
        'keywords.1': [{ code: 'invalid_format', message: 'Must not contain the NUL character' }],
      }),
    });
    // A field already refused by the schema gets no second error for its NUL.
    const once = checkInput(Body, { name: 1, extra: 'x\u0000' }, 'fr');
    expect(once.ok ? null : { ...once.errors }).toEqual({ name: [{ code: 'invalid_type', message: 'Type invalide' }], extra: [{ code: 'unknown_field', message: 'Champ inconnu' }] });
  });

  it('reports an error on no field under the name of the whole value', () => {
    const refused = checkInput(Body, 'text', 'en', 'body');
    expect(refused.ok ? null : Object.keys(refused.errors)).toEqual(['body']);
  });

  it('walks deep values without recursion', () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(nulPaths(deep)).toHaveLength(1);
  });

  it('finds exactly the strings holding a NUL (property)', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ minLength: 1 }).filter((k) => !k.includes('.')), fc.string()), (record) => {
        const expected = Object.keys(record).filter((k) => record[k].includes('\u0000'));
        expect(nulPaths(record).sort()).toEqual(expected.sort());
      }),
    );
  });
});
