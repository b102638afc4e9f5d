import { describe, expect, it } from 'vitest';
import { CHECK_GUIDE } from '../../src/rules/check-guide.js';
import { CHECKS } from '../../src/rules/issue-catalogue.js';

describe('the check guide', () => {
  it('says why and how to fix for exactly the checks of the catalogue, in both languages', () => {
    expect(Object.keys(CHECK_GUIDE).sort()).toEqual(Object.keys(CHECKS).sort());
    for (const [name, guide] of Object.entries(CHECK_GUIDE)) {
      for (const text of [guide.why, guide.fix]) {
        expect(text.en.length, name).toBeGreaterThan(20);
        expect(text.fr, name).not.toBe(text.en);
      }
    }
  });
});
