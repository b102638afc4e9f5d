/**
 * The PDF report, read back with pdfjs: what it says, in which language, and how much of the issue and
 * page streams it pulls.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PDF_PAGE_ROW_LIMIT, renderPdf } from '../../src/reports/index.js';
import { pdfSafe } from '../../src/reports/pdf-text.js';
import { fallbackFont } from '../../src/reports/pdf/fonts.js';
import { CATALOGUE, CATALOGUE_LABELS_EN, readAll, syntheticSource } from '../../../../tests/support/report-fixtures.js';
import { pdfPages, pdftotext } from '../../../../tests/support/pdf-read.js';

/** Machine values a client must never read in the report. */
const RAW_CODES = [
  ...CATALOGUE.map((c) => c.name),
  ...new Set(CATALOGUE.map((c) => c.category).filter((c) => c.includes('_'))),
  'not_requested',
  'not_measured',
  'search_console_not_linked',
  'log_exploration_unavailable',
  'ai_reachability_not_checked',
  'axe_fetched_html',
];

describe('renderPdf', () => {
  it('holds the project, the crawl and every issue label, with English headings and page numbers', async () => {
    const { source } = syntheticSource({ pages: 40, language: 'en' });
    const buffer = await readAll(renderPdf(source));
    expect(buffer.subarray(0, 5).toString()).toBe('%PDF-');

    const pages = await pdfPages(buffer);
    const text = pages.join('\n');
    expect(text).toContain('Acme Boutique');
    expect(text).toContain('https://www.acme.example/');
    expect(text).toContain(source.crawl.id);
    expect(text).toContain('12 March 2025');
    for (const issue of CATALOGUE) expect(text).toContain(CATALOGUE_LABELS_EN[issue.name]);
    for (const heading of ['Site audit report', 'Health summary', 'Scorecard', 'Issues by severity and category', 'Top issues', 'PageSpeed', 'Pages']) {
      expect(text).toContain(heading);
    }
    expect(text).toContain('73'); // health score 72.6, rounded
    pages.forEach((page, i) => expect(page).toContain(`Page ${i + 1}`));
  });

  it('prints human labels, never machine codes', async () => {
    for (const language of ['en', 'fr'] as const) {
      const { source } = syntheticSource({ pages: 30, language });
      const text = (await pdfPages(await readAll(renderPdf(source)))).join('\n');
      for (const code of RAW_CODES) expect(text, `${language}: ${code}`).not.toContain(code);
    }
    const { source } = syntheticSource({ pages: 10, language: 'en' });
    const text = (await pdfPages(await readAll(renderPdf(source)))).join('\n');
    for (const label of ['HTTP and redirects', 'Performance and security', 'Links and images', 'Accessibility: Elements must meet minimum color contrast ratio thresholds', 'Completed', 'Home page']) {
      expect(text).toContain(label);
    }
  });

  it('writes French headings and labels when asked', async () => {
    const { source } = syntheticSource({ pages: 10, language: 'fr' });
    const text = (await pdfPages(await readAll(renderPdf(source)))).join('\n');
    for (const heading of ["Rapport d'audit de site", 'Synthèse de santé', 'Bilan par pilier', 'Problèmes par gravité et catégorie', 'Principaux problèmes', 'Statut']) {
      expect(text).toContain(heading);
    }
    for (const label of ['Titre absent ou vide', 'Lien interne cassé', 'HTTP et redirections', 'Performance et sécurité', 'Terminé', 'À corriger', 'Technique', 'Contenu et GEO']) {
      expect(text).toContain(label);
    }
    expect(text).toContain('12 mars 2025');
    expect(text).not.toContain('Health summary');
    expect(text).not.toContain('Top issues');
  });

  it('asks the label function first when one is given', async () => {
    const { source } = syntheticSource({ pages: 10, labels: true });
    const text = (await pdfPages(await readAll(renderPdf(source)))).join('\n');
    expect(text).toContain('Missing <title> tag');
    expect(text).toContain(CATALOGUE_LABELS_EN.h1_missing);
  });

  it('orders top issues by severity, then by count', async () => {
    const { source } = syntheticSource({ pages: 10 });
    // Notices far more frequent than the errors still come after them.
    source.summary = {
      ...source.summary,
      groups: [
        { name: 'canonical_relative', label: 'canonical relative', severity: 'info', category: 'canonicals', occurrences: 900, pages: 900, templates: [] },
        { name: 'h1_missing', label: 'h1 missing', severity: 'warning', category: 'content', occurrences: 40, pages: 40, templates: [] },
        { name: 'http_5xx', label: 'http 5xx', severity: 'error', category: 'http', occurrences: 2, pages: 2, templates: [] },
        { name: 'title_missing', label: 'title missing', severity: 'error', category: 'titles', occurrences: 7, pages: 7, templates: [] },
        { name: 'slow_response', label: 'slow response', severity: 'warning', category: 'performance_security', occurrences: 300, pages: 300, templates: [] },
      ],
    };
    const pages = await pdfPages(await readAll(renderPdf(source)));
    // The section may run over two pages: examples show their details whole.
    const from = pages.findIndex((p) => p.includes('Top issues'));
    const section = pages.slice(from).join('\n').slice(pages[from].indexOf('Top issues'));
    const order = ['title_missing', 'http_5xx', 'slow_response', 'h1_missing', 'canonical_relative'].map((n) => section.indexOf(CATALOGUE_LABELS_EN[n]));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('prints the template decisions of the issue summary, one line each with pages, share, details and examples, in both languages', async () => {
    for (const language of ['en', 'fr'] as const) {
      const { source } = syntheticSource({ pages: 10, language });
      const examples = ['https://www.acme.example/', 'https://www.acme.example/a', 'https://www.acme.example/b'];
      source.summary = {
        ...source.summary,
        groups: [
          ...source.summary.groups.filter((g) => g.name !== 'http_page' && g.name !== 'description_missing'),
          { name: 'http_page', label: 'http page', severity: 'error', category: 'performance_security', occurrences: 758, pages: 758, templates: [{ scope: 'site', section: null, pages: 758, share: 1, details: 'served over plain HTTP', examples }] },
          {
            name: 'description_missing',
            label: 'description missing',
            severity: 'warning',
            category: 'titles',
            occurrences: 40,
            pages: 40,
            templates: [{ scope: 'section', section: '/docs/', pages: 36, share: 0.9, details: 'no meta description', examples: examples.slice(1) }],
          },
        ],
      };
      const text = (await pdfPages(await readAll(renderPdf(source)))).join('\n');
      const squeezed = text.replace(/\s+/g, '');
      const sq = (x: string) => x.replace(/\s+/g, '');
      if (language === 'en') {
        expect(text).toContain('Template decisions');
        expect(squeezed).toContain(sq(`Page served over HTTP · whole site: 758 pages (100%)`));
        expect(squeezed).toContain(sq(`Meta description missing · section /docs/: 36 pages (90%)`));
        expect(squeezed).toContain('servedoverplainHTTP');
        expect(squeezed).toContain('nometadescription');
      } else {
        expect(text).toContain('Décisions de modèle');
        expect(squeezed).toContain(sq('tout le site : 758 pages (100 %)'));
        expect(squeezed).toContain(sq('section /docs/ : 36 pages (90 %)'));
        expect(squeezed).toContain('servieenHTTPnonchiffré');
        expect(squeezed).toContain('pasdeméta-description');
      }
      for (const url of examples) expect(text).toContain(url);
    }
    // No template decision, no section.
    const { source } = syntheticSource({ pages: 10, language: 'en' });
    expect((await pdfPages(await readAll(renderPdf(source)))).join('\n')).not.toContain('Template decisions');
  });

  it("prints an example's details whole, wrapped, in the report's language (never cut where the useful part is)", async () => {
    const long = `link to https://www.acme.example/blog/${'a-rather-long-path-segment/'.repeat(4)}missing-post: status 404`;
    for (const language of ['en', 'fr'] as const) {
      const { source } = syntheticSource({ pages: 1, issuesPerPage: 1, language });
      const first = source.summary.groups[0]!;
      source.summary = { ...source.summary, groups: [first] };
      source.issues = async function* () {
        yield { name: first.name, severity: first.severity, category: first.category, url: 'https://www.acme.example/', details: long };
      };
      const text = (await pdfPages(await readAll(renderPdf(source)))).join(' ');
      // Wrapped lines come back as separate text items: compare without the spaces between them.
      const squeezed = text.replace(/\s+/g, '');
      expect(squeezed).toContain('missing-post');
      expect(squeezed).toContain(language === 'en' ? 'missing-post:status404' : 'missing-post:statut404');
      expect(squeezed).toContain(language === 'en' ? 'linktohttps://' : 'lienvershttps://');
    }
  });

  it('shows the five pillars with their scores and what to fix for each failing check', async () => {
    const { source } = syntheticSource({ pages: 20 });
    const pages = await pdfPages(await readAll(renderPdf(source)));
    const scorecard = pages.slice(pages.findIndex((p) => p.includes('Five pillars'))).join('\n');
    for (const pillar of ['Technical', 'Content and GEO', 'Accessibility', 'Search Console acquisition', 'Log exploration']) {
      expect(scorecard).toContain(pillar);
    }
    expect(scorecard).toMatch(/Technical\s+60 \/ 100/);
    expect(scorecard).toMatch(/Content and GEO\s+85 \/ 100/);
    expect(scorecard).toContain('No Search Console property is linked.');
    expect(scorecard).toContain('Reachability by AI agents was not part of this audit.');
    // Failing checks of a pillar, each with its advice.
    expect(scorecard).toContain('What to fix');
    expect(scorecard).toContain('Point these links at a live URL or remove them.');
    expect(scorecard).toContain('Give every page a unique, descriptive <title>.');
    // A low PageSpeed axis gets its own advice.
    expect(scorecard).toContain('Improve Lighthouse performance');
  });

  it('lists the pillars without a score in one line, so that none is ever alone on a page', async () => {
    for (const pages of [0, 1, 5, 20, 60, 200]) {
      for (const language of ['en', 'fr'] as const) {
        const { source } = syntheticSource({ pages, language });
        const text = await pdfPages(await readAll(renderPdf(source)));
        const [logs, acquisition] = language === 'en' ? ['Log exploration', 'Search Console acquisition'] : ['Exploration des logs', 'Acquisition Search Console'];
        const start = text.findIndex((p) => p.includes(language === 'en' ? 'Five pillars' : 'Cinq piliers'));
        for (const page of text.slice(start)) {
          // The pillars without a score appear on the scorecard's first page, in one line, and nowhere after it on a page of their own.
          if (page.includes(logs) && page !== text[start]) expect.unreachable(`${logs} alone on a page (${pages} pages, ${language})`);
        }
        const squeezed = text[start].replace(/\s+/g, ' ');
        expect(squeezed).toContain(language === 'en' ? `Without a score in this report: ${acquisition} (Not measured` : `Sans score dans ce rapport : ${acquisition} (Non mesuré`);
        expect(squeezed).toContain(`${logs} (${language === 'en' ? 'Unavailable' : 'Indisponible'}`);
      }
    }
    // Twelve reports rendered and read back: a limit for a loaded CI machine, not a speed target.
  }, 90_000);

  it("gives each score's inputs and recomputes it with the report's figures, and says on the cover what the health score is", async () => {
    const { source } = syntheticSource({ pages: 20 });
    const text = (await pdfPages(await readAll(renderPdf(source)))).map((p) => p.replace(/\s+/g, ' '));
    expect(text[0]).toContain('Health score the score of the Technical pillar');
    const scorecard = text.slice(text.findIndex((p) => p.includes('Five pillars'))).join(' ');
    const technical = scorecard.slice(scorecard.indexOf('Technical 60 / 100'), scorecard.indexOf('Content and GEO 85 / 100'));
    // Each axis with its score and factor, the checks behind it with their share and cost.
    expect(technical).toContain('HTTP and redirects 88 × 0.883');
    // A link check is a share of the HTML pages, a status check of every scored URL.
    expect(technical).toContain('Broken internal link (error, 6 of 180 pages, 3.3%): 0.35 × √0.033 = 0.064');
    expect(technical).toContain('Server error (5xx) (error, 2 of 200 pages, 1%): 0.35 × √0.010 = 0.035');
    expect(technical).toContain('Content and GEO checks 85 × 0.851');
    expect(technical).toContain('PageSpeed 61 × 0.874');
    expect(technical).toContain('combined score 61: exp(−0.35 × (1 − 61 / 100))');
    expect(technical).toContain('weight 0.35 for an error, 0.12 for a warning and 0 for a notice');
    expect(technical).toContain('Scored pages: 200 internal URLs, 180 of them HTML pages answering 2xx.');
    // The worked computation: 100 × the factors below 1. The printed factors multiply to 60.08, not
    // 60.06: the line says the exact score comes from the exact factors, those shown are rounded.
    expect(technical).toContain('Score = 100 × 0.883 × 0.952 × 0.961 × 0.851 × 0.874 = 60.06, rounded to 60 (computed with the exact factors; those shown are rounded to 3 decimals).');
    const product = 100 * 0.883 * 0.952 * 0.961 * 0.851 * 0.874;
    expect(Math.round(product)).toBe(60);
    // Accessibility: one axis; the notice-free single check.
    expect(scorecard).toContain('Score = 100 × 0.987 = 98.74, rounded to 99 (computed with the exact factors; those shown are rounded to 3 decimals).');
    const fr = (await pdfPages(await readAll(renderPdf(syntheticSource({ pages: 20, language: 'fr' }).source)))).map((p) => p.replace(/\s+/g, ' ')).join(' ');
    expect(fr).toContain('le score du pilier Technique');
    expect(fr).toContain('un poids de 0,35 pour une erreur');
    expect(fr).toContain('Lien interne cassé (erreur, 6 pages sur 180, 3,3 %) : 0,35 × √0,033 = 0,064');
    expect(fr).toContain('Score = 100 × 0,883 × 0,952 × 0,961 × 0,851 × 0,874 = 60,06, arrondi à 60 (calculé avec les facteurs exacts ; ceux affichés sont arrondis à 3 décimales).');
  });

  it('draws the formulas with real glyphs and cuts no label, in French and in English', async () => {
    for (const language of ['fr', 'en'] as const) {
      const { source } = syntheticSource({ pages: 30, language });
      // A long label and a large count side by side: the cases that were cut.
      source.summary.groups.push({ name: 'schema_breadcrumb_incomplete', label: 'schema breadcrumb incomplete', severity: 'warning', category: 'structured_data', occurrences: 100, pages: 30, templates: [] });
      source.summary.totals.warning += 100;
      source.scorecard![1].categories.push('structured_data');
      const buffer = await readAll(renderPdf(source));
      for (const text of [(await pdfPages(buffer)).join('\n'), pdftotext(buffer)]) {
        if (text === null) continue;
        const squeezed = text.replace(/\s+/g, ' ');
        // Crawled text aside (URLs, and a page title in Japanese with a cup of coffee), no '?' anywhere. The
        // title is drawn in DejaVu (the Japanese as ??) or, on a machine with a CJK fallback font, in it
        // with the cup, which only DejaVu has, in DejaVu.
        const title = fallbackFont() ? /Café « déco » n°\d+ — 日本 ?☕/g : /Café « déco » n°\d+ — \?\? ☕/g;
        expect(squeezed.match(title)?.length, language).toBeGreaterThan(0);
        const own = squeezed.replace(/https?:\/\/\S+/g, '').replace(title, '');
        expect(own, language).not.toContain('?');
        expect(squeezed).toContain('exp(−');
        expect(squeezed).toContain('√');
        expect(squeezed).toContain('× 0');
        // No label shortened with an ellipsis: a letter right before "…" is a cut word.
        expect(own.match(/\p{L}…/gu), language).toBeNull();
        if (language === 'fr') {
          expect(squeezed).toContain('Données structurées et réseaux sociaux');
          expect(squeezed).toContain('Avertissement · 100 occurrences');
          expect(squeezed).toContain('Accessibilité : Les éléments doivent avoir un contraste de couleurs suffisant');
        } else {
          expect(squeezed).toContain('Structured data and social');
          expect(squeezed).toContain('Warning · 100 occurrences');
        }
      }
    }
  });

  it('draws the charts: issues by category and the health score history', async () => {
    const { source } = syntheticSource({ pages: 20, history: 6 });
    const pages = await pdfPages(await readAll(renderPdf(source)));
    const summary = pages.find((p) => p.includes('Issues by category and severity'))!;
    expect(summary).toContain('Health score over recent comparable crawls');
    // Axis values and the date of every crawl of the history.
    for (const day of ['5 Feb', '12 Feb', '19 Feb', '26 Feb', '5 Mar', '12 Mar']) expect(summary).toContain(day);
    const one = await pdfPages(await readAll(renderPdf(syntheticSource({ pages: 5, history: 1 }).source)));
    expect(one.join('\n')).toContain('First comparable crawl');
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
    const { source, stats } = syntheticSource({ pages: 0, pagespeed: null, healthScore: null, scorecard: false, history: 1 });
    const text = (await pdfPages(await readAll(renderPdf(source)))).join('\n');
    expect(text).toContain('Acme Boutique');
    // Each section without data is one line, and the whole report fits on the cover and one page.
    expect(text).toContain('Issues by severity and category: No issues found.');
    expect(text).toContain('Pages: No pages crawled.');
    expect(text).toContain('PageSpeed: not measured.');
    expect(text).toContain('Scorecard: The scorecard was not available for this report.');
    expect(text).not.toContain('Top issues');
    expect((await pdfPages(await readAll(renderPdf(syntheticSource({ pages: 0, pagespeed: null, healthScore: null, scorecard: false, history: 1 }).source)))).length).toBe(2);
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

  it('says why PageSpeed was skipped in words', async () => {
    const { source } = syntheticSource({
      pages: 3,
      language: 'fr',
      pagespeed: { crawl_id: 'x', status: 'not_requested', provider: null, skip_reason: 'not_requested', mobile: null, desktop: null, combined: null, failed: false, sample: [], measured_at: null },
    });
    const text = (await pdfPages(await readAll(renderPdf(source)))).join('\n');
    // One line, not a table of "not measured" rows.
    expect(text.replace(/\s+/g, ' ')).toContain('PageSpeed : non mesuré. Non demandé pour cet audit.');
    // Nothing addressed to the operator in a client's report.
    expect(text).not.toMatch(/campagne|campaign/i);
    expect(text).not.toMatch(/(Mobile|Ordinateur|Combiné)\s+Non mesuré/);
    expect(text).not.toContain('not_requested');
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
  it('keeps what the font can draw and marks the rest', () => {
    expect(pdfSafe('Café « déco » – 50 € … œuvre − √ ×')).toBe('Café « déco » – 50 € … œuvre − √ ×');
    expect(pdfSafe('日本 ☕ ok', (c) => c < 0x2600)).toBe('?? ? ok');
    expect(pdfSafe('a\u0000b\tc\u202fd')).toBe('ab c d');
    expect(pdfSafe(null)).toBe('');
  });
});

describe('the fallback font for crawled CJK text', () => {
  it('is the file the operator names (a face of a collection after #), none when that file is missing, else the system’s', () => {
    const dejavu = createRequire(import.meta.url).resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
    expect(fallbackFont({ SITEAUDIT_PDF_FALLBACK_FONT: dejavu })).toEqual({ regular: { path: dejavu }, bold: { path: dejavu } });
    expect(fallbackFont({ SITEAUDIT_PDF_FALLBACK_FONT: '/fonts/x.ttc#NotoSansCJKsc-Regular' })).toBeNull();
    const system = fallbackFont({});
    if (system) expect(existsSync(system.regular.path) && existsSync(system.bold.path)).toBe(true);
  });

  it('draws the report without the fallback when the operator’s file is not a font (the Japanese as ?)', async () => {
    const previous = process.env.SITEAUDIT_PDF_FALLBACK_FONT;
    process.env.SITEAUDIT_PDF_FALLBACK_FONT = fileURLToPath(import.meta.url);
    try {
      const text = (await pdfPages(await readAll(renderPdf(syntheticSource({ pages: 30, language: 'en' }).source)))).join(' ').replace(/\s+/g, ' ');
      expect(text).toContain('— ?? ☕');
    } finally {
      if (previous === undefined) delete process.env.SITEAUDIT_PDF_FALLBACK_FONT;
      else process.env.SITEAUDIT_PDF_FALLBACK_FONT = previous;
    }
  });

  it.runIf(fallbackFont() !== null)('draws a Japanese page title in the fallback font, and the rest of the report in DejaVu', async () => {
    const { source } = syntheticSource({ pages: 30, language: 'en' });
    const text = (await pdfPages(await readAll(renderPdf(source)))).join(' ').replace(/\s+/g, ' ');
    // Japanese and a symbol only DejaVu draws, in one title: each in its font, nothing lost.
    expect(text).toMatch(/— 日本 ?☕/);
    expect(text).not.toMatch(/日本 \?/);
    expect(text).toContain('exp(−');
  });
});
