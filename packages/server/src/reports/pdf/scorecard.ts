/**
 * The scorecard section: the five pillars with their scores and axes, and for each pillar the
 * failing checks of its categories with what to fix.
 */
import { axisFix, fixFor } from '../fixes.js';
import { rankGroups } from '../top-issues.js';
import type { ReportPillar } from '../types.js';
import type { PdfContext } from './context.js';
import { INK, MUTED, RULE, SEVERITY_COLOURS, scoreColour } from './layout.js';

/** Failing checks listed per pillar; the full list is in the issues section. */
export const PDF_FIXES_PER_PILLAR = 6;
/** An axis that is not a category gets advice below this score. */
const AXIS_ADVICE_BELOW = 90;
/** Pillars scored by the health formula over their categories' checks (docs/decisions/scorecard.md). */
const FORMULA_PILLARS = new Set(['technique', 'contenu']);

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

  // Axes: where the score comes from.
  const axes = pillar.axes.filter((a) => a.score !== null || a.weight > 0);
  if (pillar.score !== null && axes.length > 1) {
    for (const axis of axes) {
      layout.ensure(12);
      layout.draw(labels.axis(axis.key), layout.left + 10, layout.y, { size: 8, color: INK }, { width: 190 });
      bar(ctx, layout.left + 210, layout.y + 2, 160, 5, axis.score);
      layout.draw(axis.score === null ? t.notMeasured : f.int(axis.score), layout.left + 380, layout.y, { size: 8, bold: axis.score !== null, color: axis.score === null ? MUTED : INK }, { width: 80 });
      layout.y += 12;
    }
    layout.y += 2;
    if (FORMULA_PILLARS.has(pillar.key)) layout.paragraph(t.scoreFromAxes, { size: 7.5, color: MUTED }, 6, { x: layout.left + 10, width: layout.width - 10 });
  }

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
    layout.draw(labels.check(g.name), layout.left + indent, layout.y, { size: 9, bold: true }, { width: layout.width - indent - 110 });
    layout.draw(`${labels.severity(g.severity)} · ${count}`, layout.left + layout.width - 110, layout.y, { size: 8, color: MUTED }, { width: 110, align: 'right' });
    layout.y += 12;
    layout.paragraph(fixFor(g.name, g.category, language), { size: 8.5, color: MUTED }, 5, { x: layout.left + indent, width: layout.width - indent });
  }
  if (failing.length > PDF_FIXES_PER_PILLAR) {
    layout.paragraph(t.moreChecks(f.int(failing.length - PDF_FIXES_PER_PILLAR)), { size: 8, color: MUTED }, 4, { x: layout.left + indent, width: layout.width - indent });
  }
  for (const a of advice) {
    layout.ensure(30);
    layout.box(layout.left + 2, layout.y + 2, 6, 6, SEVERITY_COLOURS.warning);
    layout.draw(a.label, layout.left + indent, layout.y, { size: 9, bold: true }, { width: layout.width - indent });
    layout.y += 12;
    layout.paragraph(a.fix, { size: 8.5, color: MUTED }, 5, { x: layout.left + indent, width: layout.width - indent });
  }
  layout.y += 10;
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
  return rankGroups(ctx.source.summary.groups.filter((g) => g.occurrences > 0 && g.severity !== 'info' && pillar.categories.includes(g.category)));
}
