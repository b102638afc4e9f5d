/** The cover: project, site, audit date and the health score, then the pillars at a glance. */
import type { PdfContext } from './context.js';
import { BRAND, MUTED, RULE, scoreColour, webLink } from './layout.js';

const BAND_HEIGHT = 290;
const ON_BAND = '#ffffff';
const ON_BAND_MUTED = '#b9c8da';

/** A ring gauge: grey track, an arc in the score's colour over score/100 of the turn. */
export function drawGauge(ctx: PdfContext, cx: number, cy: number, radius: number, score: number | null): void {
  const { layout, f, t } = ctx;
  const doc = layout.doc;
  const thickness = radius * 0.2;
  doc.save();
  doc.circle(cx, cy, radius).lineWidth(thickness).strokeColor(RULE).stroke();
  if (score !== null && score > 0) {
    const share = Math.min(1, score / 100);
    doc.lineWidth(thickness).strokeColor(scoreColour(score)).lineCap('round');
    if (share >= 0.999) doc.circle(cx, cy, radius).stroke();
    else {
      const end = -Math.PI / 2 + share * 2 * Math.PI;
      const x1 = cx + radius * Math.cos(end);
      const y1 = cy + radius * Math.sin(end);
      doc.path(`M ${cx} ${cy - radius} A ${radius} ${radius} 0 ${share > 0.5 ? 1 : 0} 1 ${x1.toFixed(2)} ${y1.toFixed(2)}`).stroke();
    }
  }
  doc.restore();
  layout.touch();
  const size = radius * 0.5;
  if (score === null) {
    layout.draw(t.notMeasured, cx - radius, cy - 6, { size: 11, bold: true, color: MUTED }, { width: 2 * radius, align: 'center' });
  } else {
    layout.draw(f.int(score), cx - radius, cy - size * 0.55, { size, bold: true, color: scoreColour(score) }, { width: 2 * radius, align: 'center' });
    layout.draw('/ 100', cx - radius, cy + size * 0.5, { size: Math.max(8, radius * 0.14), color: MUTED }, { width: 2 * radius, align: 'center' });
  }
}

/** Room for the agency's logo, top right of the band (the image is fitted inside, its ratio kept). */
const LOGO_BOX = { width: 150, height: 56 };

/**
 * The agency's name and logo of the export request (docs/decisions/export-branding.md), at the top
 * of the band: "Prepared by <agency>" on the left, the logo on a white card on the right. A logo
 * the PDF library cannot read is left out rather than failing the report.
 */
function drawBranding(ctx: PdfContext): void {
  const { layout, source, t } = ctx;
  const branding = source.branding;
  if (!branding) return;
  const { doc } = layout;
  const right = layout.left + layout.width;
  if (branding.logo) {
    const pad = 6;
    const y = 24;
    try {
      // pdfkit opens the image once (its size is needed to fit it); `image()` takes the opened one.
      const image = (doc as unknown as { openImage(src: Buffer): { width: number; height: number } }).openImage(Buffer.from(branding.logo.bytes));
      const scale = Math.min((LOGO_BOX.width - 2 * pad) / image.width, (LOGO_BOX.height - 2 * pad) / image.height, 1);
      const w = image.width * scale;
      const h = image.height * scale;
      doc.save();
      doc.roundedRect(right - w - 2 * pad, y, w + 2 * pad, h + 2 * pad, 3).fill('#ffffff');
      doc.restore();
      doc.image(image as unknown as Buffer, right - w - pad, y + pad, { width: w, height: h });
      layout.touch();
    } catch {
      // An image pdfkit cannot decode: the cover goes without it.
    }
  }
  if (branding.agencyName) {
    const room = layout.width - (branding.logo ? LOGO_BOX.width + 12 : 0);
    layout.draw(`${t.preparedBy} ${branding.agencyName}`, layout.left, 40, { size: 12, bold: true, color: ON_BAND }, { width: room });
  }
}

export function drawCover(ctx: PdfContext): void {
  const { layout, source, t, f, labels } = ctx;
  const { doc } = layout;
  const left = layout.left;
  const width = layout.width;

  doc.save();
  doc.rect(0, 0, doc.page.width, BAND_HEIGHT).fill(BRAND);
  doc.restore();
  drawBranding(ctx);
  layout.draw(t.reportTitle.toUpperCase(), left, 90, { size: 11, bold: true, color: ON_BAND_MUTED }, { width });
  layout.draw(source.project.name, left, 115, { size: 28, bold: true, color: ON_BAND }, { width });
  layout.draw(source.project.url, left, 160, { size: 13, color: ON_BAND }, { width, link: webLink(source.project.url) });
  const auditDay = source.crawl.finished_at ?? source.crawl.started_at;
  const colon = ctx.language === 'fr' ? ' : ' : ': ';
  layout.draw(`${t.auditDate}${colon}${f.date(auditDay)}`, left, 200, { size: 12, color: ON_BAND_MUTED }, { width });

  // The health score, large, with the key figures beside it.
  const score = source.healthScore !== null && Number.isFinite(source.healthScore) ? Math.round(source.healthScore) : null;
  const gaugeTop = BAND_HEIGHT + 50;
  drawGauge(ctx, left + 85, gaugeTop + 80, 70, score);
  layout.draw(t.healthScore, left, gaugeTop + 170, { size: 11, bold: true, color: MUTED }, { width: 170, align: 'center' });
  // The health score is the technical pillar's (docs/health-score.md): said under it.
  layout.draw(t.healthScoreIs(labels.pillar('technique')), left, gaugeTop + 186, { size: 8, color: MUTED }, { width: 170, align: 'center' });

  const x = left + 210;
  layout.y = gaugeTop + 20;
  const opts = { x, keyWidth: 120 };
  layout.keyValue(t.site, source.project.domain || source.project.url, opts);
  layout.keyValue(t.auditDate, f.date(auditDay), opts);
  layout.keyValue(t.crawlStatus, labels.crawlStatus(source.crawl.status), opts);
  layout.keyValue(t.pagesCrawled, f.int(source.crawl.pages.crawled), opts);
  const counts = source.crawl.issue_counts;
  layout.keyValue(t.severities.error, f.int(counts.error), { ...opts, color: counts.error ? '#c62828' : undefined });
  layout.keyValue(t.severities.warning, f.int(counts.warning), { ...opts, color: counts.warning ? '#ef6c00' : undefined });
  layout.keyValue(t.severities.info, f.int(counts.info), opts);

  if (source.crawl.failure) {
    layout.draw(source.crawl.failure, left, gaugeTop + 220, { size: 12, bold: true, color: '#c62828' }, { width });
  }
  // The five pillars as tiles: the scorecard in one line (a crawl that reached nothing has none).
  const pillars = source.crawl.failure ? [] : (source.scorecard ?? []);
  if (pillars.length > 0) {
    const top = gaugeTop + 220;
    layout.draw(t.scorecard, left, top, { size: 11, bold: true, color: MUTED });
    const gap = 8;
    const tile = (width - gap * (pillars.length - 1)) / pillars.length;
    pillars.forEach((p, i) => {
      const tx = left + i * (tile + gap);
      const ty = top + 20;
      doc.save();
      doc.roundedRect(tx, ty, tile, 64, 4).lineWidth(1).strokeColor(RULE).stroke();
      doc.rect(tx, ty, 4, 64).fill(scoreColour(p.score));
      doc.restore();
      // The pillar's name on up to two lines ("Search Console acquisition" is long for a tile).
      layout.font({ size: 8, color: MUTED }, labels.pillar(p.key));
      doc.text(layout.safe(labels.pillar(p.key)), tx + 10, ty + 6, { width: tile - 14, height: 20, ellipsis: true });
      if (p.score === null) layout.draw(labels.pillarStatus(p.status), tx + 10, ty + 40, { size: 10, bold: true, color: MUTED }, { width: tile - 14 });
      else layout.draw(f.int(p.score), tx + 10, ty + 32, { size: 22, bold: true, color: scoreColour(p.score) }, { width: tile - 14 });
    });
  }

  layout.draw(`${t.preparedWith} · ${t.crawlId} ${source.crawl.id}`, left, layout.bottom - 14, { size: 8, color: MUTED }, { width });
}
