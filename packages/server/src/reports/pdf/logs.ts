/**
 * The PDF's log section (docs/decisions/exports.md#the-log-section): what search and AI bots
 * fetched according to the project's access logs, joined with the latest crawl. Drawn only when
 * the source has logs; every list in it is bounded by the source.
 */
import type { LogFinding } from '@siteaudit/schema';
import { statusList } from '../i18n.js';
import type { PdfContext } from './context.js';
import { MUTED, ROW_HEIGHT, scoreColour, SEVERITY_COLOURS } from './layout.js';

/** Room a sub-heading keeps below it, so a table never starts with a lone row at a page's foot. */
const TABLE_ROOM = ROW_HEIGHT * 6;

/** Budget buckets where a hit is spent on something a bot should not fetch. */
const WASTE = new Set(['redirect', 'client_error', 'server_error', 'non_canonical', 'noindex', 'parameterised', 'robots_disallowed', 'not_in_crawl']);

export function drawLogs(ctx: PdfContext): void {
  const { layout, source, t, f, labels } = ctx;
  const logs = source.logs;
  if (!logs) return;
  const l = t.logs;
  const { insights } = logs;
  const w = layout.width;

  layout.heading(l.title);
  const period = insights.period;
  layout.paragraph(l.period(f.dateTime(period?.from ?? null), f.dateTime(period?.to ?? null), logs.imports, f.int(logs.imports)), { size: 9, color: MUTED });
  if (!insights.crawl_id) layout.paragraph(l.noCrawl, { size: 9, color: SEVERITY_COLOURS.warning });
  layout.keyValue(l.botHits, f.int(insights.hits.bots), { keyWidth: 300 });
  layout.keyValue(l.unverifiedClaims, f.int(insights.hits.unverified_claims), { keyWidth: 300 });
  layout.keyValue(l.humanHits, f.int(insights.hits.humans), { keyWidth: 300 });

  // Families: verified and not-applicable first, the unverified claims after, greyed, with hits
  // only (kept per day, never per path: no URL count, no last visit).
  layout.heading(l.byFamily, 2, TABLE_ROOM);
  const families = layout.table([
    { header: l.family, width: w - 140 - 2 * 60 - 100 },
    { header: l.verification, width: 140 },
    { header: l.hits, width: 60, align: 'right' },
    { header: l.urls, width: 60, align: 'right' },
    { header: l.lastVisit, width: 100, align: 'right' },
  ]);
  const ordered = [...insights.families.filter((x) => x.verification !== 'unverified'), ...insights.families.filter((x) => x.verification === 'unverified')];
  for (const fam of ordered) {
    const color = fam.verification === 'unverified' ? MUTED : undefined;
    families.row([
      { text: labels.botFamily(fam.family), color },
      { text: labels.verification(fam.verification), color },
      { text: f.int(fam.hits), color, bold: fam.verification !== 'unverified' },
      { text: fam.verification === 'unverified' ? t.notAvailable : f.int(fam.urls), color },
      { text: f.date(fam.last_visit), color },
    ]);
  }

  // The pillar, as the scorecard has it.
  const pillar = source.scorecard?.find((p) => p.key === 'logs');
  if (pillar) {
    layout.heading(labels.pillar('logs'), 2, TABLE_ROOM);
    layout.keyValue(t.score, pillar.score === null ? labels.pillarStatus(pillar.status) : `${f.int(pillar.score)} / 100`, { keyWidth: 300, color: scoreColour(pillar.score) });
    if (pillar.blocked_reason) layout.paragraph(labels.blockedReason(pillar.blocked_reason), { size: 9, color: MUTED });
    if (pillar.axes.length > 0) {
      const axes = layout.table([
        { header: l.axis, width: w - 90 },
        { header: t.score, width: 90, align: 'right' },
      ]);
      for (const a of pillar.axes) axes.row([{ text: labels.axis(a.key) }, { text: a.score === null ? t.notMeasured : f.int(a.score), bold: a.score !== null, color: scoreColour(a.score) }]);
    }
  }

  if (insights.budget.length > 0) {
    layout.heading(l.budget, 2, TABLE_ROOM);
    layout.paragraph(l.budgetNote, { size: 8.5, color: MUTED }, 4);
    const budget = layout.table([
      { header: l.spentOn, width: w - 2 * 90 },
      { header: l.hits, width: 90, align: 'right' },
      { header: l.share, width: 90, align: 'right' },
    ]);
    for (const b of insights.budget) {
      const color = WASTE.has(b.bucket) && b.hits > 0 ? SEVERITY_COLOURS.warning : undefined;
      budget.row([{ text: labels.budgetBucket(b.bucket) }, { text: f.int(b.hits), color }, { text: f.percent(b.share), color, bold: b.bucket === 'indexable' }]);
    }
  }

  if (insights.crawl_id) {
    drawFindings(ctx, l.notInCrawl(f.int(logs.findings.not_in_crawl.count)), logs.findings.not_in_crawl, true);
    drawFindings(ctx, l.notVisited(f.int(logs.findings.indexable_not_visited.count)), logs.findings.indexable_not_visited, false);
  }

  layout.heading(l.ai, 2, ROW_HEIGHT * 5);
  layout.keyValue(labels.botFamily('ai_search'), f.int(insights.ai.search_hits), { keyWidth: 300 });
  layout.keyValue(labels.botFamily('ai_training'), f.int(insights.ai.training_hits), { keyWidth: 300 });
  layout.keyValue(l.aiUrls, f.int(insights.ai.urls), { keyWidth: 300 });
  layout.keyValue(l.aiLastVisit, f.dateTime(insights.ai.last_visit), { keyWidth: 300 });

  layout.heading(l.topUrls(f.int(logs.topUrls.length)), 2, TABLE_ROOM);
  if (logs.topUrls.length === 0) {
    layout.paragraph(l.none, { size: 10, color: MUTED });
    return;
  }
  const top = layout.table([
    { header: t.url, width: w - 115 - 90 - 60 - 100 },
    { header: l.families, width: 115 },
    { header: l.statusCodes, width: 90 },
    { header: l.hits, width: 60, align: 'right' },
    { header: l.lastVisit, width: 100, align: 'right' },
  ]);
  for (const u of logs.topUrls) {
    top.row([
      { text: u.path },
      { text: u.families.map((x) => labels.botFamily(x)).join(', ') },
      { text: statusList(u.status_codes, f.int) },
      { text: f.int(u.hits), bold: true },
      { text: f.date(u.last_visit) },
    ]);
  }
}

function drawFindings(ctx: PdfContext, heading: string, finding: { count: number; examples: LogFinding[] }, withHits: boolean): void {
  const { layout, t, f } = ctx;
  const l = t.logs;
  layout.heading(heading, 2, TABLE_ROOM);
  if (finding.count === 0) {
    layout.paragraph(l.none, { size: 9, color: MUTED });
    return;
  }
  const w = layout.width;
  const table = layout.table(
    withHits
      ? [
          { header: t.url, width: w - 70 - 100 },
          { header: l.hits, width: 70, align: 'right' },
          { header: l.lastVisit, width: 100, align: 'right' },
        ]
      : [{ header: t.url, width: w }],
  );
  for (const x of finding.examples) table.row(withHits ? [{ text: x.path }, { text: f.int(x.bot_hits) }, { text: f.date(x.last_visit) }] : [{ text: x.path }]);
  if (finding.count > finding.examples.length) layout.paragraph(t.moreOccurrences(f.int(finding.count - finding.examples.length)), { size: 8, color: MUTED }, 4);
}
