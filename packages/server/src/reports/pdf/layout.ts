/**
 * Layout helpers over pdfkit: text is always drawn without pdfkit's own wrapping, at positions the
 * Layout tracks, so page breaks happen only where it decides (and table headers can be repeated),
 * and a page is only opened when something is drawn on it.
 */
import type { ExportStrings } from '../i18n.js';
import { pdfSafe } from '../pdf-text.js';
import { BOLD, FALLBACK, FALLBACK_BOLD, FONT, glyphTest, hasFallback, registerFonts } from './fonts.js';

export { BOLD, FONT };
export const INK = '#1f2328';
export const MUTED = '#6e7781';
export const LINK = '#0b57d0';
export const RULE = '#d0d7de';
export const STRIPE = '#f6f8fa';
export const BRAND = '#12355b';
export const SEVERITY_COLOURS: Record<string, string> = { error: '#c62828', warning: '#ef6c00', info: '#1565c0' };
export const ROW_HEIGHT = 13;
/** Each further line of a wrapped table cell. */
const LINE_HEIGHT = 10;

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
  /** Lines a cell may wrap onto before it is shortened (default 3; links never wrap). */
  maxLines?: number;
}
export interface Cell {
  text: string;
  /** Points the text starts after the column's left edge (a sub-row), on every line it wraps onto. */
  indent?: number;
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
    registerFonts(doc);
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

  /** Set once the fallback font failed to open: not tried again for this report. */
  private noFallback = false;
  /** The font `font()` chose for the current text, and the other one when the text needs both (DejaVu and the fallback). */
  private current = FONT;
  private other: string | null = null;
  /** Which code points each font draws, by font name. */
  private readonly glyphs = new Map<string, (codePoint: number) => boolean>();

  private draws(name: string): (codePoint: number) => boolean {
    let test = this.glyphs.get(name);
    if (!test) {
      this.doc.font(name);
      test = glyphTest(this.doc);
      this.glyphs.set(name, test);
      this.doc.font(this.current);
    }
    return test;
  }

  /**
   * Selects the font for `style`, and for `text` when given: the fallback font (fonts.ts) when it
   * draws more of the text's characters than DejaVu does (crawled Chinese, Japanese, Korean). The
   * characters only the other font draws (a symbol DejaVu has among Japanese) are drawn in it, a
   * run at a time, by the one-line drawing and measuring below.
   */
  font(style: TextStyle, text?: string): void {
    const primary = style.bold ? BOLD : FONT;
    const fallback = style.bold ? FALLBACK_BOLD : FALLBACK;
    this.doc.font(primary).fontSize(style.size ?? 9).fillColor(style.color ?? INK);
    this.current = primary;
    this.other = null;
    if (!text || this.noFallback || !hasFallback(this.doc)) return;
    // Beyond ASCII (which both draw): the characters each font lacks; the one lacking fewer draws the text.
    const beyond = [...text].map((ch) => ch.codePointAt(0)!).filter((c) => c > 0x7e);
    const missing = (name: string) => beyond.filter((c) => !this.draws(name)(c)).length;
    const lacking = missing(primary);
    if (!lacking) return;
    try {
      this.draws(fallback);
    } catch {
      // Not a font pdfkit reads (an operator's file): the report is drawn without it.
      this.noFallback = true;
      this.doc.font(primary);
      return;
    }
    const [chosen, other] = missing(fallback) < lacking ? [fallback, primary] : [primary, fallback];
    this.doc.font(chosen);
    this.current = chosen;
    this.other = other;
  }

  /** `text` as the current font can draw it (pdf-text.ts): for text drawn by pdfkit in one font. */
  safe(text: string | null | undefined): string {
    return pdfSafe(text, this.draws(this.current));
  }

  /** `text` as the current font and the other one chosen with it can draw it: for `runs`. */
  private drawable(text: string | null | undefined): string {
    const other = this.other;
    if (other === null) return this.safe(text);
    const current = this.draws(this.current);
    const alternative = this.draws(other);
    return pdfSafe(text, (c) => current(c) || alternative(c));
  }

  /** `s` (drawable) in runs of one font each: the current font, and the other one for what only it draws. */
  private runs(s: string): { text: string; font: string }[] {
    const other = this.other;
    if (other === null) return [{ text: s, font: this.current }];
    const current = this.draws(this.current);
    const out: { text: string; font: string }[] = [];
    for (const ch of s) {
      const c = ch.codePointAt(0)!;
      const font = c > 0x7e && !current(c) ? other : this.current;
      const last = out.at(-1);
      if (last?.font === font) last.text += ch;
      else out.push({ text: ch, font });
    }
    return out;
  }

  /** The width of `s` (drawable) at the current style, each run in its font. */
  private measure(s: string): number {
    const runs = this.runs(s);
    if (runs.length <= 1) return this.doc.widthOfString(s);
    let width = 0;
    for (const run of runs) width += this.doc.font(run.font).widthOfString(run.text);
    this.doc.font(this.current);
    return width;
  }

  /** Writes `s` (drawable) on one line from (x, y), each run in its font. */
  private write(s: string, x: number, y: number): void {
    const runs = this.runs(s);
    if (runs.length <= 1) {
      this.doc.text(s, x, y, { lineBreak: false });
      return;
    }
    for (const run of runs) {
      this.doc.font(run.font).text(run.text, x, y, { lineBreak: false });
      x += this.doc.widthOfString(run.text);
    }
    this.doc.font(this.current);
  }

  /** Shortens text with an ellipsis so it fits `width` at the current font. */
  fit(text: string, width: number): string {
    if (this.measure(text) <= width) return text;
    let lo = 0;
    let hi = text.length;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.measure(`${text.slice(0, mid)}…`) <= width) lo = mid;
      else hi = mid - 1;
    }
    return `${text.slice(0, lo)}…`;
  }

  /**
   * `text` broken into lines that fit `width` at `style`, at spaces; a word wider than the line is
   * cut there. At most `maxLines`: the last one is shortened with an ellipsis if more text remains.
   */
  lines(text: string, width: number, style: TextStyle, maxLines = Infinity): string[] {
    this.font(style, text);
    const s = this.drawable(text);
    const fits = (t: string) => this.measure(t) <= width;
    if (fits(s)) return [s];
    const out: string[] = [];
    let line = '';
    for (const word of s.split(' ')) {
      const candidate = line ? `${line} ${word}` : word;
      if (fits(candidate)) {
        line = candidate;
        continue;
      }
      if (line) out.push(line);
      line = word;
      // A single word wider than the line: cut it where it no longer fits.
      while (!fits(line) && line.length > 1) {
        let n = line.length - 1;
        while (n > 1 && !fits(line.slice(0, n))) n--;
        out.push(line.slice(0, n));
        line = line.slice(n);
      }
    }
    if (line) out.push(line);
    if (out.length <= maxLines) return out;
    return [...out.slice(0, maxLines - 1), this.fit(out.slice(maxLines - 1).join(' '), width)];
  }

  /**
   * A label with a note on its right (a count, a severity): the note keeps its natural width,
   * the label wraps over the rest, never cut. Advances `y` below both.
   */
  labelRow(label: string, note: string, labelStyle: TextStyle, noteStyle: TextStyle, box: { x?: number; width?: number } = {}): void {
    const x = box.x ?? this.left;
    const width = box.width ?? this.width - (x - this.left);
    this.font(noteStyle, note);
    const noteWidth = Math.min(width / 2, this.measure(this.drawable(note)) + 2);
    const labelLines = this.lines(label, width - noteWidth - 10, labelStyle);
    const lineHeight = (labelStyle.size ?? 9) + 3;
    this.ensure(lineHeight * labelLines.length);
    if (note) this.draw(note, x + width - noteWidth, this.y + 1, noteStyle, { width: noteWidth, align: 'right' });
    for (const line of labelLines) {
      this.draw(line, x, this.y, labelStyle);
      this.y += lineHeight;
    }
  }

  /** One line of text at (x, y); never wraps, never breaks the page. Returns the width drawn. */
  draw(text: string, x: number, y: number, style: TextStyle, opts: { width?: number; align?: Align; link?: string } = {}): number {
    this.used = true;
    return this.text(text, x, y, style, opts);
  }

  private text(text: string, x: number, y: number, style: TextStyle, opts: { width?: number; align?: Align; link?: string }): number {
    this.font(style, text);
    let s = this.drawable(text);
    if (opts.width !== undefined) s = this.fit(s, opts.width);
    const w = this.measure(s);
    const room = opts.width !== undefined ? opts.width - w : 0;
    const dx = opts.align === 'right' ? room : opts.align === 'center' ? room / 2 : 0;
    this.write(s, x + dx, y);
    // pdfkit sizes link annotations from its line wrapper, which unwrapped text skips: add it here.
    if (opts.link && s) this.doc.link(x + dx, y, w, this.doc.currentLineHeight(), opts.link);
    return w;
  }

  /** Wrapped paragraph at `x` (default: the left margin) over `width`, breaking the page first if needed. */
  paragraph(text: string, style: TextStyle = {}, gapAfter = 6, box: { x?: number; width?: number } = {}): void {
    this.font(style, text);
    const s = this.safe(text);
    const width = box.width ?? this.width;
    const height = this.doc.heightOfString(s, { width });
    this.ensure(height);
    this.font(style, text);
    this.doc.text(s, box.x ?? this.left, this.y, { width });
    this.used = true;
    this.y += height + gapAfter;
  }

  heading(text: string, level: 1 | 2 = 1, room = 40): void {
    const size = level === 1 ? 16 : 12;
    this.ensure(size + room);
    if (level === 1) {
      if (this.y > this.top) this.y += 4;
      this.doc.outline.addItem(this.safe(text));
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
    const style = { size: 8, bold: true, color: MUTED };
    const lines = this.columns.map((col) => (col.header ? layout.lines(col.header, col.width - 4, style, 2) : []));
    const extra = (Math.max(1, ...lines.map((l) => l.length)) - 1) * LINE_HEIGHT;
    let x = layout.left;
    this.columns.forEach((col, i) => {
      // Headers sit on the row's last line, so a one-line header lines up with the wrapped ones.
      const offset = extra - (Math.max(1, lines[i].length) - 1) * LINE_HEIGHT;
      lines[i].forEach((line, n) => layout.draw(line, x + 2, layout.y + 2 + offset + n * LINE_HEIGHT, style, { width: col.width - 4, align: col.align }));
      x += col.width;
    });
    layout.y += ROW_HEIGHT + 1 + extra;
    layout.doc.save();
    layout.doc.moveTo(layout.left, layout.y).lineTo(layout.left + layout.width, layout.y).lineWidth(0.75).strokeColor(RULE).stroke();
    layout.doc.restore();
    layout.y += 2;
  }

  row(cells: Cell[]): void {
    const { layout } = this;
    // Text cells wrap (a label is never cut); links stay on one line, shortened if need be.
    const lines = this.columns.map((col, i) => {
      const cell = cells[i];
      if (!cell || !cell.text) return [];
      if (cell.link) return [cell.text];
      return layout.lines(cell.text, col.width - 4 - (cell.indent ?? 0), { size: 8, bold: cell.bold }, col.maxLines ?? 3);
    });
    const height = ROW_HEIGHT + (Math.max(1, ...lines.map((l) => l.length)) - 1) * LINE_HEIGHT;
    if (layout.y + height > layout.bottom) {
      layout.newPage();
      this.header();
    }
    if (this.rows % 2 === 1) layout.box(layout.left, layout.y - 1, layout.width, height, STRIPE);
    let x = layout.left;
    this.columns.forEach((col, i) => {
      const cell = cells[i];
      lines[i].forEach((line, n) => {
        const indent = cell!.indent ?? 0;
        layout.draw(line, x + 2 + indent, layout.y + 2 + n * LINE_HEIGHT, { size: 8, bold: cell!.bold, color: cell!.color ?? (cell!.link ? LINK : INK) }, {
          width: col.width - 4 - indent,
          align: col.align,
          link: cell!.link,
        });
      });
      x += col.width;
    });
    layout.y += height;
    this.rows += 1;
  }
}
