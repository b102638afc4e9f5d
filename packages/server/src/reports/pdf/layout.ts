/**
 * Layout helpers over pdfkit: text is always drawn without pdfkit's own wrapping, at positions the
 * Layout tracks, so page breaks happen only where it decides (and table headers can be repeated),
 * and a page is only opened when something is drawn on it.
 */
import type { ExportStrings } from '../i18n.js';
import { pdfSafe } from '../pdf-text.js';

export const FONT = 'Helvetica';
export const BOLD = 'Helvetica-Bold';
export const INK = '#1f2328';
export const MUTED = '#6e7781';
export const LINK = '#0b57d0';
export const RULE = '#d0d7de';
export const STRIPE = '#f6f8fa';
export const BRAND = '#12355b';
export const SEVERITY_COLOURS: Record<string, string> = { error: '#c62828', warning: '#ef6c00', info: '#1565c0' };
export const ROW_HEIGHT = 13;

/** Green, amber or red for a 0..100 score; grey without one. */
export function scoreColour(score: number | null | undefined): string {
  if (score === null || score === undefined || !Number.isFinite(score)) return MUTED;
  return score >= 80 ? '#2e7d32' : score >= 50 ? '#ef6c00' : '#c62828';
}

export type Align = 'left' | 'right' | 'center';
export interface TextStyle {
  size?: number;
  bold?: boolean;
  color?: string;
}
export interface Column {
  header: string;
  width: number;
  align?: Align;
}
export interface Cell {
  text: string;
  color?: string;
  link?: string;
  bold?: boolean;
}

/** Only web links become PDF link annotations; anything else stays plain text. */
export function webLink(url: string): string | undefined {
  return /^https?:\/\//i.test(url) ? url : undefined;
}

export class Layout {
  y: number;
  pageCount = 0;
  /** Whether anything but the footer was drawn on the current page. */
  private used = false;

  constructor(
    readonly doc: PDFKit.PDFDocument,
    private readonly footer: string,
    private readonly t: ExportStrings,
  ) {
    // Page numbers are drawn as each page opens, so pages can be flushed immediately (no bufferPages).
    doc.on('pageAdded', () => this.drawFooter());
    doc.addPage();
    this.y = doc.page.margins.top;
    this.used = false;
  }

  get left(): number {
    return this.doc.page.margins.left;
  }
  get width(): number {
    return this.doc.page.width - this.doc.page.margins.left - this.doc.page.margins.right;
  }
  get top(): number {
    return this.doc.page.margins.top;
  }
  get bottom(): number {
    return this.doc.page.height - this.doc.page.margins.bottom;
  }

  /** Opens a page, unless the current one is still empty: the report never holds a blank page. */
  newPage(): void {
    if (!this.used) {
      this.y = this.top;
      return;
    }
    this.doc.addPage();
    this.y = this.top;
    this.used = false;
  }

  /** Marks the page as holding content (for drawings made straight on `doc`). */
  touch(): void {
    this.used = true;
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
    this.text(pageLabel, this.left, y, { size: 8, color: MUTED }, { width: this.width, align: 'right' });
    this.text(this.footer, this.left, y, { size: 8, color: MUTED }, { width: this.width - 80 });
  }

  font(style: TextStyle): void {
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

  /** One line of text at (x, y); never wraps, never breaks the page. Returns the width drawn. */
  draw(text: string, x: number, y: number, style: TextStyle, opts: { width?: number; align?: Align; link?: string } = {}): number {
    this.used = true;
    return this.text(text, x, y, style, opts);
  }

  private text(text: string, x: number, y: number, style: TextStyle, opts: { width?: number; align?: Align; link?: string }): number {
    this.font(style);
    let s = pdfSafe(text);
    if (opts.width !== undefined) s = this.fit(s, opts.width);
    const w = this.doc.widthOfString(s);
    const room = opts.width !== undefined ? opts.width - w : 0;
    const dx = opts.align === 'right' ? room : opts.align === 'center' ? room / 2 : 0;
    this.doc.text(s, x + dx, y, { lineBreak: false });
    // pdfkit sizes link annotations from its line wrapper, which unwrapped text skips: add it here.
    if (opts.link && s) this.doc.link(x + dx, y, w, this.doc.currentLineHeight(), opts.link);
    return w;
  }

  /** Wrapped paragraph at `x` (default: the left margin) over `width`, breaking the page first if needed. */
  paragraph(text: string, style: TextStyle = {}, gapAfter = 6, box: { x?: number; width?: number } = {}): void {
    this.font(style);
    const s = pdfSafe(text);
    const width = box.width ?? this.width;
    const height = this.doc.heightOfString(s, { width });
    this.ensure(height);
    this.font(style);
    this.doc.text(s, box.x ?? this.left, this.y, { width });
    this.used = true;
    this.y += height + gapAfter;
  }

  heading(text: string, level: 1 | 2 = 1, room = 40): void {
    const size = level === 1 ? 16 : 12;
    this.ensure(size + room);
    if (level === 1) {
      if (this.y > this.top) this.y += 4;
      this.doc.outline.addItem(pdfSafe(text));
    } else {
      this.y += 6;
    }
    this.draw(text, this.left, this.y, { size, bold: true, color: level === 1 ? BRAND : INK });
    this.y += size + (level === 1 ? 4 : 2);
    if (level === 1) {
      this.doc.save();
      this.doc.moveTo(this.left, this.y).lineTo(this.left + this.width, this.y).lineWidth(1).strokeColor(BRAND).stroke();
      this.doc.restore();
      this.y += 10;
    }
  }

  keyValue(key: string, value: string, opts: { link?: string; keyWidth?: number; color?: string; x?: number; width?: number } = {}): void {
    const keyWidth = opts.keyWidth ?? 150;
    const x = opts.x ?? this.left;
    const width = opts.width ?? this.width - (x - this.left);
    this.ensure(ROW_HEIGHT + 2);
    this.draw(key, x, this.y, { size: 10, color: MUTED }, { width: keyWidth - 8 });
    this.draw(value, x + keyWidth, this.y, { size: 10, color: opts.link ? LINK : (opts.color ?? INK) }, {
      width: width - keyWidth,
      link: opts.link,
    });
    this.y += ROW_HEIGHT + 3;
  }

  /** A filled rectangle (bars, swatches). */
  box(x: number, y: number, width: number, height: number, colour: string): void {
    if (width <= 0 || height <= 0) return;
    this.used = true;
    this.doc.save();
    this.doc.rect(x, y, width, height).fill(colour);
    this.doc.restore();
  }

  table(columns: Column[]): Table {
    return new Table(this, columns);
  }
}

/** A table whose rows arrive one at a time; the header is repeated on every page it spans. */
export class Table {
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
    if (this.rows % 2 === 1) layout.box(layout.left, layout.y - 1, layout.width, ROW_HEIGHT, STRIPE);
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
