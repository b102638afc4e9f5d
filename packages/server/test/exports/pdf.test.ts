/**
 * The PDF report, read back with pdfjs: what it says, in which language, and how much of the issue and
 * page streams it pulls.
 */
import { describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import path from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { PDF_PAGE_ROW_LIMIT, renderPdf } from '../../src/exports/index.js';
import { pdfSafe } from '../../src/exports/pdf-text.js';
import { CATALOGUE, readAll, syntheticSource } from './fixtures.js';

const standardFontDataUrl = `${path.join(path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

/** Text of each page, items joined by spaces. */
async function pdfPages(buffer: Buffer): Promise<string[]> {
  const doc = await getDocument({ data: new Uint8Array(buffer), standardFontDataUrl, verbosity: 0 }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  await doc.destroy();
  return pages;
}

describe('renderPdf', () => {
  it('holds the project, the crawl and every issue name, with English headings and page numbers', async () => {
    const { source } = syntheticSource({ pages: 40, language: 'en' });
    const buffer = await readAll(renderPdf(source));
    expect(buffer.subarray(0, 5).toString()).toBe('%PDF-');

    const pages = await pdfPages(buffer);
    const text = pages.join('\n');
    expect(text).toContain('Acme Boutique');
    expect(text).toContain('https://www.acme.example/');
    expect(text).toContain(source.crawl.id);
    expect(text).toContain('12 March 2025');
    for (const issue of CATALOGUE) expect(text).toContain(issue.name);
    for (const heading of ['Site audit report', 'Health summary', 'Issues by severity and category', 'Top issues', 'PageSpeed', 'Pages']) {
      expect(text).toContain(heading);
    }
    expect(text).toContain('73'); // health score 72.6, rounded
    pages.forEach((page, i) => expect(page).toContain(`Page ${i + 1}`));
  });

  it('writes French headings when asked', async () => {
    const { source } = syntheticSource({ pages: 10, language: 'fr' });
    const text = (await pdfPages(await readAll(renderPdf(source)))).join('\n');
    for (const heading of ["Rapport d'audit de site", 'Synthèse de santé', 'Problèmes par gravité et catégorie', 'Principaux problèmes', 'Statut']) {
      expect(text).toContain(heading);
    }
    expect(text).toContain('12 mars 2025');
    expect(text).not.toContain('Health summary');
    expect(text).not.toContain('Top issues');
  });

  it('shows issue labels next to the names when a label function is given', async () => {
    const { source } = syntheticSource({ pages: 10, labels: true });
    const text = (await pdfPages(await readAll(renderPdf(source)))).join('\n');
    expect(text).toContain('Missing <title> tag (missing_title)');
    expect(text).toContain('duplicate_h1');
  });

  it('lists only the first pages and stops reading the page stream there', async () => {
    const { source, stats } = syntheticSource({ pages: PDF_PAGE_ROW_LIMIT + 300, issuesPerPage: 2 });
    const text = (await pdfPages(await readAll(renderPdf(source)))).join('\n');
    // One row past the limit is read to know the list was cut, then the stream is closed.
    expect(stats.pagesYielded).toBe(PDF_PAGE_ROW_LIMIT + 1);
    expect(stats.pagesClosedEarly).toBe(true);
    expect(text).toContain(`product-${PDF_PAGE_ROW_LIMIT - 1}?`);
    expect(text).not.toContain(`product-${PDF_PAGE_ROW_LIMIT}?`);
    expect(text).toContain(`First ${PDF_PAGE_ROW_LIMIT} pages of 800`);
  });

  it('gathers top-issue examples without reading the whole issue stream', async () => {
    const { source, stats } = syntheticSource({ pages: 2_000, issuesPerPage: 5 });
    const text = (await pdfPages(await readAll(renderPdf(source)))).join('\n');
    expect(stats.issuesClosedEarly).toBe(true);
    expect(stats.issuesYielded).toBeLessThan(10_000);
    expect(text).toContain('… and 995 more');
  });

  it('renders an empty crawl: no issues, no pages, no PageSpeed, no health score', async () => {
    const { source, stats } = syntheticSource({ pages: 0, pagespeed: null, healthScore: null });
    const text = (await pdfPages(await readAll(renderPdf(source)))).join('\n');
    expect(text).toContain('Acme Boutique');
    expect(text).toContain('No issues found.');
    expect(text).toContain('No pages crawled.');
    expect(text).toContain('PageSpeed was not measured for this crawl.');
    expect(text).toContain('Not measured');
    // No summary group means nothing to look up: the issue stream is not even opened.
    expect(stats.issuesYielded).toBe(0);
  });

  it('reports strategies PageSpeed could not measure as not measured, never 0', async () => {
    const { source } = syntheticSource({ pages: 3 });
    const text = (await pdfPages(await readAll(renderPdf(source)))).join('\n');
    expect(text).toMatch(/Desktop\s+Not measured/);
    expect(text).toMatch(/Mobile\s+61/);
  });

  it('fails the stream when the source fails', async () => {
    const { source } = syntheticSource({ pages: 5 });
    source.pages = async function* () {
      yield* [];
      throw new Error('cursor lost');
    };
    await expect(readAll(renderPdf(source))).rejects.toThrow('cursor lost');
  });
});

describe('pdfSafe', () => {
  it('keeps what the standard fonts can draw and marks the rest', () => {
    expect(pdfSafe('Café « déco » – 50 € … œuvre')).toBe('Café « déco » – 50 € … œuvre');
    expect(pdfSafe('日本 ☕ ok')).toBe('?? ? ok');
    expect(pdfSafe('a\u0000b\tc\u202fd')).toBe('ab c d');
    expect(pdfSafe(null)).toBe('');
  });
});
