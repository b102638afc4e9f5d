import { describe, expect, it } from 'vitest';
import { CHECK_GUIDE } from '../../src/rules/check-guide.js';
import { THRESHOLDS } from '../../src/rules/check-thresholds.js';
import { CHECKS } from '../../src/rules/issue-catalogue.js';

describe('check thresholds', () => {
  it('are the values the catalogue labels and advice quote', () => {
    expect(CHECKS.url_too_long.label.en).toBe(`URL over ${THRESHOLDS.urlMaxChars} characters`);
    expect(CHECKS.title_too_long.label.fr).toBe(`Titre de plus de ${THRESHOLDS.titleMax} caractères`);
    expect(CHECK_GUIDE.slow_response.fix.en).toContain(`${THRESHOLDS.slowMs} ms`);
  });

  it('bound each range from below to above', () => {
    expect(THRESHOLDS.titleMin).toBeLessThan(THRESHOLDS.titleMax);
    expect(THRESHOLDS.descriptionMin).toBeLessThan(THRESHOLDS.descriptionMax);
  });
});
