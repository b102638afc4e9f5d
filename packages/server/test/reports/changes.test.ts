/**
 * The reports' "since the last crawl" section and changes sheet (docs/decisions/crawl-changes.md),
 * in both languages, and their absence when the source has no comparison.
 */
import ExcelJS from 'exceljs';
import type { CrawlChange, CrawlChangesSummary } from '@siteaudit/schema';
import { describe, expect, it } from 'vitest';
import { renderPdf, renderXlsx } from '../../src/reports/index.js';
import type { ExportSource } from '../../src/reports/types.js';
import { readAll, syntheticSource } from '../../../../tests/support/report-fixtures.js';
import { pdfPages } from '../../../../tests/support/pdf-read.js';

const PREVIOUS = '00000000-0000-4000-8000-0000000000aa';
const summary = (crawlId: string): CrawlChangesSummary => ({
  crawl_id: crawlId,
  previous_crawl_id: PREVIOUS,
  basis: 'compared',
  issues: { new: { error: 2, warning: 1, info: 0 }, fixed: { error: 1, warning: 0, info: 0 }, gone_with_page: { error: 1, warning: 0, info: 0 }, persisting: { error: 4, warning: 3, info: 2 } },
  pages: { added: 1, removed: 1, status_changed: 1 },
  health: [
    { key: 'technique', score: 71, previous_score: 78, delta: -7 },
    { key: 'contenu', score: 90, previous_score: 88, delta: 2 },
    { key: 'accessibilite', score: null, previous_score: null, delta: null },
  ],
  checks: [
    { name: 'http_5xx', severity: 'error', category: 'http', new: 2, fixed: 0, gone_with_page: 0, persisting: 0 },
    { name: 'http_4xx', severity: 'error', category: 'http', new: 0, fixed: 1, gone_with_page: 1, persisting: 4 },
  ],
});
const ITEMS: CrawlChange[] = [
  { kind: 'issue_new', url: 'https://www.acme.example/about', name: 'http_5xx', severity: 'error', category: 'http', details: 'status 500', status_code: null, previous_status_code: null },
  { kind: 'issue_fixed', url: 'https://www.acme.example/missing', name: 'http_4xx', severity: 'error', category: 'http', details: 'status 404', status_code: null, previous_status_code: null },
  { kind: 'page_added', url: 'https://www.acme.example/new', name: null, severity: null, category: null, details: null, status_code: 200, previous_status_code: null },
  { kind: 'status_changed', url: 'https://www.acme.example/about', name: null, severity: null, category: null, details: null, status_code: 500, previous_status_code: 200 },
];

function withChanges(language: 'fr' | 'en', basis: CrawlChangesSummary['basis'] = 'compared'): ExportSource {
  const { source } = syntheticSource({ pages: 5, language });
  const s = summary(source.crawl.id);
  return {
    ...source,
    changes: {
      summary: basis === 'compared' ? s : { ...s, basis, previous_crawl_id: null },
      previousFinishedAt: '2025-03-05T10:00:00.000Z',
      async *items() {
        yield* ITEMS;
      },
    },
  };
}

describe('what changed since the last crawl, in the reports', () => {
  it('prints the section in the PDF, in English and in French', async () => {
    const en = (await pdfPages(await readAll(renderPdf(withChanges('en'))))).join('\n');
    expect(en).toContain('Since the last crawl');
    expect(en).toContain('5 March 2025');
    for (const text of ['Still there', 'Gone with their page', 'Pages added', 'Status code changed', 'Checks that moved the most, most severe first', 'Server error (5xx)', '+2', '-7']) expect(en).toContain(text);
    const fr = (await pdfPages(await readAll(renderPdf(withChanges('fr'))))).join('\n');
    for (const text of ['Depuis le dernier crawl', 'Partis avec leur page', 'Toujours présents', 'Pages ajoutées', 'Vérifications qui ont le plus bougé, les plus graves d’abord', '5 mars 2025']) expect(fr).toContain(text);
    expect(fr).not.toContain('Since the last crawl');
  });

  it('lists the checks that moved the most, most severe first, whatever the API order (most new first)', async () => {
    // A repaired site: big fixes, one new error, new warnings, and notices "+1 new" that the API's
    // order (most new first) puts ahead of the fixes.
    const row = (name: string, severity: 'error' | 'warning' | 'info', n: { new?: number; fixed?: number; gone?: number }) => ({
      name, severity, category: 'http', new: n.new ?? 0, fixed: n.fixed ?? 0, gone_with_page: n.gone ?? 0, persisting: 0,
    });
    const apiOrder = [
      row('http_4xx', 'error', { new: 1, fixed: 1 }),
      ...['redirect_external', 'resource_redirect', 'temporary_redirect', 'url_non_ascii', 'url_underscores', 'url_uppercase'].map((n) => row(n, 'info', { new: 1 })),
      row('url_session_id', 'warning', { new: 1 }),
      row('url_spaces', 'warning', { new: 1 }),
      row('broken_internal_link', 'error', { fixed: 9 }),
      row('link_to_redirect', 'warning', { fixed: 7 }),
      row('noindex', 'warning', { fixed: 1 }),
      row('title_duplicate', 'warning', { fixed: 1 }),
    ];
    const base = withChanges('en');
    const source = { ...base, changes: { ...base.changes!, summary: { ...base.changes!.summary, checks: apiOrder } } };
    const text = (await pdfPages(await readAll(renderPdf(source)))).join('\n');
    const table = text.slice(text.indexOf('Checks that moved the most, most severe first')).replace(/\s+/g, ' ');
    const rows = [
      'Broken internal link Error −9',
      'Internal page answers 4xx Error +1 −1',
      'Internal link to a redirect Warning −7',
      'Noindex (meta tag or X-Robots-Tag) Warning −1',
      'Duplicate title Warning −1',
      'Session id in the URL Warning +1',
      'URL with spaces Warning +1',
      'Internal URL redirects to another host Notice +1',
      'Resource loaded through a redirect Notice +1',
      'Temporary redirect (302/307) Notice +1',
    ];
    const at = rows.map((r) => table.indexOf(r));
    expect(at.every((i) => i >= 0), table.slice(0, 1200)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    // Ten rows: the last notices make way.
    expect(table).not.toContain('URL with uppercase letters Notice');
  });

  it('says why there is no comparison, and leaves the section out when the source has none', async () => {
    const firstPages = await pdfPages(await readAll(renderPdf(withChanges('en', 'no_previous_crawl'))));
    expect(firstPages.join('\n')).toContain('Since the last crawl: First crawl with these settings');
    const { source } = syntheticSource({ pages: 5, language: 'en' });
    const without = await pdfPages(await readAll(renderPdf(source)));
    expect(without.join('\n')).not.toContain('Since the last crawl');
    // One line, not a page of its own.
    expect(firstPages.length).toBe(without.length);
  });

  it('adds a localised sheet with every change, after the ones it always had (the scorecard comes last)', async () => {
    for (const [language, name, kind] of [['en', 'Changes', 'New'], ['fr', 'Évolutions', 'Nouveaux']] as const) {
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load((await readAll(renderXlsx(withChanges(language)))) as unknown as ArrayBuffer);
      expect(wb.worksheets.map((ws) => ws.name).slice(4, 5)).toEqual([name]);
      const sheet = wb.getWorksheet(name)!;
      expect(sheet.actualRowCount).toBe(1 + ITEMS.length);
      expect((sheet.getRow(2).values as unknown[]).slice(1, 6)).toEqual([kind, 'http_5xx', language === 'en' ? 'Server error (5xx)' : 'Erreur serveur (5xx)', language === 'en' ? 'Error' : 'Erreur', 'https://www.acme.example/about']);
      expect((sheet.getRow(5).values as unknown[]).slice(7, 9)).toEqual([500, 200]);
    }
  });
});
