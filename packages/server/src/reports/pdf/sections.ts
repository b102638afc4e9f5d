/**
 * The body sections of the PDF: health summary, issues by severity and category, top issues,
 * PageSpeed, and the page list (read from the page stream, never held).
 */
import type { PageSpeedResult } from '@siteaudit/schema';
import { issueDetailsIn } from '../issue-details.js';
import { pagesAffected } from '../pages-affected.js';
import type { ReportPage } from '../types.js';
import { fixFor, whyFor } from '../fixes.js';
import { SEVERITIES, SEVERITY_RANK } from '../i18n.js';
import { rankGroups, type TopIssue } from '../top-issues.js';
import { categoryMatrix, total } from './charts.js';
import type { PdfContext } from './context.js';
import { drawGauge } from './cover.js';
import { type Cell, INK, LINK, MUTED, SEVERITY_COLOURS, type Table, webLink } from './layout.js';

/** The PDF lists the first pages only; the XLSX export carries all of them. */
export const PDF_PAGE_ROW_LIMIT = 500;

export function drawHealthSummary(ctx: PdfContext): void {
  const { layout, source, t, f } = ctx;
  layout.heading(t.healthSummary);

  const score = source.healthScore !== null && Number.isFinite(source.healthScore) ? Math.round(source.healthScore) : null;
  const top = layout.y;
  drawGauge(ctx, layout.left + 45, top + 45, 40, score);
  layout.draw(t.healthScore, layout.left, top + 96, { size: 9, color: MUTED }, { width: 90, align: 'center' });
  layout.y = top + 8;
  const opts = { x: layout.left + 130, keyWidth: 150 };
  layout.keyValue(t.pagesCrawled, f.int(source.crawl.pages.crawled), opts);
  layout.keyValue(t.pagesDiscovered, f.int(source.crawl.pages.discovered), opts);
  layout.keyValue(t.pageBudget, f.int(source.crawl.pages.budget), opts);
  layout.keyValue(t.finished, f.dateTime(source.crawl.finished_at), opts);
  layout.y = Math.max(layout.y, top + 112) + 8;

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

export function drawIssuesByCategory(ctx: PdfContext): void {
  const { layout, source, t, f, labels } = ctx;
  layout.heading(t.byCategory);
  const groups = source.summary.groups.filter((g) => g.occurrences > 0);
  if (groups.length === 0) {
    layout.paragraph(t.noIssues, { size: 10, color: MUTED });
    return;
  }

  // Category × severity matrix of occurrences.
  const w = layout.width;
  const matrixTable = layout.table([
    { header: t.category, width: w - 4 * 80 },
    ...SEVERITIES.map((s) => ({ header: t.severities[s], width: 80, align: 'right' as const })),
    { header: t.total, width: 80, align: 'right' },
  ]);
  for (const [category, counts] of categoryMatrix(groups)) {
    matrixTable.row([
      { text: labels.category(category) },
      ...SEVERITIES.map((s) => ({ text: counts[s] ? f.int(counts[s]) : '', color: SEVERITY_COLOURS[s] })),
      { text: f.int(total(counts)), bold: true },
    ]);
  }
  layout.y += 10;

  // Then every issue group, by severity, largest first; an unknown severity comes last.
  const known = SEVERITIES.map((severity) => ({ title: t.severities[severity], groups: groups.filter((g) => g.severity === severity) }));
  const others = groups.filter((g) => SEVERITY_RANK[g.severity] === undefined);
  for (const { title, groups: ofSeverity } of [...known, { title: t.issue, groups: others }]) {
    if (ofSeverity.length === 0) continue;
    layout.heading(`${title} (${f.int(ofSeverity.length)})`, 2);
    const table = layout.table([
      { header: t.issue, width: w - 150 - 80 },
      { header: t.category, width: 150 },
      { header: t.occurrences, width: 80, align: 'right' },
    ]);
    for (const g of rankGroups(ofSeverity, ctx.source.fixes)) {
      table.row([{ text: labels.check(g.name) }, { text: labels.category(g.category), color: MUTED }, { text: f.int(g.occurrences) }]);
    }
    layout.y += 6;
  }
}

/**
 * The template decisions of the issue summary (`templates` of each group): one line per decision
 * (check, site or section, pages and share, the shared details), its example pages beneath.
 * Nothing when no check is a template decision.
 */
export function drawTemplateDecisions(ctx: PdfContext): void {
  const { layout, source, t, f, labels, language } = ctx;
  const rows = rankGroups(source.summary.groups, source.fixes).flatMap((g) => (g.templates ?? []).map((p) => ({ g, p })));
  if (rows.length === 0) return;
  layout.heading(t.templateDecisions, 2);
  layout.paragraph(t.templateNote, { size: 8.5, color: MUTED });
  const colon = language === 'fr' ? ' : ' : ': ';
  const indent = 14;
  for (const { g, p } of rows) {
    layout.ensure(30 + p.examples.length * 10);
    layout.box(layout.left, layout.y + 1, 6, 10, SEVERITY_COLOURS[g.severity] ?? MUTED);
    const line = `${labels.check(g.name)} · ${t.templateScope(p.section)}${colon}${t.templatePages(f.int(p.pages), f.percent(p.share))}`;
    layout.paragraph(line, { size: 9.5, bold: true }, 1, { x: layout.left + indent, width: layout.width - indent });
    const details = issueDetailsIn(g.name, p.details, language);
    if (details) layout.paragraph(details, { size: 8, color: MUTED }, 1, { x: layout.left + indent, width: layout.width - indent });
    for (const url of p.examples) {
      layout.draw(url, layout.left + indent + 8, layout.y, { size: 8, color: LINK }, { width: layout.width - indent - 8, link: webLink(url) });
      layout.y += 10;
    }
    layout.y += 6;
  }
}

export function drawTopIssues(ctx: PdfContext, top: TopIssue[]): void {
  const { layout, t, f, labels, language } = ctx;
  layout.heading(t.topIssues);
  if (top.length === 0) {
    layout.paragraph(t.noIssues, { size: 10, color: MUTED });
    return;
  }
  const indent = 14;
  for (const issue of top) {
    const extra = issue.occurrences > issue.examples.length ? 1 : 0;
    layout.ensure(48 + (issue.examples.length + extra) * 12);
    layout.box(layout.left, layout.y + 1, 6, 10, SEVERITY_COLOURS[issue.severity] ?? MUTED);
    const count = f.int(issue.occurrences);
    // The label wraps beside the count rather than being cut; the line under it wraps too.
    layout.labelRow(labels.check(issue.name), count, { size: 11, bold: true }, { size: 11, bold: true }, { x: layout.left + indent });
    const colon = language === 'fr' ? ' : ' : ': ';
    // Pages affected and the points a fix would win: what orders the list (the API's fix list).
    // The points are of the check's pillar, named: the cover's score is the technical one.
    const fix = ctx.source.fixes?.find((x) => x.name === issue.name);
    const costs = fix ? ` · ${t.pagesAffected.toLowerCase()}${colon}${pagesAffected(fix, t.inputs.wholeSite, f.int)} · ${t.scorePoints.toLowerCase()}${colon}+${f.num(fix.score_points)} (${labels.pillar(fix.pillar)})` : '';
    layout.paragraph(`${labels.severity(issue.severity)} · ${labels.category(issue.category)} · ${t.occurrences.toLowerCase()}${colon}${count}${costs}`, { size: 8, color: MUTED }, 3, {
      x: layout.left + indent,
      width: layout.width - indent,
    });
    const why = whyFor(issue.name, language);
    if (why) layout.paragraph(`${t.whyItMatters}${colon}${why}`, { size: 8.5, color: MUTED }, 2, { x: layout.left + indent, width: layout.width - indent });
    const advice = `${t.whatToFix}${colon}${fixFor(issue.name, issue.category, language)}`;
    layout.paragraph(advice, { size: 8.5, color: INK }, 3, { x: layout.left + indent, width: layout.width - indent });
    // The URL on a line of its own (shortened if need be: it links to the page), its details
    // wrapped beneath it, whole: their useful part is often at the end.
    for (const example of issue.examples) {
      layout.ensure(24);
      layout.draw(example.url, layout.left + indent, layout.y, { size: 8, color: LINK }, { width: layout.width - indent, link: webLink(example.url) });
      layout.y += 10;
      const details = issueDetailsIn(issue.name, example.details, language);
      if (details) layout.paragraph(details, { size: 8, color: MUTED }, 3, { x: layout.left + indent + 8, width: layout.width - indent - 8 });
      else layout.y += 2;
    }
    if (extra) {
      layout.ensure(12);
      layout.draw(t.moreOccurrences(f.int(issue.occurrences - issue.examples.length)), layout.left + indent, layout.y, { size: 8, color: MUTED });
      layout.y += 12;
    }
    layout.y += 8;
  }
}

export function drawPageSpeed(ctx: PdfContext, ps: PageSpeedResult | null): void {
  const { layout, t, f, labels } = ctx;
  layout.y += 6;
  // Nothing measured (not asked, skipped, or every measurement refused): one line saying why,
  // not a table of "not measured" rows.
  const unmeasured = !ps || (ps.mobile === null && ps.desktop === null && ps.combined === null);
  if (!ps || unmeasured) {
    // One line, no heading: a section without data takes no room of its own.
    const why = !ps ? null : ps.failed ? t.allRefused : ps.skip_reason ? labels.pagespeedSkip(ps.skip_reason) : null;
    const colon = ctx.language === 'fr' ? ' : ' : ': ';
    layout.paragraph(`${t.pagespeed}${colon}${why ? `${t.pagespeedNotMeasured} ${why}` : t.pagespeedNotMeasured}`, { size: 10, color: MUTED });
    return;
  }
  // Room for the status lines and the strategy table: they stay together.
  layout.heading(t.pagespeed, 1, 150);
  layout.keyValue(t.pagespeedStatus, labels.pagespeedStatus(ps.status));
  if (ps.provider) layout.keyValue(t.provider, labels.provider(ps.provider));
  if (ps.measured_at) layout.keyValue(t.measuredAt, f.dateTime(ps.measured_at));
  if (ps.skip_reason) layout.keyValue(t.note, labels.pagespeedSkip(ps.skip_reason));
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
    const score = (v: number | null): Cell => (v === null ? { text: '—', color: MUTED } : { text: f.int(Math.round(v)) });
    for (const s of ps.sample) {
      sample.row([
        { text: s.url, link: webLink(s.url) },
        { text: labels.sampleRole(s.role) },
        score(s.mobile),
        score(s.desktop),
        { text: '' },
        { text: s.error ?? '', color: MUTED },
      ]);
    }
  }
}

export async function drawPages(ctx: PdfContext, aborted: () => boolean): Promise<void> {
  const { layout, source, t, f } = ctx;
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
      { header: t.url, width: w - 60 - 130 - 40 - 55 },
      { header: t.status, width: 60, align: 'right' },
      { header: t.title, width: 130 },
      { header: t.words, width: 40, align: 'right' },
      { header: t.responseTimeShort, width: 55, align: 'right' },
    ]);
    table.row(pageCells(ctx, page));
    shown += 1;
  }
  if (shown === 0) {
    layout.paragraph(t.noPages, { size: 10, color: MUTED });
  } else if (more && !noteShown) {
    layout.y += 6;
    layout.paragraph(t.pagesShown(f.int(shown), `${f.int(shown)}+`), { size: 9, color: MUTED });
  }
}

/** `target` as a path when it is on `from`'s origin, else whole. */
function shortTarget(from: string, target: string): string {
  try {
    const a = new URL(from);
    const b = new URL(target);
    return a.origin === b.origin ? `${b.pathname}${b.search}` : target;
  } catch {
    return target;
  }
}

function pageCells(ctx: PdfContext, page: ReportPage): Cell[] {
  const { f, labels, t } = ctx;
  const code = page.status_code;
  const status = code === null ? (page.error_type ? labels.pageError(page.error_type) : '—') : String(code);
  const statusColour = code === null || code >= 400 ? SEVERITY_COLOURS.error : code >= 300 ? SEVERITY_COLOURS.warning : INK;
  return [
    { text: page.url, link: webLink(page.url) },
    { text: status, color: statusColour },
    // A redirect has no title of its own: where it leads is what the reader needs, in words (the
    // standard PDF fonts have no arrow), as a path when it stays on the page's origin (the cell is one line).
    { text: page.redirect_url ? `${t.redirectTarget} ${shortTarget(page.url, page.redirect_url)}` : (page.title ?? '') },
    { text: page.word_count === null ? '' : f.int(page.word_count) },
    { text: page.response_time_ms === null ? '' : f.int(Math.round(page.response_time_ms)) },
  ];
}
