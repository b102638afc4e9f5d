/**
 * The score points beside a check, in the PDF's top issues and the workbook's summary, name the
 * pillar they are points of: a content check's are the Content and GEO pillar's, not the
 * technical health score's on the cover.
 */
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { renderPdf, renderXlsx } from '../../src/reports/index.js';
import type { ExportSource } from '../../src/reports/types.js';
import { readAll, syntheticSource } from '../../../../tests/support/report-fixtures.js';
import { pdfPages } from '../../../../tests/support/pdf-read.js';

/** A source whose fix list starts with a check worth 8.6 points of the Content and GEO pillar. */
function withFixes(language: 'fr' | 'en'): { source: ExportSource; first: string } {
  const { source } = syntheticSource({ pages: 5, language });
  const groups = [...source.summary.groups].sort((a, b) => (a.severity === 'error' ? 0 : 1) - (b.severity === 'error' ? 0 : 1));
  const fixes = groups.map((g, i) => ({ name: g.name, pages: 5, score_points: i === 0 ? 8.6 : 0, pillar: i === 0 ? 'contenu' : 'technique' }));
  return { source: { ...source, fixes }, first: groups[0].name };
}

describe('score points in the reports', () => {
  it('the PDF prints the pillar beside the points of each top issue, in English and in French', async () => {
    for (const [language, expected] of [
      ['en', 'score points: +8.6 (Content and GEO)'],
      ['fr', 'points de score : +8,6 (Contenu et GEO)'],
    ] as const) {
      const text = (await pdfPages(await readAll(renderPdf(withFixes(language).source)))).join(' ').replace(/\s+/g, ' ');
      expect(text, language).toContain(expected);
      expect(text, language).toContain(language === 'en' ? 'score points: +0 (Technical)' : 'points de score : +0 (Technique)');
    }
  });

  it("the workbook's summary has the pillar in a column beside the score points, in English and in French", async () => {
    for (const [language, header, pillar] of [
      ['en', 'Pillar', 'Content and GEO'],
      ['fr', 'Pilier', 'Contenu et GEO'],
    ] as const) {
      const { source, first } = withFixes(language);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load((await readAll(renderXlsx(source))) as unknown as ArrayBuffer);
      const rows: unknown[][] = [];
      wb.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
      // Pages affected, its scope (blank for a check of pages), the score points, the pillar.
      const head = rows.findIndex((r) => r.length >= 9 && r[8] === header);
      expect(head, language).toBeGreaterThan(0);
      const row = rows.find((r) => r[0] === first)!;
      expect([row[5], row[6] ?? '', row[7], row[8]], language).toEqual([5, '', 8.6, pillar]);
    }
  });
});
