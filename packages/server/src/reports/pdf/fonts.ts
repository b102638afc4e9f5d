/**
 * The report's fonts: DejaVu Sans Condensed, regular and bold, embedded (subset) in every PDF. The
 * standard PDF fonts only encode WinAnsi, so formulas came out with `?` for − and √; DejaVu has
 * them, accented Latin, Greek and Cyrillic, and its condensed cut sets about as much text on a
 * line as Helvetica. The files come from the `dejavu-fonts-ttf` package (Bitstream Vera licence
 * with DejaVu's public-domain changes: free to embed and redistribute), read once per process.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export const FONT = 'DejaVuSansCondensed';
export const BOLD = 'DejaVuSansCondensed-Bold';

let files: { regular: Buffer; bold: Buffer } | undefined;

function fontFiles(): { regular: Buffer; bold: Buffer } {
  if (!files) {
    const require = createRequire(import.meta.url);
    files = {
      regular: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed.ttf')),
      bold: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed-Bold.ttf')),
    };
  }
  return files;
}

/** Registers the report's fonts on a document and selects the regular one. */
export function registerFonts(doc: PDFKit.PDFDocument): void {
  const { regular, bold } = fontFiles();
  doc.registerFont(FONT, regular);
  doc.registerFont(BOLD, bold);
  doc.font(FONT);
}

/** Whether the current font of `doc` draws `codePoint` (fontkit's cmap; true when it cannot tell). */
export function hasGlyph(doc: PDFKit.PDFDocument, codePoint: number): boolean {
  const font = (doc as unknown as { _font?: { font?: { hasGlyphForCodePoint?(c: number): boolean } } })._font?.font;
  return font?.hasGlyphForCodePoint ? font.hasGlyphForCodePoint(codePoint) : true;
}
