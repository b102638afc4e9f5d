import type { CrawledPage, PageSpeedResult } from '@siteaudit/schema';
import { PassThrough, type Readable } from 'node:stream';
import { type ExportStrings, exportStrings, formatters, SEVERITIES, SEVERITY_RANK } from './i18n.js';
import { pdfSafe } from './pdf-text.js';
import { collectTopIssues, rankGroups, type TopIssue } from './top-issues.js';
import type { ExportSource } from './types.js';

/** The PDF lists the first pages only; the XLSX export carries all of them. */
export const PDF_PAGE_ROW_LIMIT = 500;
/** How many of the largest issue groups get a detailed block. */
export const PDF_TOP_ISSUES = 10;
/** Example URLs per top issue. */
export const PDF_EXAMPLES_PER_ISSUE = 5;

const FONT = 'Helvetica';
const BOLD = 'Helvetica-Bold';
const INK = '#1f2328';
const MUTED = '#6e7781';
const LINK = '#0b57d0';
const RULE = '#d0d7de';
const STRIPE = '#f6f8fa';
const SEVERITY_COLOURS: Record<string, string> = { error: '#c62828', warning: '#e65100', info: '#1565c0' };
const ROW_HEIGHT = 13;

type Align = 'left' | 'right';
interface TextStyle {
  size?: number;
  bold?: boolean;
  color?: string;
}
interface Column {
  header: string;
  width: number;
  align?: Align;
}
interface Cell {
  text: string;
  color?: string;
  link?: string;
  bold?: boolean;
}

class AbortedError extends Error {}

/** Only web links become PDF link annotations; anything else stays plain text. */
function webLink(url: string): string | undefined {
  return /^https?:\/\//i.test(url) ? url : undefined;
}

/**
 * Thin layout helper over pdfkit: text is always drawn without pdfkit's own wrapping, at positions this
 * class tracks, so page breaks happen only where it decides (and table headers can be repeated).
 */
class Layout {
  y: number;
  pageCount = 0;

  constructor(
    readonly doc: PDFKit.PDFDocument,
    private readonly footer: string,
    private readonly t: ExportStrings,
  ) {
    // Page numbers are drawn as each page opens, so pages can be flushed immediately (no bufferPages).
    doc.on('pageAdded', () => this.drawFooter());
    doc.addPage();
    this.y = doc.page.margins.top;
  }

  get left(): number {
    return this.doc.page.margins.left;
  }
  get width(): number {
    return this.doc.page.width - this.doc.page.margins.left - this.doc.page.margins.right;
  }
  get bottom(): number {
    return this.doc.page.height - this.doc.page.margins.bottom;
  }

  newPage(): void {
    this.doc.addPage();
    this.y = this.doc.page.margins.top;
  }

  ensure(height: number): void {
    if (this.y + height > this.bottom) this.newPage();
  }

  private drawFooter(): void {
    this.pageCount += 1;
    const { doc } = this;
    const y = doc.page.height - doc.page.margins.bottom + 25;
    doc.save();
    doc.moveTo(this.left, y - 6).lineTo(this.left + this.width, y - 6).lineWidth(0.5).strokeColor(RULE).stroke();
    doc.restore();
    const pageLabel = this.t.pageNumber(this.pageCount);
    this.draw(pageLabel, this.left, y, { size: 8, color: MUTED }, { width: this.width, align: 'right' });
    this.draw(this.footer, this.left, y, { size: 8, color: MUTED }, { width: this.width - 80 });
  }

  private font(style: TextStyle): void {
    this.doc
      .font(style.bold ? BOLD : FONT)
      .fontSize(style.size ?? 9)
      .fillColor(style.color ?? INK);
  }

  /** Shortens text with an ellipsis so it fits `width` at the current font. */
  fit(text: string, width: number): string {
    const { doc } = this;
    if (doc.widthOfString(text) <= width) return text;
    let lo = 0;
    let hi = text.length;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (doc.widthOfString(`${text.slice(0, mid)}…`) <= width) lo = mid;
      else hi = mid - 1;
    }
    return `${text.slice(0, lo)}…`;
  }

  /** One line of text at (x, y); never wraps, never breaks the page. */
  draw(text: string, x: number, y: number, style: TextStyle, opts: { width?: number; align?: Align; link?: string } = {}): number {
    this.font(style);
    let s = pdfSafe(text);
    if (opts.width !== undefined) s = this.fit(s, opts.width);
    const w = this.doc.widthOfString(s);
    const dx = opts.align === 'right' && opts.width !== undefined ? opts.width - w : 0;
    this.doc.text(s, x + dx, y, { lineBreak: false });
    // pdfkit sizes link annotations from its line wrapper, which unwrapped text skips: add it here.
    if (opts.link && s) this.doc.link(x + dx, y, w, this.doc.currentLineHeight(), opts.link);
    return w;
  }

  /** Wrapped paragraph at the current position. */
  paragraph(text: string, style: TextStyle = {}, gapAfter = 6): void {
    this.font(style);
    const s = pdfSafe(text);
    const height = this.doc.heightOfString(s, { width: this.width });
    this.ensure(height);
    this.doc.text(s, this.left, this.y, { width: this.width });
    this.y += height + gapAfter;
  }

  heading(text: string, level: 1 | 2 = 1): void {
    const size = level === 1 ? 16 : 12;
    this.ensure(size + 40);
    if (level === 1) {
      this.y += 4;
      this.doc.outline.addItem(pdfSafe(text));
    } else {
      this.y += 6;
    }
    this.draw(text, this.left, this.y, { size, bold: true });
    this.y += size + (level === 1 ? 4 : 2);
    if (level === 1) {
      this.doc.save();
      this.doc.moveTo(this.left, this.y).lineTo(this.left + this.width, this.y).lineWidth(1).strokeColor(INK).stroke();
      this.doc.restore();
      this.y += 10;
    }
  }

  keyValue(key: string, value: string, opts: { link?: string; keyWidth?: number; color?: string } = {}): void {
    const keyWidth = opts.keyWidth ?? 150;
    this.ensure(ROW_HEIGHT + 2);
    this.draw(key, this.left, this.y, { size: 10, color: MUTED }, { width: keyWidth - 8 });
    this.draw(value, this.left + keyWidth, this.y, { size: 10, color: opts.link ? LINK : (opts.color ?? INK) }, {
      width: this.width - keyWidth,
      link: opts.link,
    });
    this.y += ROW_HEIGHT + 3;
  }

  table(columns: Column[]): Table {
    return new Table(this, columns);
  }
}

/** A table whose rows arrive one at a time; the header is repeated on every page it spans. */
class Table {
  private rows = 0;

  constructor(
    private readonly layout: Layout,
    private readonly columns: Column[],
  ) {
    layout.ensure(ROW_HEIGHT * 3);
    this.header();
  }

  private header(): void {
    const { layout } = this;
    let x = layout.left;
    for (const col of this.columns) {
      layout.draw(col.header, x + 2, layout.y + 2, { size: 8, bold: true, color: MUTED }, { width: col.width - 4, align: col.align });
      x += col.width;
    }
    layout.y += ROW_HEIGHT + 1;
    layout.doc.save();
    layout.doc.moveTo(layout.left, layout.y).lineTo(layout.left + layout.width, layout.y).lineWidth(0.75).strokeColor(RULE).stroke();
    layout.doc.restore();
    layout.y += 2;
  }

  row(cells: Cell[]): void {
    const { layout } = this;
    if (layout.y + ROW_HEIGHT > layout.bottom) {
      layout.newPage();
      this.header();
    }
    if (this.rows % 2 === 1) {
      layout.doc.save();
      layout.doc.rect(layout.left, layout.y - 1, layout.width, ROW_HEIGHT).fill(STRIPE);
      layout.doc.restore();
    }
    let x = layout.left;
    this.columns.forEach((col, i) => {
      const cell = cells[i];
      if (cell && cell.text) {
        layout.draw(cell.text, x + 2, layout.y + 2, { size: 8, bold: cell.bold, color: cell.color ?? (cell.link ? LINK : INK) }, {
          width: col.width - 4,
          align: col.align,
          link: cell.link,
        });
      }
      x += col.width;
    });
    layout.y += ROW_HEIGHT;
    this.rows += 1;
  }
}

/**
 * Renders the PDF report. Sections: cover, health summary, issues by severity and category, top issues
 * (largest groups with example URLs), PageSpeed, then the first PDF_PAGE_ROW_LIMIT pages. The issue and
 * page streams are read once each and never held; the document is emitted page by page.
 */
export function renderPdf(source: ExportSource): Readable {
  const out = new PassThrough();
  writePdf(source, out).catch((err: unknown) => {
    if (!(err instanceof AbortedError)) out.destroy(err instanceof Error ? err : new Error(String(err)));
  });
  return out;
}

async function writePdf(source: ExportSource, out: PassThrough): Promise<void> {
  // Loaded on first use, which also lets the caller attach its listeners before anything can
  // fail: pdfkit and its fonts weigh about 20 MB of memory that a server which never exports
  // (or has not yet) should not carry.
  const { default: PDFDocument } = await import('pdfkit');
  const t = exportStrings(source.language);
  const f = formatters(t);
  const label = (name: string) => source.labels?.(name) ?? name;
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
  const layout = new Layout(doc, `${source.project.name} — ${t.reportTitle}`, t);

  drawCover(layout, source, t, f);

  layout.newPage();
  drawHealthSummary(layout, source, t, f);
  drawIssuesByCategory(layout, source, t, f, label);

  const top = await collectTopIssues(source.summary, () => source.issues(), {
    count: PDF_TOP_ISSUES,
    examplesPerIssue: PDF_EXAMPLES_PER_ISSUE,
    shouldStop: aborted,
  });
  if (aborted()) throw new AbortedError();
  layout.newPage();
  drawTopIssues(layout, top, t, f, label);

  drawPageSpeed(layout, source.pagespeed, t, f);

  layout.newPage();
  await drawPages(layout, source, t, f, aborted);
  if (aborted()) throw new AbortedError();

  doc.end();
}

type Formatters = ReturnType<typeof formatters>;

function drawCover(layout: Layout, source: ExportSource, t: ExportStrings, f: Formatters): void {
  layout.y = 200;
  layout.draw(t.reportTitle.toUpperCase(), layout.left, layout.y, { size: 11, bold: true, color: MUTED });
  layout.y += 24;
  layout.paragraph(source.project.name, { size: 26, bold: true }, 8);
  layout.draw(source.project.url, layout.left, layout.y, { size: 12, color: LINK }, { width: layout.width, link: webLink(source.project.url) });
  layout.y += 40;

  layout.keyValue(t.domain, source.project.domain);
  layout.keyValue(t.crawlId, source.crawl.id);
  layout.keyValue(t.crawlStatus, t.crawlStatuses[source.crawl.status] ?? source.crawl.status);
  layout.keyValue(t.started, f.dateTime(source.crawl.started_at));
  layout.keyValue(t.finished, f.dateTime(source.crawl.finished_at));
}

function drawHealthSummary(layout: Layout, source: ExportSource, t: ExportStrings, f: Formatters): void {
  layout.heading(t.healthSummary);

  const score = source.healthScore;
  layout.draw(t.healthScore, layout.left, layout.y, { size: 10, color: MUTED });
  layout.y += 14;
  if (score === null || !Number.isFinite(score)) {
    layout.draw(t.notMeasured, layout.left, layout.y, { size: 20, bold: true, color: MUTED });
    layout.y += 30;
  } else {
    const w = layout.draw(f.int(Math.round(score)), layout.left, layout.y, { size: 32, bold: true });
    layout.draw('/ 100', layout.left + w + 6, layout.y + 14, { size: 12, color: MUTED });
    layout.y += 44;
  }

  layout.keyValue(t.pagesCrawled, f.int(source.crawl.pages.crawled));
  layout.keyValue(t.pagesDiscovered, f.int(source.crawl.pages.discovered));
  layout.keyValue(t.pageBudget, f.int(source.crawl.pages.budget));
  layout.y += 8;

  // One box per severity: count on top, label below.
  layout.ensure(60);
  const boxWidth = (layout.width - 20) / 3;
  SEVERITIES.forEach((severity, i) => {
    const x = layout.left + i * (boxWidth + 10);
    layout.doc.save();
    layout.doc.rect(x, layout.y, boxWidth, 50).lineWidth(1).strokeColor(SEVERITY_COLOURS[severity]).stroke();
    layout.doc.restore();
    layout.draw(f.int(source.crawl.issue_counts[severity]), x + 10, layout.y + 8, { size: 18, bold: true, color: SEVERITY_COLOURS[severity] }, { width: boxWidth - 20 });
    layout.draw(t.severities[severity], x + 10, layout.y + 32, { size: 9, color: MUTED }, { width: boxWidth - 20 });
  });
  layout.y += 64;

  if (source.summary.protection_occurrences > 0) {
    layout.keyValue(t.protectionOccurrences, f.int(source.summary.protection_occurrences), { keyWidth: 230 });
    layout.paragraph(t.protectionNote, { size: 8, color: MUTED });
  }
}

function drawIssuesByCategory(layout: Layout, source: ExportSource, t: ExportStrings, f: Formatters, label: (n: string) => string): void {
  layout.heading(t.byCategory);
  const groups = source.summary.groups.filter((g) => g.occurrences > 0);
  if (groups.length === 0) {
    layout.paragraph(t.noIssues, { size: 10, color: MUTED });
    return;
  }

  // Category × severity matrix of occurrences.
  const matrix = new Map<string, Record<string, number>>();
  for (const g of groups) {
    const row = matrix.get(g.category) ?? { error: 0, warning: 0, info: 0 };
    row[g.severity] = (row[g.severity] ?? 0) + g.occurrences;
    matrix.set(g.category, row);
  }
  const totalOf = (r: Record<string, number>) => SEVERITIES.reduce((s, k) => s + (r[k] ?? 0), 0);
  const categories = [...matrix.entries()].sort((a, b) => totalOf(b[1]) - totalOf(a[1]) || a[0].localeCompare(b[0]));
  const w = layout.width;
  const matrixTable = layout.table([
    { header: t.category, width: w - 4 * 80 },
    ...SEVERITIES.map((s) => ({ header: t.severities[s], width: 80, align: 'right' as const })),
    { header: t.total, width: 80, align: 'right' },
  ]);
  for (const [category, counts] of categories) {
    matrixTable.row([
      { text: category },
      ...SEVERITIES.map((s) => ({ text: counts[s] ? f.int(counts[s]) : '', color: SEVERITY_COLOURS[s] })),
      { text: f.int(totalOf(counts)), bold: true },
    ]);
  }
  layout.y += 10;

  // Then every issue group, by severity, largest first.
  for (const severity of SEVERITIES) {
    const ofSeverity = rankGroups(groups.filter((g) => g.severity === severity));
    if (ofSeverity.length === 0) continue;
    layout.heading(`${t.severities[severity]} (${f.int(ofSeverity.length)})`, 2);
    const table = layout.table([
      { header: t.issue, width: w - 130 - 80 },
      { header: t.category, width: 130 },
      { header: t.occurrences, width: 80, align: 'right' },
    ]);
    for (const g of ofSeverity) {
      const text = label(g.name) === g.name ? g.name : `${label(g.name)} (${g.name})`;
      table.row([{ text }, { text: g.category, color: MUTED }, { text: f.int(g.occurrences) }]);
    }
    layout.y += 6;
  }
  // Groups are listed in severity order; anything with an unknown severity is still shown.
  const others = groups.filter((g) => SEVERITY_RANK[g.severity] === undefined);
  if (others.length > 0) {
    const table = layout.table([
      { header: t.issue, width: w - 130 - 80 },
      { header: t.category, width: 130 },
      { header: t.occurrences, width: 80, align: 'right' },
    ]);
    for (const g of rankGroups(others)) table.row([{ text: label(g.name) }, { text: g.category }, { text: f.int(g.occurrences) }]);
  }
}

function drawTopIssues(layout: Layout, top: TopIssue[], t: ExportStrings, f: Formatters, label: (n: string) => string): void {
  layout.heading(t.topIssues);
  if (top.length === 0) {
    layout.paragraph(t.noIssues, { size: 10, color: MUTED });
    return;
  }
  const indent = 14;
  for (const issue of top) {
    const extra = issue.occurrences > issue.examples.length ? 1 : 0;
    layout.ensure(34 + (issue.examples.length + extra) * 12);
    const colour = SEVERITY_COLOURS[issue.severity] ?? MUTED;
    layout.doc.save();
    layout.doc.rect(layout.left, layout.y + 1, 6, 10).fill(colour);
    layout.doc.restore();
    const count = f.int(issue.occurrences);
    layout.draw(count, layout.left, layout.y, { size: 11, bold: true }, { width: layout.width, align: 'right' });
    const title = label(issue.name) === issue.name ? issue.name : `${label(issue.name)} (${issue.name})`;
    layout.draw(title, layout.left + indent, layout.y, { size: 11, bold: true }, { width: layout.width - indent - 70 });
    layout.y += 15;
    const severityName = t.severityNames[issue.severity as keyof typeof t.severityNames] ?? issue.severity;
    layout.draw(`${severityName} · ${issue.category} · ${t.occurrences.toLowerCase()}: ${count}`, layout.left + indent, layout.y, { size: 8, color: MUTED }, {
      width: layout.width - indent,
    });
    layout.y += 12;
    const urlWidth = (layout.width - indent) * 0.62;
    for (const example of issue.examples) {
      layout.draw(example.url, layout.left + indent, layout.y, { size: 8, color: LINK }, { width: urlWidth - 6, link: webLink(example.url) });
      layout.draw(example.details, layout.left + indent + urlWidth, layout.y, { size: 8, color: MUTED }, { width: layout.width - indent - urlWidth });
      layout.y += 12;
    }
    if (extra) {
      layout.draw(t.moreOccurrences(f.int(issue.occurrences - issue.examples.length)), layout.left + indent, layout.y, { size: 8, color: MUTED });
      layout.y += 12;
    }
    layout.y += 8;
  }
}

function drawPageSpeed(layout: Layout, ps: PageSpeedResult | null, t: ExportStrings, f: Formatters): void {
  layout.y += 6;
  layout.heading(t.pagespeed);
  if (!ps) {
    layout.paragraph(t.pagespeedNotMeasured, { size: 10, color: MUTED });
    return;
  }
  layout.keyValue(t.pagespeedStatus, t.pagespeedStatuses[ps.status] ?? ps.status);
  if (ps.provider) layout.keyValue(t.provider, ps.provider);
  if (ps.measured_at) layout.keyValue(t.measuredAt, f.dateTime(ps.measured_at));
  if (ps.skip_reason) layout.keyValue(t.note, ps.skip_reason);
  layout.y += 4;

  const w = layout.width;
  const table = layout.table([
    { header: '', width: w - 3 * 100 },
    { header: t.score, width: 100, align: 'right' },
    { header: t.pagesMeasured, width: 100, align: 'right' },
    { header: t.pagesFailed, width: 100, align: 'right' },
  ]);
  const strategy = (name: string, avg: PageSpeedResult['mobile']) =>
    table.row(
      avg
        ? [{ text: name, bold: true }, { text: f.int(Math.round(avg.score)) }, { text: f.int(avg.pages_measured) }, { text: f.int(avg.pages_failed) }]
        : [{ text: name, bold: true }, { text: t.notMeasured, color: MUTED }, { text: '' }, { text: '' }],
    );
  strategy(t.mobile, ps.mobile);
  strategy(t.desktop, ps.desktop);
  table.row([
    { text: t.combined, bold: true },
    ps.combined === null ? { text: t.notMeasured, color: MUTED } : { text: f.int(Math.round(ps.combined)), bold: true },
    { text: '' },
    { text: '' },
  ]);
  layout.y += 6;
  if (ps.failed) layout.paragraph(t.allRefused, { size: 9, color: SEVERITY_COLOURS.error });

  if (ps.sample.length > 0) {
    layout.heading(t.sample, 2);
    const sample = layout.table([
      { header: t.url, width: w - 90 - 2 * 70 - 20 - 110 },
      { header: t.role, width: 90 },
      { header: t.mobile, width: 70, align: 'right' },
      { header: t.desktop, width: 70, align: 'right' },
      { header: '', width: 20 },
      { header: t.error, width: 110 },
    ]);
    const score = (v: number | null) => (v === null ? { text: '—', color: MUTED } : { text: f.int(Math.round(v)) });
    for (const s of ps.sample) {
      sample.row([
        { text: s.url, link: webLink(s.url) },
        { text: t.roles[s.role] ?? s.role },
        score(s.mobile),
        score(s.desktop),
        { text: '' },
        { text: s.error ?? '', color: MUTED },
      ]);
    }
  }
}

async function drawPages(layout: Layout, source: ExportSource, t: ExportStrings, f: Formatters, aborted: () => boolean): Promise<void> {
  layout.heading(t.pages);
  const crawled = source.crawl.pages.crawled;
  const noteShown = crawled > PDF_PAGE_ROW_LIMIT;
  if (noteShown) layout.paragraph(t.pagesShown(f.int(PDF_PAGE_ROW_LIMIT), f.int(crawled)), { size: 9, color: MUTED });

  const w = layout.width;
  let table: Table | null = null;
  let shown = 0;
  let more = false;
  for await (const page of source.pages()) {
    if (aborted()) return;
    // Reading one row past the limit tells whether the list was cut; the iterator is then closed.
    if (shown === PDF_PAGE_ROW_LIMIT) {
      more = true;
      break;
    }
    table ??= layout.table([
      { header: t.url, width: w - 45 - 150 - 45 - 60 },
      { header: t.status, width: 45, align: 'right' },
      { header: t.title, width: 150 },
      { header: t.words, width: 45, align: 'right' },
      { header: t.responseTimeShort, width: 60, align: 'right' },
    ]);
    table.row(pageCells(page, f));
    shown += 1;
  }
  if (shown === 0) {
    layout.paragraph(t.noPages, { size: 10, color: MUTED });
  } else if (more && !noteShown) {
    layout.y += 6;
    layout.paragraph(t.pagesShown(f.int(shown), `${f.int(shown)}+`), { size: 9, color: MUTED });
  }
}

function pageCells(page: CrawledPage, f: Formatters): Cell[] {
  const code = page.status_code;
  const status = code === null ? (page.error_type ?? '—') : String(code);
  const statusColour = code === null || code >= 400 ? SEVERITY_COLOURS.error : code >= 300 ? SEVERITY_COLOURS.warning : INK;
  return [
    { text: page.url, link: webLink(page.url) },
    { text: status, color: statusColour },
    { text: page.title ?? '' },
    { text: page.word_count === null ? '' : f.int(page.word_count) },
    { text: page.response_time_ms === null ? '' : f.int(Math.round(page.response_time_ms)) },
  ];
}
