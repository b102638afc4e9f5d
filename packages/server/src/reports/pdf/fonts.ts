/**
 * The report's fonts: DejaVu Sans Condensed, regular and bold, embedded (subset) in every PDF. The
 * standard PDF fonts only encode WinAnsi, so formulas came out with `?` for − and √; DejaVu has
 * them, accented Latin, Greek and Cyrillic, and its condensed cut sets about as much text on a
 * line as Helvetica. The files come from the `dejavu-fonts-ttf` package (Bitstream Vera licence
 * with DejaVu's public-domain changes: free to embed and redistribute), read once per process.
 *
 * Crawled text may be Chinese, Japanese or Korean, which DejaVu does not draw. A CJK font is tens
 * of megabytes, too much to ship in the package, so the report draws such a string in a fallback
 * font of the machine when there is one (docs/decisions/exports.md, "Crawled Chinese, Japanese and Korean"): the file named by
 * `SITEAUDIT_PDF_FALLBACK_FONT` (`path` or `path#PostScriptName` within a collection), else Noto
 * Sans CJK (Debian's fonts-noto-cjk) or Droid Sans Fallback where the system keeps them. Without
 * one, such characters are drawn as `?` (pdf-text.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export const FONT = 'DejaVuSansCondensed';
export const BOLD = 'DejaVuSansCondensed-Bold';
export const FALLBACK = 'Fallback';
export const FALLBACK_BOLD = 'Fallback-Bold';

/** A font file, with the PostScript name of the face to use when the file is a collection (.ttc). */
interface FontFile {
  path: string;
  face?: string;
}

/** System fallbacks, in order: Noto Sans CJK (Japanese forms: all of CJK, kana and hangul), Droid Sans Fallback. */
const SYSTEM_FALLBACKS: { regular: FontFile; bold: FontFile }[] = [
  {
    regular: { path: '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc', face: 'NotoSansCJKjp-Regular' },
    bold: { path: '/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc', face: 'NotoSansCJKjp-Bold' },
  },
  {
    regular: { path: '/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf' },
    bold: { path: '/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf' },
  },
];

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

/** The fallback font files of this machine, or null (`SITEAUDIT_PDF_FALLBACK_FONT` first; a missing file there is no fallback). */
export function fallbackFont(env: NodeJS.ProcessEnv = process.env): { regular: FontFile; bold: FontFile } | null {
  const configured = env.SITEAUDIT_PDF_FALLBACK_FONT?.trim();
  if (configured) {
    const [path, face] = configured.split('#');
    const file = { path, ...(face ? { face } : {}) };
    return existsSync(path) ? { regular: file, bold: file } : null;
  }
  return SYSTEM_FALLBACKS.find((f) => existsSync(f.regular.path) && existsSync(f.bold.path)) ?? null;
}

/** Registers the report's fonts on a document (the fallback's too, when the machine has one) and selects the regular one. */
export function registerFonts(doc: PDFKit.PDFDocument): void {
  const { regular, bold } = fontFiles();
  doc.registerFont(FONT, regular);
  doc.registerFont(BOLD, bold);
  const fallback = fallbackFont();
  if (fallback) {
    // pdfkit reads the file when the font is first used: a report without CJK text never loads it.
    doc.registerFont(FALLBACK, fallback.regular.path, fallback.regular.face as string);
    doc.registerFont(FALLBACK_BOLD, fallback.bold.path, fallback.bold.face as string);
  }
  doc.font(FONT);
}

/** Whether the current font of `doc` draws a code point (fontkit's cmap; true when it cannot tell), as a test kept for that font. */
export function glyphTest(doc: PDFKit.PDFDocument): (codePoint: number) => boolean {
  const font = (doc as unknown as { _font?: { font?: { hasGlyphForCodePoint?(c: number): boolean } } })._font?.font;
  return font?.hasGlyphForCodePoint ? (c) => font.hasGlyphForCodePoint!(c) : () => true;
}

/** Whether the document has a fallback font registered. */
export function hasFallback(doc: PDFKit.PDFDocument): boolean {
  return Boolean((doc as unknown as { _registeredFonts?: Record<string, unknown> })._registeredFonts?.[FALLBACK]);
}
