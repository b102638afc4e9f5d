/**
 * The PDF as a client sees it: every page rendered to an image (pdftoppm) holds something besides
 * the footer, and each page's text (pdfjs) says what it should, in English and in French.
 */
import { describe, expect, it } from 'vitest';
import { renderPdf } from '../../src/reports/index.js';
import { type SyntheticOptions, readAll, syntheticSource } from '../../../../tests/support/report-fixtures.js';
import { hasPdftoppm, inkAbove, pdfImages, pdfPages } from '../../../../tests/support/pdf-read.js';

/** The body of an A4 page ends at 92 % of its height; the footer is below. */
const BODY = 0.92;

const CASES: { name: string; options: SyntheticOptions }[] = [
  { name: 'a crawl with issues', options: { pages: 60 } },
  { name: 'more pages than the PDF lists', options: { pages: 700, issuesPerPage: 2 } },
  { name: 'an empty crawl', options: { pages: 0, pagespeed: null, healthScore: null, scorecard: false, history: 1 } },
];

const EXPECTED = {
  en: {
    cover: ['SITE AUDIT REPORT', 'Acme Boutique', 'https://www.acme.example/', 'Audit date', '12 March 2025', 'Health score', '73', 'Scorecard'],
    somewhere: ['Issues by category and severity', 'Health score over recent comparable crawls', 'What to fix', 'Why it matters', 'Top issues', 'Broken internal link', 'HTTP and redirects'],
    footer: ['Acme Boutique — Site audit report', 'Page'],
  },
  fr: {
    cover: ["RAPPORT D'AUDIT DE SITE", 'Acme Boutique', 'https://www.acme.example/', "Date de l'audit", '12 mars 2025', 'Score de santé', '73', 'Bilan par pilier'],
    somewhere: ['Problèmes par catégorie et gravité', 'Score de santé des derniers crawls comparables', 'À corriger', 'Pourquoi c’est important', 'Principaux problèmes', 'Lien interne cassé', 'HTTP et redirections'],
    footer: ["Acme Boutique — Rapport d'audit de site", 'Page'],
  },
} as const;

/** A page's text without its footer. */
function body(page: string, footer: readonly string[]): string {
  return footer.reduce((s, f) => s.replaceAll(f, ''), page).trim();
}

describe('PDF pages', () => {
  for (const language of ['en', 'fr'] as const) {
    it(`${language}: the cover and the sections say what they should, and no page is empty`, async () => {
      const { source } = syntheticSource({ pages: 60, language });
      const pages = await pdfPages(await readAll(renderPdf(source)));
      const expected = EXPECTED[language];
      for (const s of expected.cover) expect(pages[0]).toContain(s);
      const rest = pages.slice(1).join('\n');
      for (const s of expected.somewhere) expect(rest).toContain(s);
      pages.forEach((page, i) => {
        expect(page).toContain(`Page ${i + 1}`);
        expect(body(page, expected.footer).replace(`${i + 1}`, '').trim().length, `page ${i + 1} has only its footer`).toBeGreaterThan(20);
      });
    });
  }

  for (const { name, options } of CASES) {
    for (const language of ['en', 'fr'] as const) {
      it.skipIf(!hasPdftoppm)(`${name} (${language}): every page renders to an image with content above the footer (pdftoppm)`, async () => {
        const buffer = await readAll(renderPdf(syntheticSource({ ...options, language }).source));
        const texts = await pdfPages(buffer);
        const images = await pdfImages(buffer);
        expect(images.length).toBe(texts.length);
        images.forEach((image, i) => {
          expect(image.width).toBeGreaterThan(300);
          // A line of small text leaves a few hundred dark pixels at 40 dpi; a blank body none.
          expect(inkAbove(image, BODY), `page ${i + 1} of ${images.length} is blank`).toBeGreaterThan(150);
        });
      }, 60_000);
    }
  }

  if (!hasPdftoppm) {
    it('renders pages to images: skipped, pdftoppm is not installed (apt-get install poppler-utils)', () => {
      console.warn('PDF image check skipped: pdftoppm (poppler-utils) is not installed.');
    });
  }
});
