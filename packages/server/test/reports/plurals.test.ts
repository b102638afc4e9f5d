/** The reports' counted words agree with their count, in English and in French ("1 page sur 17"). */
import { describe, expect, it } from 'vitest';
import { exportStrings } from '../../src/reports/i18n.js';

const en = exportStrings('en');
const fr = exportStrings('fr');

describe('counts in the reports', () => {
  it('writes a share of the scored pages with page or pages', () => {
    expect(fr.inputs.pagesOf('1', '17')).toBe('1 page sur 17');
    expect(fr.inputs.pagesOf('6', '200')).toBe('6 pages sur 200');
    expect(fr.inputs.pagesOf('1 234', '2 000')).toBe('1 234 pages sur 2 000');
    expect(en.inputs.pagesOf('1', '17')).toBe('1 of 17 pages');
    expect(en.inputs.pagesOf('1', '1')).toBe('1 of 1 page');
    expect(en.inputs.pagesOf('1,234', '2,000')).toBe('1,234 of 2,000 pages');
  });

  it('writes the other counted lines in the singular for one', () => {
    expect(fr.inputs.otherChecks('1', '0,012')).toBe('1 autre vérification : 0,012');
    expect(fr.inputs.otherChecks('2', '0,024')).toBe('2 autres vérifications : 0,024 à elles toutes');
    expect(en.inputs.otherChecks('1', '0.012')).toBe('1 more check: 0.012');
    expect(en.inputs.otherChecks('2', '0.024')).toBe('2 more checks: 0.024 together');
    expect(fr.moreChecks('1')).toBe('… et 1 autre vérification, listée dans Problèmes par gravité et catégorie.');
    expect(en.moreChecks('1')).toBe('… and 1 more check, listed under Issues by severity and category.');
    expect(en.moreChecks('3')).toBe('… and 3 more checks, listed under Issues by severity and category.');
    expect(fr.templatePages('1', '100 %')).toBe('1 page (100 %)');
    expect(en.templatePages('1', '100%')).toBe('1 page (100%)');
    expect(en.templatePages('12', '60%')).toBe('12 pages (60%)');
  });
});
