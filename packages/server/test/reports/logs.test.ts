/**
 * The reports' log section (docs/decisions/exports.md#the-log-section) on a large synthetic log:
 * the PDF lists bounded top-N lists and never reads the URL stream, its pages render with content
 * (pdftoppm), and the workbook lists every URL statistic.
 */
import ExcelJS from 'exceljs';
import type { LogDayStat } from '@siteaudit/schema';
import type { JoinPage, UrlStat } from '@siteaudit/schema/rules';
import { describe, expect, it } from 'vitest';
import { LOG_FINDING_EXAMPLES, LOG_TOP_URLS, logSummary } from '../../src/modules/exports/logs-source.js';
import { renderPdf, renderXlsx } from '../../src/reports/index.js';
import type { ExportSource } from '../../src/reports/types.js';
import { readAll, syntheticSource } from '../../../../tests/support/report-fixtures.js';
import { hasPdftoppm, inkAbove, pdfImages, pdfPages } from '../../../../tests/support/pdf-read.js';

const URLS = 3000;
const PROJECT = '00000000-0000-4000-8000-00000000000b';
/** Googlebot fetched /p/0 … /p/2999 (path i, i % 7 + 1 hits), Bingbot every tenth; the crawl found the even ones and /unvisited/0 … /unvisited/49. */
const STATS: UrlStat[] = Array.from({ length: URLS }, (_, i): UrlStat[] => {
  const base = { path: `/p/${i}`, last_visit: '2025-03-10T06:00:00.000Z', bytes: 1000 };
  const google: UrlStat = { ...base, family: 'googlebot', verification: 'verified', hits: (i % 7) + 1, status_codes: { '200': (i % 7) + 1 } };
  return i % 10 === 0 ? [google, { ...base, family: 'bingbot', verification: 'verified', hits: 1, status_codes: { '301': 1 } }] : [google];
}).flat();
const PAGES: JoinPage[] = [
  ...Array.from({ length: URLS / 2 }, (_, i) => `/p/${i * 2}`),
  ...Array.from({ length: 50 }, (_, i) => `/unvisited/${i}`),
].map((path) => ({ url: `https://www.acme.example${path}`, status_code: 200, content_type: 'text/html', canonical_url: null, depth: 2, noindex: false, robots_disallowed: false }));
const DAYS: LogDayStat[] = [
  { date: '2025-03-10', family: 'googlebot', verification: 'verified', status_class: '2xx', hits: 12_000 },
  { date: '2025-03-10', family: 'googlebot', verification: 'unverified', status_class: '4xx', hits: 30 },
  { date: '2025-03-10', family: 'human', verification: 'not_applicable', status_class: '2xx', hits: 400 },
];

function withLogs(language: 'fr' | 'en'): { source: ExportSource; urlsRead: () => number } {
  const { source } = syntheticSource({ pages: 5, language });
  let read = 0;
  const summary = logSummary(PROJECT, STATS, { period: { from: '2025-03-01T00:00:00.000Z', to: '2025-03-10T06:00:00.000Z' }, humans: 400, unverified: [{ family: 'googlebot', hits: 30 }] }, { id: source.crawl.id, pages: PAGES });
  return {
    source: {
      ...source,
      logs: {
        ...summary,
        imports: 1,
        async *urls() {
          for (const s of STATS) {
            read += 1;
            yield s;
          }
        },
        async *days() {
          yield* DAYS;
        },
      },
    },
    urlsRead: () => read,
  };
}

describe('the log section on a large log', () => {
  it('cuts no label, in French and in English', async () => {
    for (const language of ['fr', 'en'] as const) {
      const text = (await pdfPages(await readAll(renderPdf(withLogs(language).source)))).join(' ').replace(/\s+/g, ' ');
      const own = text.replace(/https?:\/\/\S+/g, '').replace(/\/\S+/g, '');
      expect(own.match(/\p{L}…/gu), language).toBeNull();
    }
  });


  it('keeps bounded lists: the top paths by hits and the first examples of each finding', () => {
    const { insights, topUrls, findings } = logSummary(PROJECT, STATS, { period: null, humans: 0, unverified: [] }, { id: PROJECT, pages: PAGES });
    expect(topUrls).toHaveLength(LOG_TOP_URLS);
    // Paths with 7 Googlebot hits (i % 7 = 6) plus Bingbot's on every tenth come first.
    expect(topUrls[0]).toMatchObject({ path: '/p/1000', hits: 8, families: ['googlebot', 'bingbot'], status_codes: { '200': 7, '301': 1 } });
    expect(findings.not_in_crawl.count).toBe(URLS / 2);
    expect(findings.not_in_crawl.examples).toHaveLength(LOG_FINDING_EXAMPLES);
    expect(findings.not_in_crawl.examples[0].bot_hits).toBe(7);
    expect(findings.indexable_not_visited).toMatchObject({ count: 50, examples: expect.arrayContaining([expect.objectContaining({ path: '/unvisited/0' })]) });
    expect(insights.coverage).toEqual({ indexable_pages: URLS / 2 + 50, visited: URLS / 2, not_in_crawl_urls: URLS / 2 });
  });

  it('prints the section without reading the URL stream, and says how many findings are left out', async () => {
    const { source, urlsRead } = withLogs('en');
    const text = (await pdfPages(await readAll(renderPdf(source)))).join(' ').replace(/\s+/g, ' ');
    expect(urlsRead()).toBe(0);
    expect(text).toContain(`Top ${LOG_TOP_URLS} URLs by bot hits`);
    expect(text).toContain(`URLs bots fetch that the crawl did not find (1,500)`);
    expect(text).toContain(`… and ${(1500 - LOG_FINDING_EXAMPLES).toLocaleString('en-GB')} more`);
    expect(text).toContain('Indexable pages no bot visited (50)');
    expect(text).toContain('Human hits (counted, never stored one by one) 400');
  });

  for (const language of ['en', 'fr'] as const) {
    it.skipIf(!hasPdftoppm)(`(${language}) every page renders to an image with content above the footer (pdftoppm)`, async () => {
      const buffer = await readAll(renderPdf(withLogs(language).source));
      const images = await pdfImages(buffer);
      expect(images.length).toBe((await pdfPages(buffer)).length);
      images.forEach((image, i) => expect(inkAbove(image, 0.92), `page ${i + 1} is blank`).toBeGreaterThan(150));
    }, 60_000);
  }

  it('lists every URL statistic in the workbook', async () => {
    const { source, urlsRead } = withLogs('fr');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await readAll(renderXlsx(source))) as unknown as ArrayBuffer);
    expect(urlsRead()).toBe(STATS.length);
    expect(wb.getWorksheet('Journaux – URL')!.actualRowCount).toBe(1 + STATS.length);
    expect(wb.getWorksheet('Journaux – jours')!.actualRowCount).toBe(1 + DAYS.length);
  });
});
