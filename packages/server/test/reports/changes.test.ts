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
type Attribution = NonNullable<CrawlChangesSummary['health'][number]['attribution']>;
const moved = (name: string, severity: 'error' | 'warning', category: string, previous_pages: number, pages: number, points: number) => ({
  name, severity, category, previous_pages, pages, previous_cost: 0.35 * Math.sqrt(previous_pages / 5), cost: 0.35 * Math.sqrt(pages / 5), points,
});
// −8.1 + 0.8 = −7.3, the exact movement; the published scores' rounding makes it −7.
const TECHNIQUE_MOVED: Attribution = {
  previous_score_exact: 78.24,
  score_exact: 70.93,
  exact_delta: -7.3,
  checks: [moved('http_5xx', 'error', 'http', 0, 2, -8.1), moved('http_4xx', 'error', 'http', 3, 1, 0.8)],
  other: 0,
};
const CONTENT_MOVED: Attribution = { previous_score_exact: 88.41, score_exact: 89.63, exact_delta: 1.2, checks: [moved('title_missing', 'error', 'titles', 1, 0, 1.2)], other: 0 };
const summary = (crawlId: string): CrawlChangesSummary => ({
  crawl_id: crawlId,
  previous_crawl_id: PREVIOUS,
  basis: 'compared',
  issues: { new: { error: 2, warning: 1, info: 0 }, fixed: { error: 1, warning: 0, info: 0 }, gone_with_page: { error: 1, warning: 0, info: 0 }, persisting: { error: 4, warning: 3, info: 2 } },
  pages: { added: 1, removed: 1, status_changed: 1, redirect_changed: 1 },
  health: [
    { key: 'technique', score: 71, previous_score: 78, delta: -7, attribution: TECHNIQUE_MOVED },
    { key: 'contenu', score: 90, previous_score: 88, delta: 2, attribution: CONTENT_MOVED },
    { key: 'accessibilite', score: null, previous_score: null, delta: null, attribution: null },
  ],
  checks: [
    { name: 'http_5xx', severity: 'error', category: 'http', new: 2, fixed: 0, gone_with_page: 0, persisting: 0 },
    { name: 'http_4xx', severity: 'error', category: 'http', new: 0, fixed: 1, gone_with_page: 1, persisting: 4 },
  ],
});
const ITEMS: CrawlChange[] = [
  { kind: 'issue_new', url: 'https://www.acme.example/about', name: 'http_5xx', severity: 'error', category: 'http', details: 'status 500', status_code: null, previous_status_code: null, redirect_url: null, previous_redirect_url: null },
  { kind: 'issue_fixed', url: 'https://www.acme.example/missing', name: 'http_4xx', severity: 'error', category: 'http', details: 'status 404', status_code: null, previous_status_code: null, redirect_url: null, previous_redirect_url: null },
  { kind: 'page_added', url: 'https://www.acme.example/new', name: null, severity: null, category: null, details: null, status_code: 200, previous_status_code: null, redirect_url: null, previous_redirect_url: null },
  { kind: 'status_changed', url: 'https://www.acme.example/about', name: null, severity: null, category: null, details: null, status_code: 500, previous_status_code: 200, redirect_url: null, previous_redirect_url: null },
  // A section moved behind a meta-refresh stub: the same 200, now a redirect.
  { kind: 'redirect_changed', url: 'https://www.acme.example/blog/', name: null, severity: null, category: null, details: null, status_code: 200, previous_status_code: 200, redirect_url: 'https://www.acme.example/news/', previous_redirect_url: null },
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
    for (const text of ['Still there', 'Gone with their page', 'Pages added', 'Status code changed', 'Checks that moved the most, most severe first', 'Server error (5xx)', '+2', '−7']) expect(en).toContain(text);
    const fr = (await pdfPages(await readAll(renderPdf(withChanges('fr'))))).join('\n');
    for (const text of ['Depuis le dernier crawl', 'Partis avec leur page', 'Toujours présents', 'Pages ajoutées', 'Vérifications qui ont le plus bougé, les plus graves d’abord', '5 mars 2025']) expect(fr).toContain(text);
    expect(fr).not.toContain('Since the last crawl');
    // A status changed: where a deleted page still linked is counted.
    expect(en.replace(/\s+/g, ' ')).toContain('A page deleted but still linked answers 404: it counts under “Status code changed”');
    expect(fr.replace(/\s+/g, ' ')).toContain('Une page supprimée mais toujours liée répond 404');
  });

  it('counts the pages whose redirect changed with their status the same, and says what that is, in English and in French', async () => {
    const en = (await pdfPages(await readAll(renderPdf(withChanges('en'))))).join('\n').replace(/\s+/g, ' ');
    expect(en).toContain('Redirect changed 1');
    expect(en).toContain('“Redirect changed”: the same status, another redirect: a page that now sends its readers elsewhere (a meta-refresh stub answers 200)');
    const fr = (await pdfPages(await readAll(renderPdf(withChanges('fr'))))).join('\n').replace(/\s+/g, ' ');
    expect(fr).toContain('Redirection modifiée 1');
    expect(fr).toContain('« Redirection modifiée » : le même statut, une autre redirection');
    // None changed: the count says 0 and the note is left out.
    const base = withChanges('en');
    const none = { ...base, changes: { ...base.changes!, summary: { ...base.changes!.summary, pages: { ...base.changes!.summary.pages, redirect_changed: 0 } } } };
    const text = (await pdfPages(await readAll(renderPdf(none)))).join('\n').replace(/\s+/g, ' ');
    expect(text).toContain('Redirect changed 0');
    expect(text).not.toContain('“Redirect changed”: the same status');
  });

  it('says why each pillar moved, check by check, adding up to the change printed, in English and in French', async () => {
    const en = (await pdfPages(await readAll(renderPdf(withChanges('en'))))).join('\n');
    const why = en.slice(en.indexOf('Why the score moved')).replace(/\s+/g, ' ');
    const lines = [
      'Technical 78 → 71 (exactly 78.2 → 70.9)',
      '−8.1 Server error (5xx) new (on 2 pages)',
      '+0.8 Internal page answers 4xx on fewer pages (3 → 1)',
      '+0.3 Rounding of the published scores',
      '−7 Total',
      '+1.2 Title missing or empty fixed (was on 1 page)',
      '+0.8 Rounding of the published scores',
      '+2 Total',
    ];
    const at = lines.map((l) => why.indexOf(l));
    expect(at.every((i) => i >= 0), why.slice(0, 1500)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    const fr = (await pdfPages(await readAll(renderPdf(withChanges('fr'))))).join('\n').replace(/\s+/g, ' ');
    expect(why).toContain('A check counts by the pages it is on, not by its occurrences');
    for (const text of ['Pourquoi le score a bougé', 'pas par ses occurrences', '−8,1 Erreur serveur (5xx) nouveau (sur 2 pages)', 'Arrondi des scores publiés']) expect(fr).toContain(text);
  });

  it('says the movement is not explained for a summary stored before attributions', async () => {
    const base = withChanges('en');
    const health = base.changes!.summary.health.map((p) => ({ ...p, attribution: null }));
    const source = { ...base, changes: { ...base.changes!, summary: { ...base.changes!.summary, health } } };
    const text = (await pdfPages(await readAll(renderPdf(source)))).join('\n').replace(/\s+/g, ' ');
    expect(text).toContain('Not explained for this comparison');
    expect(text).not.toContain('Rounding of the published scores');
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
      // Why each pillar moved comes first: technique's two checks, its rounding and total, then content's.
      const movement = 7;
      expect(sheet.actualRowCount).toBe(1 + movement + ITEMS.length);
      const row = (n: number) => (sheet.getRow(n).values as unknown[]).slice(1);
      const why = language === 'en' ? 'Why the score moved – Technical' : 'Pourquoi le score a bougé – Technique';
      expect(row(1)[8]).toBe(language === 'en' ? 'Points' : 'Points');
      expect([row(2)[0], row(2)[1], row(2)[5], row(2)[8]]).toEqual([why, 'http_5xx', language === 'en' ? 'new (on 2 pages)' : 'nouveau (sur 2 pages)', -8.1]);
      expect(row(3)[8]).toBe(0.8);
      expect([row(4)[2], row(4)[8]]).toEqual([language === 'en' ? 'Rounding of the published scores' : 'Arrondi des scores publiés', 0.3]);
      expect([row(5)[2], row(5)[5], row(5)[8]]).toEqual(['Total', language === 'en' ? 'Technical 78 → 71 (exactly 78.2 → 70.9)' : 'Technique 78 → 71 (exactement 78,2 → 70,9)', -7]);
      // The points of a pillar add up to its change.
      expect(((row(2)[8] as number) * 10 + (row(3)[8] as number) * 10 + (row(4)[8] as number) * 10) / 10).toBe(-7);
      expect(row(8)[8]).toBe(2);
      expect(row(1 + movement + 1).slice(0, 5)).toEqual([kind, 'http_5xx', language === 'en' ? 'Server error (5xx)' : 'Erreur serveur (5xx)', language === 'en' ? 'Error' : 'Erreur', 'https://www.acme.example/about']);
      expect(row(1 + movement + 4).slice(6, 8)).toEqual([500, 200]);
      // A redirect change says where the URL sent its readers before and where now.
      expect(row(1 + movement + 5)).toEqual([
        language === 'en' ? 'Redirect changed' : 'Redirection modifiée',
        undefined,
        undefined,
        undefined,
        'https://www.acme.example/blog/',
        language === 'en' ? 'no redirect → https://www.acme.example/news/' : 'pas de redirection → https://www.acme.example/news/',
        200,
        200,
      ]);
    }
  });
});
