/**
 * Charts drawn with pdfkit's vector operations (no image): issues by category and severity as
 * stacked bars, and the health score over the project's recent comparable crawls as a line.
 */
import { SEVERITIES } from '../i18n.js';
import type { PdfContext } from './context.js';
import { INK, MUTED, RULE, SEVERITY_COLOURS, scoreColour } from './layout.js';

type Counts = Record<string, number>;

/** Occurrences per category and severity, largest category first. */
export function categoryMatrix(groups: PdfContext['source']['summary']['groups']): [string, Counts][] {
  const matrix = new Map<string, Counts>();
  for (const g of groups) {
    if (g.occurrences <= 0) continue;
    const row = matrix.get(g.category) ?? { error: 0, warning: 0, info: 0 };
    row[g.severity] = (row[g.severity] ?? 0) + g.occurrences;
    matrix.set(g.category, row);
  }
  return [...matrix.entries()].sort((a, b) => total(b[1]) - total(a[1]) || a[0].localeCompare(b[0]));
}

export function total(counts: Counts): number {
  return Object.values(counts).reduce((s, n) => s + n, 0);
}

/** A round step giving about `count` intervals up to `max`. */
function niceStep(max: number, count: number): number {
  const raw = Math.max(1, max / count);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw)!;
  return Math.max(1, Math.ceil(step));
}

function legend(ctx: PdfContext, x: number, y: number): void {
  const { layout, t } = ctx;
  let at = x;
  for (const severity of SEVERITIES) {
    layout.box(at, y + 1, 8, 8, SEVERITY_COLOURS[severity]);
    at += 12 + layout.draw(t.severities[severity], at + 12, y, { size: 8, color: MUTED }) + 14;
  }
}

/** Horizontal stacked bars, one per category: errors, warnings, notices. */
export function drawCategoryChart(ctx: PdfContext): void {
  const { layout, t, f, labels, source } = ctx;
  const rows = categoryMatrix(source.summary.groups);
  const pitch = 20;
  // No issue: no chart (the report says so in one line where the issues would be).
  if (rows.length === 0) return;
  // The heading keeps the whole chart (at most a dozen categories) on its page.
  layout.heading(t.chartByCategory, 2, 40 + rows.length * pitch);
  const labelWidth = 150;
  const totalWidth = 50;
  const barLeft = layout.left + labelWidth;
  const barWidth = layout.width - labelWidth - totalWidth;
  const barHeight = 11;
  const max = Math.max(...rows.map(([, c]) => total(c)));
  const step = niceStep(max, 4);
  const scaleMax = Math.ceil(max / step) * step;
  const scale = (n: number) => (n / scaleMax) * barWidth;

  legend(ctx, barLeft, layout.y);
  layout.y += 16;
  const chartTop = layout.y;
  const height = rows.length * pitch;
  const { doc } = layout;
  // Grid lines and their values below the bars.
  doc.save();
  for (let v = 0; v <= scaleMax; v += step) {
    const x = barLeft + scale(v);
    doc.moveTo(x, chartTop - 2).lineTo(x, chartTop + height).lineWidth(0.5).strokeColor(RULE).stroke();
  }
  doc.restore();
  for (let v = 0; v <= scaleMax; v += step) {
    layout.draw(f.int(v), barLeft + scale(v) - 20, chartTop + height + 3, { size: 7, color: MUTED }, { width: 40, align: 'center' });
  }
  rows.forEach(([category, counts], i) => {
    const y = chartTop + i * pitch;
    // A long label ("Données structurées et réseaux sociaux") takes two lines beside its bar, never cut.
    const lines = layout.lines(labels.category(category), labelWidth - 8, { size: 8 }, 2);
    lines.forEach((line, n) => layout.draw(line, layout.left, y + (lines.length === 1 ? 1 : -4) + n * 9, { size: 8 }));
    let x = barLeft;
    for (const severity of SEVERITIES) {
      const w = scale(counts[severity] ?? 0);
      layout.box(x, y, w, barHeight, SEVERITY_COLOURS[severity]);
      x += w;
    }
    layout.draw(f.int(total(counts)), barLeft + barWidth, y + 1, { size: 8.5, bold: true }, { width: totalWidth, align: 'right' });
  });
  layout.y = chartTop + height + 20;
}

/** The health score of each comparable crawl, oldest to newest; this crawl is the last point. */
export function drawHistoryChart(ctx: PdfContext): void {
  const { layout, t, f, source } = ctx;
  const points = source.history ?? [];
  const plotHeight = 130;
  layout.heading(t.chartHistory, 2, plotHeight + 50);
  if (points.length === 0) {
    layout.paragraph(t.notMeasured, { size: 10, color: MUTED });
    return;
  }
  const axisWidth = 28;
  const left = layout.left + axisWidth;
  const width = layout.width - axisWidth - 10;
  const top = layout.y + 6;
  const { doc } = layout;
  const yOf = (score: number) => top + plotHeight - (Math.max(0, Math.min(100, score)) / 100) * plotHeight;
  const xOf = (i: number) => (points.length === 1 ? left + width / 2 : left + 10 + (i / (points.length - 1)) * (width - 20));

  doc.save();
  for (const v of [0, 25, 50, 75, 100]) {
    doc.moveTo(left, yOf(v)).lineTo(left + width, yOf(v)).lineWidth(v === 0 ? 0.75 : 0.4).strokeColor(v === 0 ? MUTED : RULE).stroke();
  }
  doc.restore();
  for (const v of [0, 25, 50, 75, 100]) layout.draw(String(v), layout.left, yOf(v) - 3.5, { size: 7, color: MUTED }, { width: axisWidth - 6, align: 'right' });

  // The line, broken where a crawl has no score.
  doc.save();
  doc.lineWidth(1.5).strokeColor(INK);
  let drawing = false;
  points.forEach((p, i) => {
    if (p.health_score === null) {
      drawing = false;
      return;
    }
    if (drawing) doc.lineTo(xOf(i), yOf(p.health_score));
    else doc.moveTo(xOf(i), yOf(p.health_score));
    drawing = true;
  });
  doc.stroke();
  doc.restore();

  // Dates under the axis: all of them when they fit, else every other one (and always the last).
  const every = Math.ceil((points.length * 48) / width);
  points.forEach((p, i) => {
    const x = xOf(i);
    const last = i === points.length - 1;
    if (p.health_score !== null) {
      const y = yOf(p.health_score);
      doc.save();
      doc.circle(x, y, last ? 4 : 3).fill(scoreColour(p.health_score));
      doc.restore();
      layout.draw(f.int(Math.round(p.health_score)), x - 20, y - 14, { size: last ? 9 : 7.5, bold: last }, { width: 40, align: 'center' });
    }
    if (last || (points.length - 1 - i) % every === 0) {
      layout.draw(f.shortDate(p.finished_at), x - 24, top + plotHeight + 4, { size: 7, color: MUTED, bold: last }, { width: 48, align: 'center' });
    }
  });
  layout.y = top + plotHeight + 20;
  layout.paragraph(points.length === 1 ? t.historyFirst : t.historyNote, { size: 8, color: MUTED });
}
