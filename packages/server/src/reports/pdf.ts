import { PassThrough, type Readable } from 'node:stream';
import { exportStrings, formatters } from './i18n.js';
import { reportLabels } from './labels.js';
import { drawCategoryChart, drawHistoryChart } from './pdf/charts.js';
import type { PdfContext } from './pdf/context.js';
import { drawChanges } from './pdf/changes.js';
import { drawCover } from './pdf/cover.js';
import { abortError, isAbortError } from '../abort.js';
import { Layout, MUTED } from './pdf/layout.js';
import { drawLogs } from './pdf/logs.js';
import { drawScorecard } from './pdf/scorecard.js';
import { drawHealthSummary, drawIssuesByCategory, drawPages, drawPageSpeed, drawTemplateDecisions, drawTopIssues } from './pdf/sections.js';
import { collectTopIssues } from './top-issues.js';
import type { ExportSource } from './types.js';

export { PDF_PAGE_ROW_LIMIT } from './pdf/sections.js';
export { PDF_FIXES_PER_PILLAR } from './pdf/scorecard.js';
/** How many issue groups get a detailed block (most severe first, then largest). */
export const PDF_TOP_ISSUES = 10;
/** Example URLs per top issue. */
export const PDF_EXAMPLES_PER_ISSUE = 5;

/**
 * Renders the PDF report: cover (project, site, date, health score, pillars), health summary with
 * the charts, what changed since the last comparable crawl, scorecard with what to fix, what bots
 * crawl according to the access logs (when the project has some), issues by severity and category,
 * top issues with example URLs, PageSpeed, then the first PDF_PAGE_ROW_LIMIT pages. The issue and page streams are read
 * once each and never held; the document is emitted page by page.
 */
export function renderPdf(source: ExportSource): Readable {
  const out = new PassThrough();
  writePdf(source, out).catch((err: unknown) => {
    // The reader went away (abortError below): nothing to report to it.
    if (!isAbortError(err)) out.destroy(err instanceof Error ? err : new Error(String(err)));
  });
  return out;
}

async function writePdf(source: ExportSource, out: PassThrough): Promise<void> {
  // Loaded on first use, which also lets the caller attach its listeners before anything can
  // fail: pdfkit and its fonts weigh about 20 MB of memory that a server which never exports
  // (or has not yet) should not carry.
  const { default: PDFDocument } = await import('pdfkit');
  const t = exportStrings(source.language);
  const aborted = () => out.destroyed;

  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: 50, bottom: 60, left: 50, right: 50 },
    autoFirstPage: false,
    bufferPages: false,
    lang: source.language,
    displayTitle: true,
    info: {
      // Metadata strings are stored as UTF-16, so they need no narrowing to WinAnsi.
      Title: `${t.reportTitle} – ${source.project.name}`,
      Subject: source.project.url,
      Creator: t.generatedBy,
      Producer: t.generatedBy,
    },
  });
  doc.pipe(out);
  const ctx: PdfContext = {
    layout: new Layout(doc, `${source.project.name} — ${t.reportTitle}`, t),
    source,
    language: source.language,
    t,
    f: formatters(t),
    labels: reportLabels(source.language, source.labels),
  };
  const { layout } = ctx;

  drawCover(ctx);
  // A crawl that never reached its site has nothing else to show: the cover says why, in one line.
  if (source.crawl.failure) {
    doc.end();
    return;
  }

  layout.newPage();
  drawHealthSummary(ctx);
  drawCategoryChart(ctx);
  drawHistoryChart(ctx);

  if (source.changes) {
    // Not compared (a first crawl): one line under the charts instead of a page of its own.
    if (source.changes.summary.basis === 'compared') layout.newPage();
    else layout.y += 10;
    drawChanges(ctx);
  }

  // A section without data is one line where it would start, never a page of its own.
  const colon = source.language === 'fr' ? ' : ' : ': ';
  const oneLine = (title: string, text: string) => {
    layout.y += 6;
    layout.paragraph(`${title}${colon}${text}`, { size: 10, color: MUTED });
  };

  if (source.scorecard?.length) {
    layout.newPage();
    drawScorecard(ctx);
  } else oneLine(t.scorecard, t.scorecardMissing);

  if (source.logs) {
    layout.newPage();
    drawLogs(ctx);
  }

  if (source.summary.groups.some((g) => g.occurrences > 0)) {
    layout.newPage();
    drawIssuesByCategory(ctx);
    drawTemplateDecisions(ctx);
    const top = await collectTopIssues(source.summary, () => source.issues(), {
      count: PDF_TOP_ISSUES,
      examplesPerIssue: PDF_EXAMPLES_PER_ISSUE,
      shouldStop: aborted,
      fixes: source.fixes,
    });
    if (aborted()) throw abortError(undefined, 'report reader gone');
    layout.newPage();
    drawTopIssues(ctx, top);
  } else oneLine(t.byCategory, t.noIssues);
  drawPageSpeed(ctx, source.pagespeed);

  if (source.crawl.pages.crawled > 0) {
    layout.newPage();
    await drawPages(ctx, aborted);
    if (aborted()) throw abortError(undefined, 'report reader gone');
  } else oneLine(t.pages, t.noPages);

  doc.end();
}
