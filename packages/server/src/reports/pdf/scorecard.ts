/**
 * The scorecard section: the five pillars with their scores and axes, and for each pillar the
 * failing checks of its categories with what to fix.
 */
import { axisFix, fixFor } from '../fixes.js';
import { pagesAffected } from '../pages-affected.js';
import { rankGroups } from '../top-issues.js';
import type { ReportPillar } from '../types.js';
import type { PdfContext } from './context.js';
import { INK, MUTED, RULE, SEVERITY_COLOURS, scoreColour } from './layout.js';

type Axis = ReportPillar['axes'][number];

/** Failing checks listed per pillar; the full list is in the issues section. */
export const PDF_FIXES_PER_PILLAR = 6;
/** An axis that is not a category gets advice below this score. */
const AXIS_ADVICE_BELOW = 90;
/** Checks that cost points shown under an axis; the others are summed in one line. */
export const PDF_CHECKS_PER_AXIS = 6;

function bar(ctx: PdfContext, x: number, y: number, width: number, height: number, score: number | null): void {
  ctx.layout.box(x, y, width, height, RULE);
  if (score !== null) ctx.layout.box(x, y, (Math.max(0, Math.min(100, score)) / 100) * width, height, scoreColour(score));
}

function drawPillar(ctx: PdfContext, pillar: ReportPillar): void {
  const { layout, t, f, labels, language } = ctx;
  layout.ensure(90);
  const scoreText = pillar.score === null ? labels.pillarStatus(pillar.status) : `${f.int(pillar.score)} / 100`;
  layout.draw(labels.pillar(pillar.key), layout.left, layout.y, { size: 12, bold: true }, { width: layout.width - 120 });
  layout.draw(scoreText, layout.left + layout.width - 120, layout.y, { size: 12, bold: true, color: scoreColour(pillar.score) }, { width: 120, align: 'right' });
  layout.y += 17;
  bar(ctx, layout.left, layout.y, layout.width, 5, pillar.score);
  layout.y += 10;
  const notes = [
    pillar.as_of ? t.asOf(f.date(pillar.as_of)) : '',
    pillar.blocked_reason ? labels.blockedReason(pillar.blocked_reason) : '',
  ].filter(Boolean);
  if (notes.length > 0) layout.paragraph(notes.join(' · '), { size: 8.5, color: MUTED }, 4);

  if (pillar.score !== null && pillar.axes.length > 0) drawInputs(ctx, pillar);

  // What to fix: the checks of the pillar's categories that cost points (errors and warnings).
  const failing = failingGroups(ctx, pillar);
  const advice = pillar.axes
    .filter((a) => a.score !== null && a.score < AXIS_ADVICE_BELOW && axisFix(a.key, language))
    .map((a) => ({ label: `${labels.axis(a.key)} (${f.int(a.score!)})`, fix: axisFix(a.key, language)! }));
  if (pillar.score === null && failing.length === 0) {
    layout.y += 8;
    return;
  }
  layout.ensure(30);
  layout.draw(t.whatToFix, layout.left, layout.y + 2, { size: 9, bold: true, color: MUTED });
  layout.y += 15;
  if (failing.length === 0 && advice.length === 0) {
    layout.paragraph(t.noFailingCheck, { size: 8.5, color: MUTED }, 4);
  }
  const indent = 14;
  for (const g of failing.slice(0, PDF_FIXES_PER_PILLAR)) {
    layout.ensure(30);
    layout.box(layout.left + 2, layout.y + 2, 6, 6, SEVERITY_COLOURS[g.severity] ?? MUTED);
    const count = t.occurrenceCount(g.occurrences, f.int(g.occurrences));
    // The label wraps beside the severity and count, which keep their width: neither is cut.
    layout.labelRow(labels.check(g.name), `${labels.severity(g.severity)} · ${count}`, { size: 9, bold: true }, { size: 8, color: MUTED }, { x: layout.left + indent });
    layout.paragraph(fixFor(g.name, g.category, language), { size: 8.5, color: MUTED }, 5, { x: layout.left + indent, width: layout.width - indent });
  }
  if (failing.length > PDF_FIXES_PER_PILLAR) {
    layout.paragraph(t.moreChecks(f.int(failing.length - PDF_FIXES_PER_PILLAR)), { size: 8, color: MUTED }, 4, { x: layout.left + indent, width: layout.width - indent });
  }
  for (const a of advice) {
    layout.ensure(30);
    layout.box(layout.left + 2, layout.y + 2, 6, 6, SEVERITY_COLOURS.warning);
    layout.labelRow(a.label, '', { size: 9, bold: true }, { size: 8 }, { x: layout.left + indent });
    layout.paragraph(a.fix, { size: 8.5, color: MUTED }, 5, { x: layout.left + indent, width: layout.width - indent });
  }
  layout.y += 10;
}

/**
 * The inputs of a pillar's score, so that a reader can recompute it (docs/health-score.md): each
 * axis with its score and factor (or weight), under it the checks that cost points with their
 * share and cost, then the formula and the computation with the report's own figures.
 */
function drawInputs(ctx: PdfContext, pillar: ReportPillar): void {
  const { layout, t, f, labels } = ctx;
  const i = t.inputs;
  const product = pillar.computation.method === 'product';
  const w = layout.width;
  const table = layout.table([
    { header: i.axis, width: w - 140 },
    { header: i.score, width: 70, align: 'right' },
    { header: product ? i.factor : i.weight, width: 70, align: 'right' },
  ]);
  const shown = pillar.axes.filter((a) => a.score !== null || a.weight > 0 || pillar.axes.length === 1);
  for (const axis of shown) {
    const counted = axis.weight > 0;
    table.row([
      { text: labels.axis(axis.key), bold: true },
      axis.score === null ? { text: t.notMeasured, color: MUTED } : { text: f.int(axis.score), bold: true, color: scoreColour(axis.score) },
      product
        ? { text: counted && axis.factor !== null ? `× ${f.fixed(axis.factor, 3)}` : '—', color: counted ? INK : MUTED }
        : { text: counted ? f.percent(axis.weight) : '—', color: counted ? INK : MUTED },
    ]);
    if (!product || !counted) continue;
    for (const line of checkLines(ctx, axis)) table.row([{ text: line, color: MUTED, indent: 12 }, { text: '' }, { text: '' }]);
  }
  layout.y += 4;
  const note = { size: 7.5, color: MUTED };
  const box = { x: layout.left, width: layout.width };
  const exact = pillar.computation.exact;
  if (product) {
    const factors = shown.filter((a) => a.weight > 0 && a.factor !== null && a.factor < 1).map((a) => f.fixed(a.factor!, 3));
    const { scored_pages: urls, html_pages: html } = pillar.computation;
    layout.paragraph(`${t.scoreFromAxes} ${urls !== null && html !== null ? i.scoredPages(f.int(urls), f.int(html)) : ''}`, note, 3, box);
    if (exact !== null) layout.paragraph(i.product(factors.length ? factors.join(' × ') : '1', f.fixed(exact, 2), f.int(pillar.score!)), { size: 8.5, bold: true }, 8, box);
  } else {
    const terms = shown.filter((a) => a.weight > 0 && a.score !== null).map((a) => `${f.fixed(a.weight, 2)} × ${f.int(a.score!)}`);
    layout.paragraph(i.meanFormula, note, 3, box);
    if (exact !== null) layout.paragraph(i.mean(terms.join(' + '), f.fixed(exact, 2), f.int(pillar.score!)), { size: 8.5, bold: true }, 8, box);
  }
}

/** The checks behind an axis that cost points, most costly first; PageSpeed's own factor. */
function checkLines(ctx: PdfContext, axis: Axis): string[] {
  const { t, f, labels } = ctx;
  const i = t.inputs;
  if (axis.key === 'pagespeed' && axis.score !== null) return [i.pagespeed(f.int(axis.score))];
  const costly = axis.checks.filter((c) => c.cost > 0);
  const lines = costly.slice(0, PDF_CHECKS_PER_AXIS).map((c) => {
    const share = pagesAffected(c, i.wholeSite, (pages) => `${i.pagesOf(f.int(pages), f.int(c.judged_pages))}, ${f.percent(c.share)}`);
    return i.check(labels.check(c.name), labels.severity(c.severity).toLowerCase(), share, f.fixed(c.weight, 2), f.fixed(c.share, 3), f.fixed(c.cost, 3));
  });
  const rest = costly.slice(PDF_CHECKS_PER_AXIS);
  if (rest.length) lines.push(i.otherChecks(f.int(rest.length), f.fixed(rest.reduce((sum, c) => sum + c.cost, 0), 3)));
  return lines;
}

export function drawScorecard(ctx: PdfContext): void {
  const { layout, t, source } = ctx;
  layout.heading(t.scorecard);
  const pillars = source.scorecard ?? [];
  if (pillars.length === 0) {
    layout.paragraph(t.scorecardMissing, { size: 10, color: MUTED });
    return;
  }
  layout.paragraph(t.scorecardIntro, { size: 9, color: MUTED }, 10);
  // A pillar without a score and nothing to fix is one line here, never a section of its own
  // (which could end up alone on a page).
  const silent = (p: ReportPillar) => p.score === null && !failingGroups(ctx, p).length;
  const without = pillars.filter(silent);
  if (without.length > 0) {
    const { labels } = ctx;
    const colon = ctx.language === 'fr' ? ' : ' : ': ';
    const items = without.map((p) => `${labels.pillar(p.key)} (${[labels.pillarStatus(p.status), p.blocked_reason ? labels.blockedReason(p.blocked_reason) : ''].filter(Boolean).join(', ')})`);
    layout.paragraph(`${t.pillarsWithoutScore}${colon}${items.join(' · ')}`, { size: 9, color: INK }, 10);
  }
  for (const pillar of pillars) if (!silent(pillar)) drawPillar(ctx, pillar);
}

/** The checks of the pillar's categories that cost points (errors and warnings), most costly first. */
function failingGroups(ctx: PdfContext, pillar: ReportPillar) {
  return rankGroups(ctx.source.summary.groups.filter((g) => g.occurrences > 0 && g.severity !== 'info' && pillar.categories.includes(g.category)), ctx.source.fixes);
}
