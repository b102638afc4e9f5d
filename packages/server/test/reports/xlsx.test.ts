/**
 * The Excel workbook, read back with exceljs: sheets, row counts, typed cells, frozen filtered headers,
 * languages, and what happens when the consumer goes away.
 */
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { renderXlsx } from '../../src/reports/index.js';
import { LABELS, readAll, syntheticSource } from '../../../../tests/support/report-fixtures.js';

async function load(buffer: Buffer): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buffer as unknown as ArrayBuffer);
  return wb;
}

function headerOf(ws: ExcelJS.Worksheet): unknown[] {
  return (ws.getRow(1).values as unknown[]).slice(1);
}

/** Rows holding at least one value (exceljs' rowCount also counts styled empty rows). */
function filledRows(ws: ExcelJS.Worksheet): number {
  return ws.actualRowCount;
}

describe('renderXlsx', () => {
  it('writes the sheets with a header row and one row per issue and per page, the scorecard last', async () => {
    const { source } = syntheticSource({ pages: 120, issuesPerPage: 5 });
    const wb = await load(await readAll(renderXlsx(source)));
    expect(wb.worksheets.map((ws) => ws.name)).toEqual(['Summary', 'Issues', 'Pages', 'PageSpeed', 'Scorecard']);

    const issues = wb.getWorksheet('Issues')!;
    expect(issues.rowCount).toBe(1 + 120 * 5);
    expect(filledRows(issues)).toBe(1 + 120 * 5);
    const pages = wb.getWorksheet('Pages')!;
    expect(pages.rowCount).toBe(1 + 120);
    expect(filledRows(pages)).toBe(1 + 120);
  });

  it('freezes and filters every header row', async () => {
    const { source } = syntheticSource({ pages: 10 });
    const wb = await load(await readAll(renderXlsx(source)));
    for (const ws of wb.worksheets) {
      expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
      expect(ws.autoFilter).toBeTruthy();
      expect(ws.getRow(1).getCell(1).font?.bold).toBe(true);
    }
    expect(wb.getWorksheet('Issues')!.autoFilter).toBe('A1:F51');
    expect(wb.getWorksheet('Pages')!.autoFilter).toBe('A1:R11');
  });

  it('types cells: numbers, booleans, dates and hyperlinks', async () => {
    const { source } = syntheticSource({ pages: 30 });
    const wb = await load(await readAll(renderXlsx(source)));

    const pages = wb.getWorksheet('Pages')!;
    const first = pages.getRow(2);
    expect(first.getCell(1).value).toEqual({ text: 'https://www.acme.example/', hyperlink: 'https://www.acme.example/' });
    expect(first.getCell(2).value).toBe(200);
    expect(first.getCell(5).value).toBe(true);
    expect(typeof first.getCell(10).value).toBe('number'); // words
    expect(first.getCell(12).value).toBe(80.5); // response time keeps its fraction
    // Page 17 is unreachable: no status, an error type, and empty cells rather than zeros.
    const unreachable = pages.getRow(2 + 17);
    expect(unreachable.getCell(2).value).toBeNull();
    expect(unreachable.getCell(3).value).toBe('Timeout');
    expect(unreachable.getCell(10).value).toBeNull();
    // Page 9 is external.
    expect(pages.getRow(2 + 9).getCell(5).value).toBe(false);

    const summary = wb.getWorksheet('Summary')!;
    const byKey = new Map<string, ExcelJS.CellValue>();
    summary.eachRow((row) => byKey.set(String(row.getCell(1).value), row.getCell(2).value));
    expect(byKey.get('Project')).toBe('Acme Boutique');
    expect(byKey.get('Started (UTC)')).toEqual(new Date('2025-03-12T13:58:07.000Z'));
    expect(byKey.get('Finished (UTC)')).toEqual(new Date('2025-03-12T14:31:45.000Z'));
    expect(byKey.get('Health score')).toBe(72.6);
    expect(byKey.get('Pages crawled')).toBe(30);
    expect(byKey.get('Errors')).toBe(source.crawl.issue_counts.error);
    expect(summary.getCell('B7').numFmt).toBe('yyyy-mm-dd hh:mm:ss');

    const issues = wb.getWorksheet('Issues')!;
    expect(issues.getRow(2).getCell(5).value).toBe('https://www.acme.example/');
  });

  it('lists the summary groups and labels issues when a label function is given', async () => {
    const { source } = syntheticSource({ pages: 20, labels: true });
    const wb = await load(await readAll(renderXlsx(source)));
    const summary = wb.getWorksheet('Summary')!;
    const groupRows: unknown[][] = [];
    summary.eachRow((row) => {
      const values = (row.values as unknown[]).slice(1);
      if (typeof values[4] === 'number') groupRows.push(values);
    });
    expect(groupRows).toHaveLength(source.summary.groups.length);
    expect(groupRows[0]).toEqual(['broken_internal_link', LABELS.broken_internal_link, 'Error', 'HTTP and redirects', expect.any(Number)]);

    const issues = wb.getWorksheet('Issues')!;
    const labelled = new Set<string>();
    issues.eachRow((row, n) => {
      if (n > 1 && row.getCell(3).value === 'title_missing') labelled.add(String(row.getCell(4).value));
    });
    expect([...labelled]).toEqual([LABELS.title_missing]);
  });

  it('lists the template decisions below the groups on the summary sheet, one row each, in both languages', async () => {
    for (const language of ['en', 'fr'] as const) {
      const { source } = syntheticSource({ pages: 20, language });
      const examples = ['https://www.acme.example/', 'https://www.acme.example/a'];
      source.summary = {
        ...source.summary,
        groups: [
          ...source.summary.groups.filter((g) => g.name !== 'http_page'),
          { name: 'http_page', label: 'http page', severity: 'error', category: 'performance_security', occurrences: 758, pages: 758, templates: [{ scope: 'site', section: null, pages: 758, share: 1, details: 'served over plain HTTP', examples }] },
          { name: 'h1_missing', label: 'h1 missing', severity: 'warning', category: 'content', occurrences: 40, pages: 40, templates: [{ scope: 'section', section: '/docs/', pages: 36, share: 0.9, details: 'no <h1>', examples }] },
        ],
      };
      const wb = await load(await readAll(renderXlsx(source)));
      const summary = wb.getWorksheet(language === 'en' ? 'Summary' : 'Synthèse')!;
      const rows: unknown[][] = [];
      const numbers: number[] = [];
      summary.eachRow((row, n) => {
        rows.push((row.values as unknown[]).slice(1));
        numbers.push(n);
      });
      const title = rows.findIndex((r) => r[0] === (language === 'en' ? 'Template decisions' : 'Décisions de modèle'));
      expect(title).toBeGreaterThan(0);
      const decisions = rows.slice(title + 2);
      expect(decisions).toHaveLength(2);
      const http = decisions.find((r) => r[0] === 'http_page')!;
      expect(http.slice(3, 5)).toEqual([758, 1]);
      expect(http[1]).toContain(language === 'en' ? '(whole site)' : '(tout le site)');
      expect(http[5]).toBe(language === 'en' ? 'served over plain HTTP' : 'servie en HTTP non chiffré');
      expect(http[6]).toBe(examples.join('\n'));
      const h1 = decisions.find((r) => r[0] === 'h1_missing')!;
      expect(h1.slice(3, 5)).toEqual([36, 0.9]);
      expect(h1[1]).toContain('(section /docs/)');
      const cell = summary.getRow(numbers[title + 2 + decisions.indexOf(h1)]).getCell(5);
      expect(cell.numFmt).toContain('%');
    }
  });

  it('labels checks, categories, severities and statuses in the report language, as the PDF does', async () => {
    const fr = await load(await readAll(renderXlsx(syntheticSource({ pages: 20, language: 'fr' }).source)));
    const issues = fr.getWorksheet('Problèmes')!;
    const seen = new Map<string, unknown[]>();
    issues.eachRow((row, n) => {
      if (n > 1) seen.set(String(row.getCell(3).value), (row.values as unknown[]).slice(1, 5));
    });
    // The check keeps its code (a stable key for filters) next to its label.
    expect(seen.get('title_missing')).toEqual(['Erreur', 'Titres et descriptions', 'title_missing', 'Titre absent ou vide']);
    expect(seen.get('slow_response')).toEqual(['Avertissement', 'Performance et sécurité', 'slow_response', 'Temps de réponse supérieur à 800 ms']);
    expect(seen.get('a11y_color-contrast')).toEqual(['Information', 'Accessibilité', 'a11y_color-contrast', 'Accessibilité : Les éléments doivent avoir un contraste de couleurs suffisant']);
    for (const [, values] of seen) expect(String(values[1])).not.toMatch(/_/);

    const summary = fr.getWorksheet('Synthèse')!;
    const byKey = new Map<string, ExcelJS.CellValue>();
    summary.eachRow((row) => byKey.set(String(row.getCell(1).value), row.getCell(2).value));
    expect(byKey.get('Statut du crawl')).toBe('Terminé');

    const ps = fr.getWorksheet('PageSpeed')!;
    const values: unknown[] = [];
    ps.eachRow((row) => values.push(...(row.values as unknown[]).slice(1)));
    expect(values).toContain('Mesuré');
    expect(values).toContain('Lighthouse');
    expect(values).toContain("Page d’accueil");
  });

  it('writes English or French headings', async () => {
    const en = await load(await readAll(renderXlsx(syntheticSource({ pages: 2, language: 'en' }).source)));
    const fr = await load(await readAll(renderXlsx(syntheticSource({ pages: 2, language: 'fr' }).source)));
    expect(headerOf(en.getWorksheet('Issues')!)).toEqual(['Severity', 'Category', 'Issue', 'Label', 'URL', 'Details']);
    expect(headerOf(fr.getWorksheet('Problèmes')!)).toEqual(['Gravité', 'Catégorie', 'Problème', 'Libellé', 'URL', 'Détails']);
    expect(headerOf(en.getWorksheet('Pages')!).slice(0, 3)).toEqual(['URL', 'Status', 'Error type']);
    expect(headerOf(fr.getWorksheet('Pages')!).slice(0, 3)).toEqual(['URL', 'Statut', "Type d'erreur"]);
    expect(headerOf(fr.getWorksheet('Synthèse')!)).toEqual(['Champ', 'Valeur', 'Gravité', 'Catégorie', 'Occurrences']);
    expect(fr.getWorksheet('Problèmes')!.getRow(2).getCell(1).value).toMatch(/^(Erreur|Avertissement|Information)$/);
  });

  it("holds each score's inputs: the factors multiply to the score, the costs make the factors", async () => {
    for (const language of ['en', 'fr'] as const) {
      const { source } = syntheticSource({ pages: 10, language });
      const wb = await load(await readAll(renderXlsx(source)));
      const sheet = wb.getWorksheet(language === 'en' ? 'Scorecard' : 'Bilan par pilier')!;
      const rows: unknown[][] = [];
      sheet.eachRow((row, n) => n > 1 && rows.push((row.values as unknown[]).slice(1)));
      for (const pillar of source.scorecard!.filter((p) => p.computation.method === 'product' && p.score !== null)) {
        const mine = rows.filter((r) => r[0] === (language === 'en' ? { technique: 'Technical', contenu: 'Content and GEO', accessibilite: 'Accessibility' } : { technique: 'Technique', contenu: 'Contenu et GEO', accessibilite: 'Accessibilité' })[pillar.key as 'technique']);
        expect(mine.length, pillar.key).toBeGreaterThan(0);
        const axes = new Map<unknown, { weight: number; factor: number; cost: number }>();
        for (const r of mine) {
          const axis = axes.get(r[6]) ?? { weight: r[8] as number, factor: (r[9] as number) ?? 1, cost: 0 };
          axis.cost += (r[18] as number) ?? 0;
          axes.set(r[6], axis);
          // A check's share is of the pages it judges (its pages over them; a site-wide check's
          // pages are every scored page, its scope beside them), its cost weight × √share.
          if (r[10] && r[17]) {
            expect(typeof r[13], String(r[10])).toBe('number');
            expect(r[16], String(r[10])).toBeCloseTo((r[13] as number) / (r[15] as number), 9);
            expect(r[18]).toBeCloseTo((r[17] as number) * Math.sqrt(r[16] as number), 9);
          }
        }
        for (const a of axes.values()) if (a.weight > 0 && a.cost > 0) expect(a.factor).toBeCloseTo(Math.exp(-a.cost), 9);
        const exact = 100 * [...axes.values()].filter((a) => a.weight > 0).reduce((p, a) => p * a.factor, 1);
        expect(exact).toBeCloseTo(mine[0][2] as number, 9);
        expect(Math.round(exact)).toBe(mine[0][1]);
      }
    }
  });

  it('renders an empty crawl: header rows only, PageSpeed not measured', async () => {
    const { source } = syntheticSource({ pages: 0, pagespeed: null, healthScore: null, scorecard: false });
    const wb = await load(await readAll(renderXlsx(source)));
    expect(wb.worksheets.map((ws) => ws.name)).toEqual(['Summary', 'Issues', 'Pages', 'PageSpeed']);
    expect(wb.getWorksheet('Issues')!.actualRowCount).toBe(1);
    expect(wb.getWorksheet('Pages')!.actualRowCount).toBe(1);

    const ps = wb.getWorksheet('PageSpeed')!;
    for (const r of [2, 3, 4]) {
      expect(ps.getRow(r).getCell(2).value).toBeNull();
      expect(ps.getRow(r).getCell(5).value).toBe('Not measured');
    }
    const summary = wb.getWorksheet('Summary')!;
    let health: ExcelJS.CellValue = null;
    summary.eachRow((row) => {
      if (row.getCell(1).value === 'Health score') health = row.getCell(2).value;
    });
    expect(health).toBe('Not measured');
  });

  it('keeps a null PageSpeed strategy empty instead of 0', async () => {
    const { source } = syntheticSource({ pages: 2 });
    const ps = (await load(await readAll(renderXlsx(source)))).getWorksheet('PageSpeed')!;
    expect((ps.getRow(2).values as unknown[]).slice(1)).toEqual(['Mobile', 61.4, 3, 1]);
    expect(ps.getRow(3).getCell(1).value).toBe('Desktop');
    expect(ps.getRow(3).getCell(2).value).toBeNull();
    expect(ps.getRow(3).getCell(5).value).toBe('Not measured');
    expect(ps.getRow(4).getCell(2).value).toBe(61.4);
    let measuredAt: ExcelJS.CellValue = null;
    ps.eachRow((row) => {
      if (row.getCell(1).value === 'Measured at (UTC)') measuredAt = row.getCell(2).value;
    });
    expect(measuredAt).toEqual(new Date('2025-03-12T14:20:00.000Z'));
  });

  it('stops reading the source when the consumer goes away', async () => {
    const { source } = syntheticSource({ pages: 50_000, issuesPerPage: 5 });
    let closed!: () => void;
    const issuesClosed = new Promise<void>((resolve) => (closed = resolve));
    const original = source.issues;
    source.issues = async function* () {
      try {
        yield* original();
      } finally {
        closed();
      }
    };
    const out = renderXlsx(source);
    // Take the first bytes, then walk away.
    await new Promise<void>((resolve) => out.once('data', () => resolve()));
    out.destroy();
    await issuesClosed;
  });

  it('stops pulling rows while nobody reads the output (backpressure)', async () => {
    const total = 500_000;
    const { source, stats } = syntheticSource({ pages: total / 5, issuesPerPage: 5 });
    let closed!: () => void;
    const issuesClosed = new Promise<void>((resolve) => (closed = resolve));
    const original = source.issues;
    source.issues = async function* () {
      try {
        yield* original();
      } finally {
        closed();
      }
    };
    const out = renderXlsx(source);
    // Never read. Wait until the renderer stops asking for rows (no progress over a few polls)...
    let last = -1;
    for (let still = 0; still < 3; ) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      still = stats.issuesYielded === last ? still + 1 : 0;
      last = stats.issuesYielded;
    }
    // ...which must be long before the end. In flight: up to 1 MB of sheet XML waiting for the zip,
    // plus the zip's own buffers (about 2 MB compressed; this synthetic XML compresses ~10:1).
    expect(stats.issuesYielded).toBeGreaterThan(0);
    expect(stats.issuesYielded).toBeLessThan(150_000);
    out.destroy();
    await issuesClosed;
  });

  it('fails the stream when the source fails', async () => {
    const { source } = syntheticSource({ pages: 5 });
    source.issues = async function* () {
      yield* [];
      throw new Error('cursor lost');
    };
    await expect(readAll(renderXlsx(source))).rejects.toThrow('cursor lost');
  });
});
