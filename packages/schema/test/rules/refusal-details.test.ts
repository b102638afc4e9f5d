import { describe, expect, it } from 'vitest';
import { ApiError, problemAnswer } from '../../src/pipeline/problem.js';
import { buildProblem } from '../../src/rules/problem-bodies.js';
import { refusalDetails } from '../../src/rules/refusal-details.js';

describe('refusal details', () => {
  it('has each detail in French and in English, the values it names in both', () => {
    const args: Record<keyof typeof refusalDetails, unknown[]> = {
      crawlNotSettled: ['running'],
      crawlAlreadyRunning: ['c-1'],
      crawlNotFinished: ['queued'],
      exportFailed: ['export.generation_failed'],
      duplicateLogImport: ['i-1', 'https://api.test/v1/projects/p/log-imports/i-1'],
      logImportTooLarge: [1024],
      keywordPool: [2, 9, 10],
      keywordProjectCeiling: [2, 201, 200],
      keywordNotTracked: ['vélo'],
      keywordCheckedToday: ['vélo', '2026-11-29'],
      scheduleNotInPlan: ['daily', 'Starter'],
      crawlsMonthly: [10, 12],
      maxUrls: [5000, 1000],
      liveChecksToday: [5, 7],
      liveChecksThisMonth: [100, 101],
      shuttingDown: [],
      authFailures: [48],
    };
    for (const [name, make] of Object.entries(refusalDetails) as [keyof typeof refusalDetails, (...a: unknown[]) => { fr: string; en: string }][]) {
      const { fr, en } = make(...args[name]);
      expect(fr, name).not.toBe(en);
      for (const value of args[name]) {
        expect(fr, name).toContain(String(value));
        expect(en, name).toContain(String(value));
      }
    }
  });

  it('answers the caller’s language, and keeps English in the error’s message', () => {
    const detail = refusalDetails.keywordNotTracked('vélo');
    expect(buildProblem('keywords.not_tracked', 'fr', { detail }).detail).toBe('« vélo » n’est pas suivi dans ce projet');
    expect(buildProblem('keywords.not_tracked', 'en', { detail }).detail).toBe('"vélo" is not tracked in this project');
    expect(buildProblem('not_found', 'fr', { detail: 'as given' }).detail).toBe('as given');
    expect(buildProblem('not_found', 'fr')).not.toHaveProperty('detail');
    const error = new ApiError('keywords.not_tracked', { detail });
    expect(error.message).toBe(detail.en);
    expect(JSON.parse(problemAnswer(error, 'fr', 'req_1').body as string).detail).toBe(detail.fr);
  });
});
