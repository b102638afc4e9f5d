/** The PDF's "since the last crawl" section (docs/decisions/crawl-changes.md): what changed since the previous comparable crawl. */
import type { CrawlChangesSummary } from '@siteaudit/schema';
import { SEVERITY_RANK } from '@siteaudit/schema/rules';
import { SEVERITIES } from '../i18n.js';
import type { PdfContext } from './context.js';
import { MUTED, SEVERITY_COLOURS } from './layout.js';
import { movementLines, signedPoints } from '../score-movement.js';

/** Lines per pillar under "Why the score moved": the largest parts; the rest add up in one line. */
export const PDF_MOVEMENT_LINES = 8;

/** Checks listed under the summary: those that moved the most (`mostMoved`). */
export const PDF_CHANGED_CHECKS = 10;

type MovedCheck = CrawlChangesSummary['checks'][number];

/**
 * The checks that moved the most: errors, then warnings, then notices, then the most occurrences
 * new, fixed or gone with their page, then by name. The summary's own order (most new first) is
 * the API's; taken as it is, a repaired site's fixed errors fell behind notices "+1 new".
 */
export function mostMoved(checks: readonly MovedCheck[], count = PDF_CHANGED_CHECKS): MovedCheck[] {
  const moved = (k: MovedCheck) => k.new + k.fixed + k.gone_with_page;
  return checks
    .filter((k) => moved(k) > 0)
    .sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || moved(b) - moved(a) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .slice(0, count);
}

const GOOD = '#1f7a3d';
const BAD = '#b3261e';

export function drawChanges(ctx: PdfContext): void {
  const { layout, source, t, f, labels } = ctx;
  const changes = source.changes;
  if (!changes) return;
  const c = t.changes;
  const { summary } = changes;
  if (summary.basis !== 'compared') {
    // Nothing to compare: one line where the section would be (pdf.ts keeps it on the page before).
    layout.paragraph(`${c.title}${ctx.language === 'fr' ? ' : ' : ': '}${summary.basis === 'no_previous_crawl' ? c.noPrevious : summary.basis === 'blocked' ? c.blocked : c.notCompared}`, { size: 10, color: MUTED });
    return;
  }
  layout.heading(c.title);
  layout.paragraph(c.comparedWith(f.dateTime(changes.previousFinishedAt)), { size: 9, color: MUTED });

  const w = layout.width;
  const issues = layout.table([
    { header: c.issuePairs, width: w - 4 * 80 },
    ...SEVERITIES.map((s) => ({ header: t.severities[s], width: 80, align: 'right' as const })),
    { header: t.total, width: 80, align: 'right' },
  ]);
  for (const [kind, counts] of [
    ['issue_new', summary.issues.new],
    ['issue_fixed', summary.issues.fixed],
    ['issue_gone_with_page', summary.issues.gone_with_page],
    ['issue_persisting', summary.issues.persisting],
  ] as const) {
    issues.row([
      { text: c.kinds[kind] },
      ...SEVERITIES.map((s) => ({ text: f.int(counts[s]), color: SEVERITY_COLOURS[s] })),
      { text: f.int(counts.error + counts.warning + counts.info), bold: true },
    ]);
  }
  layout.y += 8;
  layout.keyValue(c.kinds.page_added, f.int(summary.pages.added), { keyWidth: 200 });
  layout.keyValue(c.kinds.page_removed, f.int(summary.pages.removed), { keyWidth: 200 });
  layout.keyValue(c.kinds.status_changed, f.int(summary.pages.status_changed), { keyWidth: 200 });
  // A page turned into a meta-refresh stub still answers 200: as built first it showed no page
  // change, only its issues gone with their page (summaries stored before count none).
  layout.keyValue(c.kinds.redirect_changed, f.int(summary.pages.redirect_changed ?? 0), { keyWidth: 200 });
  // On a copy of the libxslt documentation, three deleted pages read "Pages removed: 1" (a 404
  // no longer linked) and "Status code changed: 3": a reader who deleted pages looks for them.
  if (summary.pages.status_changed > 0) layout.paragraph(c.pagesNote, { size: 9, color: MUTED });
  if ((summary.pages.redirect_changed ?? 0) > 0) layout.paragraph(c.redirectNote, { size: 9, color: MUTED });
  layout.y += 6;

  const health = layout.table([
    { header: c.pillar, width: w - 3 * 90 },
    { header: c.previous, width: 90, align: 'right' },
    { header: c.current, width: 90, align: 'right' },
    { header: c.delta, width: 90, align: 'right' },
  ]);
  const score = (n: number | null) => (n === null ? t.notMeasured : f.int(n));
  for (const p of summary.health) {
    // Signed as the points under "Why the score moved" are, with a true minus sign.
    const delta = p.delta === null ? t.notAvailable : signedPoints(p.delta, f.int);
    health.row([
      { text: labels.pillar(p.key) },
      { text: score(p.previous_score) },
      { text: score(p.score) },
      { text: delta, bold: true, color: p.delta === null || p.delta === 0 ? undefined : p.delta > 0 ? GOOD : BAD },
    ]);
  }

  drawMovement(ctx, summary.health);

  const moved = mostMoved(summary.checks);
  layout.heading(c.checksHeading, 2);
  if (moved.length === 0) {
    layout.paragraph(c.noChange, { size: 10, color: MUTED });
    return;
  }
  const checks = layout.table([
    { header: t.issue, width: w - 90 - 3 * 70 },
    { header: t.severity, width: 90 },
    { header: c.newCount, width: 70, align: 'right' },
    { header: c.fixedCount, width: 70, align: 'right' },
    { header: c.goneCount, width: 70, align: 'right' },
  ]);
  for (const k of moved) {
    checks.row([
      { text: labels.check(k.name) },
      { text: labels.severity(k.severity), color: SEVERITY_COLOURS[k.severity] },
      { text: k.new ? `+${f.int(k.new)}` : '', color: k.new ? BAD : undefined },
      { text: k.fixed ? `−${f.int(k.fixed)}` : '', color: k.fixed ? GOOD : undefined },
      { text: k.gone_with_page ? `−${f.int(k.gone_with_page)}` : '', color: k.gone_with_page ? MUTED : undefined },
    ]);
  }
}

/**
 * Why each pillar's score moved: per pillar that moved, its checks' exact parts of the movement
 * (the summary's attribution, `score-movement.ts`), which add up to the change printed above.
 */
function drawMovement(ctx: PdfContext, health: CrawlChangesSummary['health']): void {
  const { layout, t, f, labels } = ctx;
  const m = t.changes.movement;
  const moved = health.filter((p) => p.delta !== null && p.attribution && (p.delta !== 0 || p.attribution.checks.length > 0));
  const unexplained = health.some((p) => p.delta !== null && !p.attribution);
  if (moved.length === 0 && !unexplained) return;
  layout.heading(m.heading, 2);
  if (unexplained) layout.paragraph(m.unexplained, { size: 9, color: MUTED });
  if (moved.length === 0) return;
  layout.paragraph(m.explained, { size: 9, color: MUTED });
  const points = (n: number) => signedPoints(n, (v) => f.fixed(v, 1));
  const w = layout.width;
  for (const p of moved) {
    const a = p.attribution!;
    const lines = movementLines(p, t, labels, f.int, PDF_MOVEMENT_LINES);
    // A pillar's lines and their total on one page: the total is what they add up to.
    layout.ensure((lines.length + 3) * 16 + 20);
    layout.paragraph(m.pillar(labels.pillar(p.key), f.int(p.previous_score!), f.int(p.score!), f.fixed(a.previous_score_exact, 1), f.fixed(a.score_exact, 1)), { size: 10, bold: true });
    const table = layout.table([
      { header: m.points, width: 60, align: 'right' },
      { header: m.check, width: (w - 60) * 0.5 },
      { header: m.what, width: (w - 60) * 0.5 },
    ]);
    for (const line of lines) {
      table.row([{ text: points(line.points), bold: true, color: line.points > 0 ? GOOD : line.points < 0 ? BAD : undefined }, { text: line.label, color: line.name ? undefined : MUTED }, { text: line.what }]);
    }
    table.row([{ text: signedPoints(p.delta!, f.int), bold: true }, { text: m.total, bold: true }, { text: '' }]);
    layout.y += 6;
  }
}
