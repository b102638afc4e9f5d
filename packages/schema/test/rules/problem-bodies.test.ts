import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ERROR_TYPE_BASE, Problem } from '../../src/errors.js';
import { buildProblem, fieldErrors, problemTypeBase } from '../../src/rules/problem-bodies.js';

describe('problem bodies (RFC 9457)', () => {
  it('titles a catalogue code in the caller’s language, with its status and extras', () => {
    const fr = buildProblem('rate_limited', 'fr', { retry_after: 3 });
    const en = buildProblem('rate_limited', 'en');
    expect(fr).toMatchObject({ type: `${ERROR_TYPE_BASE}rate_limited`, status: 429, code: 'rate_limited', retry_after: 3 });
    expect(fr.title).not.toBe(en.title);
    expect(Problem.safeParse(fr).success).toBe(true);
  });

  it('puts `type` under the documentation base a server is given', () => {
    expect(problemTypeBase('https://docs.example.com/api//')).toBe('https://docs.example.com/api/errors#');
    expect(problemTypeBase(null)).toBe(ERROR_TYPE_BASE);
    expect(buildProblem('not_found', 'en', {}, problemTypeBase('https://d.example')).type).toBe('https://d.example/errors#not_found');
  });

  it('keys validation errors by field path: missing, wrong type, unknown field, custom code', () => {
    const schema = z.strictObject({
      name: z.string(),
      schedule: z.object({ time: z.string() }),
      url: z.string().refine((v) => v.startsWith('https:'), { params: { code: 'invalid_url', fr: 'URL https requise' } }),
    });
    const result = schema.safeParse({ schedule: { time: 3 }, url: 'http://x', constructor: 1 }, { reportInput: true });
    if (result.success) throw new Error('expected a refusal');
    const fr = fieldErrors(result.error.issues, 'fr');
    expect(Object.getPrototypeOf(fr)).toBeNull();
    expect({ ...fr }).toEqual({
      name: [{ code: 'required', message: 'Champ requis' }],
      'schedule.time': [{ code: 'invalid_type', message: 'Type invalide' }],
      url: [{ code: 'invalid_url', message: 'URL https requise' }],
      constructor: [{ code: 'unknown_field', message: 'Champ inconnu' }],
    });
    const en = fieldErrors(result.error.issues, 'en');
    expect(en.name).toEqual([{ code: 'required', message: 'Required' }]);
    expect(en.constructor).toEqual([{ code: 'unknown_field', message: 'Unknown field' }]);
  });
});
