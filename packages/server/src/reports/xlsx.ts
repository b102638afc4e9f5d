import type { CrawlChangesSummary, IssueOccurrence, LogDayStat, LogUrlStat, PageSpeedResult, Severity } from '@siteaudit/schema';
import { issueDetailsIn } from './issue-details.js';
import type ExcelJS from 'exceljs';
import { type EventEmitter, once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import { setImmediate as tick } from 'node:timers/promises';
import { abortError, isAbortError } from '../abort.js';
import { type ExportStrings, exportStrings, formatters, parseDate, statusList } from './i18n.js';
import { type ReportLabels, reportLabels } from './labels.js';
import { pagesAffectedCells } from './pages-affected.js';
import { rankGroups } from './top-issues.js';
import { type MovementLine, movementLines } from './score-movement.js';
import type { ExportSource, ReportChange, ReportLogs, ReportPage, ReportPillar } from './types.js';

/**
 * Page URLs become real hyperlinks up to this many rows. exceljs keeps every hyperlink of a sheet (and
 * its relationship XML, which the zip only takes after the sheet) in memory until the sheet ends, about
 * 0.3 KB each; past the limit URLs stay plain text. Issue URLs are never links (500k rows would cost
 * ~150 MB).
 */
export const XLSX_HYPERLINK_LIMIT = 50_000;
/** Rows per sheet, header included (Excel's hard limit). */
export const EXCEL_MAX_ROWS = 1_048_576;

const MAX_CELL_TEXT = 32_767;
/** Excel refuses hyperlink targets longer than this. */
const MAX_HYPERLINK_LENGTH = 2_079;
/** Bytes a sheet may have written ahead of the zip before rendering waits. */
const BACKLOG_LIMIT = 1 << 20;
/** Rows between two backlog checks. */
const CHECK_EVERY = 200;
const DATE_FORMAT = 'yyyy-mm-dd hh:mm:ss';
const PERCENT_FORMAT = '0.0%';
const HEADER_STYLE: Partial<ExcelJS.Style> = {
  font: { bold: true, name: 'Calibri', size: 11 },
  fill: { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFEFF1F3' } },
};

type Workbook = ExcelJS.stream.xlsx.WorkbookWriter;
type Value = ExcelJS.CellValue | undefined;

/**
 * One column of a sheet: its header, its width, and for a table sheet the cell of each row.
 * `format`: `date` and `percent` format the cells holding a date or a number; `numFmt` is the
 * whole column's number format.
 */
interface Column<T> {
  header: string;
  width: number;
  value?: (row: T) => Value;
  format?: 'date' | 'percent';
  numFmt?: string;
}

/**
 * What every sheet is written from: its name and columns, and for a table sheet its rows (one
 * per item, up to Excel's limit, then `truncatedNote`). The report-like sheets (summary,
 * PageSpeed, logs) add their blocks of rows themselves.
 */
interface SheetSpec<T = never> {
  name: string;
  columns: Column<T>[];
}

interface TableSpec<T> extends SheetSpec<T> {
  rows: AsyncIterable<T> | Iterable<T>;
  /** The last row when the rows did not fit; without it, the rows are few by construction. */
  truncatedNote?: string;
}

function text(value: string | null | undefined): Value {
  if (value === null || value === undefined || value === '') return undefined;
  return value.length > MAX_CELL_TEXT ? value.slice(0, MAX_CELL_TEXT) : value;
}

function num(value: number | null | undefined): Value {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function date(iso: string | null | undefined): Value {
  return parseDate(iso) ?? undefined;
}

function canLink(url: string): boolean {
  return url.length <= MAX_HYPERLINK_LENGTH && /^https?:\/\//i.test(url);
}

/**
 * One worksheet written row by row. Rows are committed as soon as they are added, so exceljs keeps
 * none of them. exceljs does not honour backpressure between a sheet and the zip: every CHECK_EVERY
 * rows this waits until the zip (and so the consumer of the output) has caught up.
 */
class SheetWriter<T = never> {
  private rowNumber = 0;
  private sinceCheck = 0;
  readonly ws: ExcelJS.Worksheet;
  readonly columns: Column<T>[];

  constructor(
    wb: Workbook,
    spec: SheetSpec<T>,
    private readonly out: PassThrough,
  ) {
    this.columns = spec.columns;
    this.ws = wb.addWorksheet(spec.name, { views: [{ state: 'frozen', xSplit: 0, ySplit: 1, topLeftCell: 'A2', activeCell: 'A2' }] });
    this.ws.columns = spec.columns.map((c) => (c.numFmt ? { width: c.width, style: { numFmt: c.numFmt } } : { width: c.width }));
    this.header(spec.columns.map((c) => c.header));
  }

  get rows(): number {
    return this.rowNumber;
  }

  /** Room left before Excel's row limit, keeping one row for the truncation note. */
  get full(): boolean {
    return this.rowNumber >= EXCEL_MAX_ROWS - 1;
  }

  header(values: string[]): void {
    const row = this.ws.addRow(values);
    values.forEach((_, i) => {
      row.getCell(i + 1).style = HEADER_STYLE;
    });
    row.commit();
    this.rowNumber += 1;
  }

  async add(values: Value[], dateColumns: number[] = [], percentColumns: number[] = []): Promise<void> {
    const row = this.ws.addRow(values);
    for (const c of dateColumns) if (values[c] instanceof Date) row.getCell(c + 1).numFmt = DATE_FORMAT;
    for (const c of percentColumns) if (typeof values[c] === 'number') row.getCell(c + 1).numFmt = PERCENT_FORMAT;
    row.commit();
    this.rowNumber += 1;
    if (++this.sinceCheck >= CHECK_EVERY) {
      this.sinceCheck = 0;
      await this.relieve();
    }
  }

  /** An empty row, used to separate blocks on the report-like sheets. */
  skip(): void {
    this.ws.addRow([]).commit();
    this.rowNumber += 1;
  }

  /**
   * A row per item (its cells from the columns' `value`), up to Excel's row limit (a last row then
   * says the sheet was cut), then the filter over the rows written and the sheet committed.
   */
  async table(rows: AsyncIterable<T> | Iterable<T>, truncatedNote?: string): Promise<void> {
    const cells = this.columns.map((c) => c.value ?? (() => undefined));
    const formatted = (format: Column<T>['format']) => this.columns.flatMap((c, i) => (c.format === format ? [i] : []));
    const [dates, percents] = [formatted('date'), formatted('percent')];
    let truncated = false;
    for await (const item of rows) {
      if (this.full) {
        truncated = true;
        break;
      }
      await this.add(
        cells.map((cell) => cell(item)),
        dates,
        percents,
      );
    }
    const lastRow = this.rows;
    if (truncated) await this.add([truncatedNote]);
    this.finish({ lastRow, columns: this.columns.length });
  }

  finish(filter: { lastRow: number; columns: number }): void {
    if (filter.lastRow >= 1) {
      this.ws.autoFilter = { from: { row: 1, column: 1 }, to: { row: filter.lastRow, column: filter.columns } };
    }
    this.ws.commit();
  }

  private async relieve(): Promise<void> {
    for (;;) {
      if (this.out.destroyed) throw abortError(undefined, 'report reader gone');
      const zip = zipSinkOf(this.ws);
      if (!zip) {
        // Internals not as expected (another exceljs version): at least let the zip work.
        await tick();
        return;
      }
      if (zip.backlog() <= BACKLOG_LIMIT) return;
      await drainOrTimeout(zip.sink, 100);
    }
  }
}

/** A table sheet: its header, a row per item, its filter. */
async function writeTable<T>(wb: Workbook, out: PassThrough, spec: TableSpec<T>): Promise<void> {
  await new SheetWriter(wb, spec, out).table(spec.rows, spec.truncatedNote);
}

/**
 * exceljs writes a sheet into a StreamBuf piped (without backpressure) into the zip entry's input, a
 * readable-stream v2 PassThrough (no `writableLength` getter, hence the fallback to its state). Its
 * buffered length is the sheet's backlog.
 */
function zipSinkOf(ws: ExcelJS.Worksheet): { sink: EventEmitter; backlog: () => number } | null {
  const stream = (ws as unknown as { stream?: { pipes?: unknown[] } }).stream;
  const sink = stream?.pipes?.[0] as (EventEmitter & { writableLength?: number; _writableState?: { length?: number } }) | undefined;
  if (!sink || typeof sink.on !== 'function') return null;
  const backlog = () => sink.writableLength ?? sink._writableState?.length;
  return typeof backlog() === 'number' ? { sink, backlog: () => backlog() ?? 0 } : null;
}

async function drainOrTimeout(sink: EventEmitter, ms: number): Promise<void> {
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), ms);
  try {
    await once(sink, 'drain', { signal: ac.signal });
  } catch {
    // Timed out or errored: the caller re-checks the backlog and the output.
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Renders the Excel workbook with exceljs' streaming writer. Sheets, in order: Summary (key figures and
 * issue groups), Issues (every occurrence), Pages (every page), PageSpeed, Changes (every change since
 * the previous comparable crawl, when the source has them), then, when the project has access logs,
 * Logs (the log section's figures), Log URLs (every URL statistic) and Log days. Each sheet is committed before
 * the next one opens, because the zip takes entries one at a time and a second open sheet would buffer
 * whole in memory. Sheet names and headings follow `language`.
 */
export function renderXlsx(source: ExportSource): Readable {
  const out = new PassThrough();
  writeXlsx(source, out).catch((err: unknown) => {
    // The reader went away (abortError): nothing to report to it.
    if (!isAbortError(err)) out.destroy(err instanceof Error ? err : new Error(String(err)));
  });
  return out;
}

async function writeXlsx(source: ExportSource, out: PassThrough): Promise<void> {
  // Loaded on first use (which also lets the caller attach its listeners first): exceljs and its
  // dependency tree weigh about 30 MB of memory that a server which never exports should not carry.
  const { default: Excel } = await import('exceljs');
  const t = exportStrings(source.language);
  const labels = reportLabels(source.language, source.labels);
  const wb = new Excel.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  wb.creator = t.generatedBy;
  wb.title = `${t.reportTitle} – ${source.project.name}`;
  const finished = parseDate(source.crawl.finished_at);
  if (finished) wb.created = finished;

  await writeSummary(wb, source, t, labels, out);
  await writeIssues(wb, source, t, labels, out);
  await writePages(wb, source, t, labels, out);
  await writePageSpeed(wb, source.pagespeed, t, labels, out);
  // Last, so the sheets before keep the positions scripts read them at.
  if (source.changes) await writeChanges(wb, source, t, labels, out);
  if (source.logs) {
    await writeLogs(wb, source.logs, source.scorecard, t, labels, out);
    await writeLogUrls(wb, source.logs, t, labels, out);
    await writeLogDays(wb, source.logs, t, labels, out);
  }
  // The scorecard's inputs, last so every sheet before keeps its position.
  if (source.scorecard?.some((p) => p.score !== null)) await writeScorecard(wb, source.scorecard, t, labels, out);

  if (out.destroyed) throw abortError(undefined, 'report reader gone');
  // commit() resolves when the output finishes; a consumer that goes away would leave it pending.
  await new Promise<void>((resolve, reject) => {
    const onClose = () => reject(abortError(undefined, 'report reader gone'));
    out.once('close', onClose);
    wb.commit().then(
      () => {
        out.off('close', onClose);
        resolve();
      },
      (err: unknown) => {
        out.off('close', onClose);
        reject(err);
      },
    );
  });
}

async function writeSummary(wb: Workbook, source: ExportSource, t: ExportStrings, labels: ReportLabels, out: PassThrough): Promise<void> {
  const sheet = new SheetWriter(
    wb,
    {
      name: t.sheets.summary,
      columns: [
        { header: t.field, width: 36 },
        { header: t.value, width: 44 },
        { header: t.severity, width: 16 },
        { header: t.category, width: 24 },
        { header: t.occurrences, width: 14 },
      ],
    },
    out,
  );
  const { project, crawl, summary } = source;
  const ps = source.pagespeed;
  const pairs: [string, Value][] = [
    [t.project, text(project.name)],
    [t.url, canLink(project.url) ? { text: project.url, hyperlink: project.url } : text(project.url)],
    [t.domain, text(project.domain)],
    [t.crawlId, text(crawl.id)],
    [t.crawlStatus, text(labels.crawlStatus(crawl.status))],
    [t.started, date(crawl.started_at)],
    [t.finished, date(crawl.finished_at)],
    [t.healthScore, num(source.healthScore) ?? t.notMeasured],
    [t.pagesCrawled, crawl.pages.crawled],
    [t.pagesDiscovered, crawl.pages.discovered],
    [t.pageBudget, crawl.pages.budget],
    [t.severities.error, crawl.issue_counts.error],
    [t.severities.warning, crawl.issue_counts.warning],
    [t.severities.info, crawl.issue_counts.info],
    [t.protectionOccurrences, summary.protection_occurrences],
    [t.pagespeedCombined, num(ps?.combined) ?? t.notMeasured],
    // Export branding (docs/decisions/export-branding.md): the workbook prints the agency's name.
    ...(source.branding?.agencyName ? ([[t.preparedBy, text(source.branding.agencyName)]] as [string, Value][]) : []),
  ];
  for (const [key, value] of pairs) await sheet.add([key, value], [1]);
  const keyFiguresEnd = sheet.rows;

  // Issue groups below the key figures, in the fix list's order (as the API and the PDF), with the
  // pages each fires on and the score points its fix would win.
  const groups = rankGroups(summary.groups, source.fixes);
  if (groups.length > 0) {
    sheet.skip();
    const fixes = new Map((source.fixes ?? []).map((f) => [f.name, f]));
    // The score points are of the check's pillar, named beside them.
    sheet.header([t.issue, t.label, t.severity, t.category, t.occurrences, ...(source.fixes ? [t.pagesAffected, t.scope, t.scorePoints, t.changes.pillar] : [])]);
    const scoredPages = new Map<string, number | null>((source.scorecard ?? []).map((p) => [p.key, p.computation.scored_pages]));
    for (const g of groups) {
      const fix = fixes.get(g.name);
      // A site-wide check counts every scored page, and says "whole site", not the one URL it was found on.
      const pages = fix ? pagesAffectedCells(fix, scoredPages.get(fix.pillar), t.inputs.wholeSite) : ['', ''];
      const costs = source.fixes ? [...pages, fix?.score_points ?? '', fix ? labels.pillar(fix.pillar) : ''] : [];
      await sheet.add([g.name, labels.check(g.name), labels.severity(g.severity), labels.category(g.category), g.occurrences, ...costs]);
    }
  }
  // Then the template decisions (the issue summary's `templates`): one row per decision.
  const decisions = groups.flatMap((g) => (g.templates ?? []).map((p) => ({ g, p })));
  if (decisions.length > 0) {
    sheet.skip();
    await sheet.add([t.templateDecisions, t.templateNote]);
    sheet.header([t.issue, t.label, t.category, t.pagesAffected, t.share, t.details, t.examples]);
    for (const { g, p } of decisions) {
      await sheet.add(
        [
          g.name,
          `${labels.check(g.name)} (${t.templateScope(p.section)})`,
          labels.category(g.category),
          p.pages,
          p.share,
          text(issueDetailsIn(g.name, p.details, source.language)),
          text(p.examples.join('\n')),
        ],
        [],
        [4],
      );
    }
  }
  sheet.finish({ lastRow: keyFiguresEnd, columns: 2 });
}

async function writeIssues(wb: Workbook, source: ExportSource, t: ExportStrings, labels: ReportLabels, out: PassThrough): Promise<void> {
  // Labels repeat for every occurrence: the check labels are cached by the table, the
  // categories and severities are few.
  const categories = new Map<string, string>();
  const categoryOf = (key: string) => {
    let label = categories.get(key);
    if (label === undefined) {
      label = labels.category(key);
      if (categories.size < 1_000) categories.set(key, label);
    }
    return label;
  };

  await writeTable<IssueOccurrence>(wb, out, {
    name: t.sheets.issues,
    columns: [
      { header: t.severity, width: 14, value: (issue) => labels.severity(issue.severity) },
      { header: t.category, width: 20, value: (issue) => text(categoryOf(issue.category)) },
      { header: t.issue, width: 30, value: (issue) => text(issue.name) },
      { header: t.label, width: 40, value: (issue) => text(labels.check(issue.name)) },
      { header: t.url, width: 60, value: (issue) => text(issue.url) },
      { header: t.details, width: 60, value: (issue) => text(issueDetailsIn(issue.name, issue.details, source.language)) },
    ],
    rows: source.issues(),
    truncatedNote: t.truncatedAtExcelLimit,
  });
}

async function writePages(wb: Workbook, source: ExportSource, t: ExportStrings, labels: ReportLabels, out: PassThrough): Promise<void> {
  let links = 0;
  await writeTable<ReportPage>(wb, out, {
    name: t.sheets.pages,
    columns: [
      {
        header: t.url,
        width: 60,
        value: (page) => {
          const link = links < XLSX_HYPERLINK_LIMIT && canLink(page.url);
          if (link) links += 1;
          return link ? { text: page.url, hyperlink: page.url } : text(page.url);
        },
      },
      { header: t.status, width: 10, value: (page) => num(page.status_code) },
      { header: t.errorType, width: 16, value: (page) => (page.error_type ? labels.pageError(page.error_type) : undefined) },
      { header: t.contentType, width: 24, value: (page) => text(page.content_type) },
      { header: t.internal, width: 10, value: (page) => page.is_internal },
      { header: t.depth, width: 10, value: (page) => num(page.depth) },
      { header: t.title, width: 50, value: (page) => text(page.title) },
      { header: t.metaDescription, width: 60, value: (page) => text(page.meta_description) },
      { header: t.h1, width: 40, value: (page) => text(page.h1) },
      { header: t.words, width: 10, value: (page) => num(page.word_count) },
      { header: t.canonical, width: 50, value: (page) => text(page.canonical_url) },
      { header: t.responseTime, width: 14, value: (page) => num(page.response_time_ms) },
      { header: t.sizeBytes, width: 14, value: (page) => num(page.size_bytes) },
      { header: t.internalLinks, width: 12, value: (page) => num(page.internal_links) },
      { header: t.externalLinks, width: 12, value: (page) => num(page.external_links) },
      { header: t.images, width: 10, value: (page) => num(page.images) },
      { header: t.imagesWithoutAlt, width: 12, value: (page) => num(page.images_without_alt) },
      // Last, so the columns before keep the positions scripts read them at.
      { header: t.redirectTarget, width: 50, value: (page) => text(page.redirect_url ?? null) },
    ],
    rows: source.pages(),
    truncatedNote: t.truncatedAtExcelLimit,
  });
}

async function writePageSpeed(wb: Workbook, ps: PageSpeedResult | null, t: ExportStrings, labels: ReportLabels, out: PassThrough): Promise<void> {
  const sheet = new SheetWriter(
    wb,
    {
      name: t.sheets.pagespeed,
      columns: [
        { header: t.strategy, width: 40 },
        { header: t.score, width: 16 },
        { header: t.pagesMeasured, width: 16 },
        { header: t.pagesFailed, width: 16 },
        { header: t.note, width: 40 },
      ],
    },
    out,
  );
  // A strategy that succeeded nowhere is null, never 0: leave the score empty and say so.
  const strategy = (name: string, avg: PageSpeedResult['mobile'] | undefined) =>
    sheet.add(avg ? [name, avg.score, avg.pages_measured, avg.pages_failed] : [name, undefined, undefined, undefined, t.notMeasured]);
  await strategy(t.mobile, ps?.mobile);
  await strategy(t.desktop, ps?.desktop);
  await sheet.add(ps && ps.combined !== null ? [t.combined, ps.combined] : [t.combined, undefined, undefined, undefined, t.notMeasured]);
  const strategiesEnd = sheet.rows;

  sheet.skip();
  if (!ps) {
    await sheet.add([t.pagespeedStatus, t.notMeasured]);
  } else {
    await sheet.add([t.pagespeedStatus, labels.pagespeedStatus(ps.status)]);
    await sheet.add([t.provider, ps.provider ? labels.provider(ps.provider) : undefined]);
    await sheet.add([t.measuredAt, date(ps.measured_at)], [1]);
    await sheet.add([t.failed, ps.failed]);
    if (ps.skip_reason) await sheet.add([t.note, labels.pagespeedSkip(ps.skip_reason)]);
    if (ps.sample.length > 0) {
      sheet.skip();
      sheet.header([t.url, t.role, t.mobile, t.desktop, t.error]);
      for (const s of ps.sample) {
        await sheet.add([
          canLink(s.url) ? { text: s.url, hyperlink: s.url } : text(s.url),
          labels.sampleRole(s.role),
          num(s.mobile),
          num(s.desktop),
          text(s.error),
        ]);
      }
    }
  }
  sheet.finish({ lastRow: strategiesEnd, columns: 5 });
}

/**
 * A row of the Changes sheet: a change, or a line of why a pillar's score moved, which the sheet
 * gives first (`movementRows`), in the columns the changes use and a last one, the points.
 */
type ChangesRow = ReportChange | { movement: MovementLine & { pillar: string; severity: Severity | null } };

/**
 * Why each pillar's score moved (docs/decisions/crawl-changes.md), every check's line (the PDF
 * prints the largest), then the pillar's total: the summary's attribution, the PDF's numbers.
 */
function movementRows(summary: CrawlChangesSummary, t: ExportStrings, labels: ReportLabels, int: (n: number) => string, fixed: (n: number, digits: number) => string): ChangesRow[] {
  const m = t.changes.movement;
  const rows: ChangesRow[] = [];
  for (const p of summary.health) {
    if (p.delta === null || !p.attribution) continue;
    const a = p.attribution;
    const pillar = labels.pillar(p.key);
    const severities = new Map(a.checks.map((c) => [c.name, c.severity]));
    for (const line of movementLines(p, t, labels, int)) rows.push({ movement: { ...line, pillar, severity: line.name ? (severities.get(line.name) ?? null) : null } });
    const total = m.pillar(pillar, int(p.previous_score!), int(p.score!), fixed(a.previous_score_exact, 1), fixed(a.score_exact, 1));
    rows.push({ movement: { name: null, label: m.total, what: total, points: p.delta, pillar, severity: null } });
  }
  return rows;
}

async function writeChanges(wb: Workbook, source: ExportSource, t: ExportStrings, labels: ReportLabels, out: PassThrough): Promise<void> {
  const c = t.changes;
  const f = formatters(t);
  // A page without a status says why (blocked by robots.txt, a timeout), as the Pages sheet does.
  const status = (code: number | null, error: string | null | undefined) => (code === null && error ? labels.pageError(error) : num(code));
  const change = (row: ChangesRow) => ('movement' in row ? null : row);
  const spec: SheetSpec<ChangesRow> = {
    name: t.sheets.changes,
    columns: [
      { header: c.kind, width: 22, value: (row) => ('movement' in row ? `${c.movement.heading} – ${row.movement.pillar}` : c.kinds[row.kind]) },
      { header: t.issue, width: 30, value: (row) => text('movement' in row ? row.movement.name : row.name) },
      {
        header: t.label,
        width: 40,
        value: (row) => ('movement' in row ? text(row.movement.label) : row.name ? text(labels.check(row.name)) : undefined),
      },
      {
        header: t.severity,
        width: 14,
        value: (row) => {
          const severity = 'movement' in row ? row.movement.severity : row.severity;
          return severity ? labels.severity(severity) : undefined;
        },
      },
      { header: t.url, width: 60, value: (row) => text(change(row)?.url) },
      {
        header: t.details,
        width: 60,
        value: (row) => {
          if ('movement' in row) return text(row.movement.what || null);
          // A redirect change says where the URL sent its readers before and where now.
          if (row.kind === 'redirect_changed') return text(c.redirectTargets(row.previous_redirect_url ?? null, row.redirect_url ?? null));
          return row.details === null ? undefined : text(issueDetailsIn(row.name ?? '', row.details, source.language));
        },
      },
      { header: t.status, width: 10, value: (row) => ('movement' in row ? undefined : status(row.status_code, row.error_type)) },
      { header: c.previousStatus, width: 14, value: (row) => ('movement' in row ? undefined : status(row.previous_status_code, row.previous_error_type)) },
      { header: c.movement.points, width: 10, numFmt: '+0.0;-0.0;0.0', value: (row) => ('movement' in row ? row.movement.points : undefined) },
    ],
  };
  const { summary } = source.changes!;
  if (summary.basis !== 'compared') {
    const sheet = new SheetWriter(wb, spec, out);
    await sheet.add([summary.basis === 'no_previous_crawl' ? c.noPrevious : summary.basis === 'blocked' ? c.blocked : c.notCompared]);
    sheet.finish({ lastRow: sheet.rows, columns: spec.columns.length });
    return;
  }
  const movement = movementRows(summary, t, labels, f.int, f.fixed);
  const items = source.changes!.items();
  async function* rows(): AsyncIterable<ChangesRow> {
    yield* movement;
    yield* items;
  }
  await writeTable(wb, out, { ...spec, rows: rows(), truncatedNote: t.truncatedAtExcelLimit });
}

/** The log section's figures (docs/decisions/exports.md#the-log-section), blocks as in the PDF. */
async function writeLogs(wb: Workbook, logs: ReportLogs, scorecard: ReportPillar[] | undefined, t: ExportStrings, labels: ReportLabels, out: PassThrough): Promise<void> {
  const l = t.logs;
  const sheet = new SheetWriter(
    wb,
    {
      name: t.sheets.logs,
      columns: [
        { header: t.field, width: 48 },
        { header: t.value, width: 40 },
        { header: t.value, width: 24 },
        { header: t.value, width: 16 },
        { header: t.value, width: 22 },
      ],
    },
    out,
  );
  const { insights } = logs;
  const { int } = formatters(t);
  await sheet.add([l.covered, date(insights.period?.from), date(insights.period?.to)], [1, 2]);
  await sheet.add([l.imports, logs.imports]);
  await sheet.add([l.botHits, insights.hits.bots]);
  await sheet.add([l.unverifiedClaims, insights.hits.unverified_claims]);
  await sheet.add([l.humanHits, insights.hits.humans]);
  if (!insights.crawl_id) await sheet.add([t.note, l.noCrawl]);
  const pillar = scorecard?.find((p) => p.key === 'logs');
  if (pillar) {
    await sheet.add([labels.pillar('logs'), num(pillar.score) ?? labels.pillarStatus(pillar.status), pillar.blocked_reason ? labels.blockedReason(pillar.blocked_reason) : undefined]);
    for (const a of pillar.axes) await sheet.add([labels.axis(a.key), num(a.score) ?? t.notMeasured]);
  }
  await sheet.add([labels.botFamily('ai_search'), insights.ai.search_hits]);
  await sheet.add([labels.botFamily('ai_training'), insights.ai.training_hits]);
  await sheet.add([l.aiUrls, insights.ai.urls]);
  await sheet.add([l.aiLastVisit, date(insights.ai.last_visit)], [1]);
  const figuresEnd = sheet.rows;

  sheet.skip();
  sheet.header([l.family, l.verification, l.hits, l.urls, l.lastVisit]);
  // An unverified claim has hits only (counted per day, no path): its URL count is left empty, not 0.
  for (const x of insights.families) await sheet.add([labels.botFamily(x.family), labels.verification(x.verification), x.hits, x.verification === 'unverified' ? undefined : x.urls, date(x.last_visit)], [4]);

  if (insights.budget.length > 0) {
    sheet.skip();
    sheet.header([l.spentOn, l.hits, l.share]);
    for (const b of insights.budget) await sheet.add([labels.budgetBucket(b.bucket), b.hits, b.share], [], [2]);
  }

  if (insights.crawl_id) {
    sheet.skip();
    sheet.header([l.finding, t.url, l.hits, l.lastVisit]);
    for (const [kind, heading] of [
      ['not_in_crawl', l.notInCrawl],
      ['indexable_not_visited', l.notVisited],
    ] as const) {
      const finding = logs.findings[kind];
      const name = heading(int(finding.count));
      if (finding.count === 0) await sheet.add([name, l.none]);
      for (const x of finding.examples) await sheet.add([name, text(x.path), x.bot_hits, date(x.last_visit)], [3]);
      if (finding.count > finding.examples.length) await sheet.add([name, t.moreOccurrences(int(finding.count - finding.examples.length))]);
    }
  }

  sheet.skip();
  sheet.header([t.url, l.hits, l.families, l.statusCodes, l.lastVisit]);
  for (const u of logs.topUrls) {
    await sheet.add([text(u.path), u.hits, u.families.map((x) => labels.botFamily(x)).join(', '), statusList(u.status_codes, int), date(u.last_visit)], [4]);
  }
  sheet.finish({ lastRow: figuresEnd, columns: 2 });
}

/** Every URL statistic (path × family × verification), streamed from the store. */
async function writeLogUrls(wb: Workbook, logs: ReportLogs, t: ExportStrings, labels: ReportLabels, out: PassThrough): Promise<void> {
  const l = t.logs;
  await writeTable<LogUrlStat>(wb, out, {
    name: t.sheets.logUrls,
    columns: [
      { header: t.url, width: 60, value: (u) => text(u.path) },
      { header: l.family, width: 30, value: (u) => labels.botFamily(u.family) },
      { header: l.verification, width: 24, value: (u) => labels.verification(u.verification) },
      { header: l.hits, width: 12, value: (u) => u.hits },
      { header: l.bytes, width: 14, value: (u) => u.bytes },
      { header: l.statusCodes, width: 30, value: (u) => statusList(u.status_codes, (n) => String(n)) },
      { header: l.lastVisit, width: 20, value: (u) => date(u.last_visit), format: 'date' },
    ],
    rows: logs.urls(),
    truncatedNote: t.truncatedAtExcelLimit,
  });
}

/** Hits per day, family, verification and status class (humans as counts), most recent day first. */
async function writeLogDays(wb: Workbook, logs: ReportLogs, t: ExportStrings, labels: ReportLabels, out: PassThrough): Promise<void> {
  const l = t.logs;
  await writeTable<LogDayStat>(wb, out, {
    name: t.sheets.logDays,
    columns: [
      { header: l.day, width: 14, value: (d) => d.date },
      { header: l.family, width: 30, value: (d) => labels.botFamily(d.family) },
      { header: l.verification, width: 24, value: (d) => labels.verification(d.verification) },
      { header: l.statusClass, width: 16, value: (d) => labels.statusClass(d.status_class) },
      { header: l.hits, width: 12, value: (d) => d.hits },
    ],
    rows: logs.days(),
  });
}

/** One row of the scorecard sheet: a pillar, one of its axes, and one check of it (none when the axis has no check). */
interface ScorecardRow {
  pillar: ReportPillar;
  axis: ReportPillar['axes'][number];
  check?: ReportPillar['axes'][number]['checks'][number];
}

function* scorecardRows(pillars: ReportPillar[]): Iterable<ScorecardRow> {
  for (const pillar of pillars) {
    if (pillar.score === null) continue;
    for (const axis of pillar.axes) {
      if (axis.checks.length === 0) yield { pillar, axis };
      for (const check of axis.checks) yield { pillar, axis, check };
    }
  }
}

/**
 * The scorecard's inputs (docs/health-score.md, "Recomputing a score"): one row per check behind
 * an axis (an axis without a check has one row of its own), with the pillar, its score before
 * rounding and its scored pages (URLs and HTML pages), the axis's score, weight and factor, and
 * the check's pages, the pages it judges, its share, weight and cost, so a reader can recompute each score in the workbook: a product
 * pillar is 100 × the product of its axes' factors, an axis's factor exp(−Σ cost).
 */
async function writeScorecard(wb: Workbook, pillars: ReportPillar[], t: ExportStrings, labels: ReportLabels, out: PassThrough): Promise<void> {
  const i = t.inputs;
  await writeTable<ScorecardRow>(wb, out, {
    name: t.sheets.scorecard,
    columns: [
      { header: t.changes.pillar, width: 24, value: (r) => labels.pillar(r.pillar.key) },
      { header: t.score, width: 8, value: (r) => r.pillar.score },
      { header: i.exact, width: 12, numFmt: '0.00', value: (r) => r.pillar.computation.exact ?? undefined },
      { header: i.method, width: 22, value: (r) => i.methods[r.pillar.computation.method] },
      { header: i.scoredPagesHeader, width: 12, value: (r) => r.pillar.computation.scored_pages ?? undefined },
      { header: i.htmlPagesHeader, width: 12, value: (r) => r.pillar.computation.html_pages ?? undefined },
      { header: i.axis, width: 34, value: (r) => labels.axis(r.axis.key) },
      { header: i.axisScore, width: 10, value: (r) => r.axis.score ?? undefined },
      { header: i.weight, width: 8, numFmt: '0.00', value: (r) => r.axis.weight },
      { header: i.factor, width: 10, numFmt: '0.0000', value: (r) => r.axis.factor ?? undefined },
      { header: t.issue, width: 28, value: (r) => (r.check ? text(r.check.name) : undefined) },
      { header: t.label, width: 40, value: (r) => (r.check ? text(labels.check(r.check.name)) : undefined) },
      { header: t.severity, width: 14, value: (r) => (r.check ? labels.severity(r.check.severity) : undefined) },
      { header: t.pagesAffected, width: 12, value: (r) => (r.check ? pagesAffectedCells(r.check, r.pillar.computation.scored_pages, i.wholeSite)[0] : undefined) },
      { header: t.scope, width: 12, value: (r) => (r.check ? pagesAffectedCells(r.check, r.pillar.computation.scored_pages, i.wholeSite)[1] || undefined : undefined) },
      { header: i.judgedPagesHeader, width: 12, value: (r) => r.check?.judged_pages },
      { header: i.share, width: 10, value: (r) => r.check?.share, format: 'percent' },
      { header: i.checkWeight, width: 10, numFmt: '0.00', value: (r) => r.check?.weight },
      { header: i.cost, width: 10, numFmt: '0.0000', value: (r) => r.check?.cost },
    ],
    rows: scorecardRows(pillars),
  });
}
