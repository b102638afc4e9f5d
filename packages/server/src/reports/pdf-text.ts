/**
 * Text as the report's embedded font (pdf/fonts.ts) can draw it. Crawled titles and URLs can hold
 * anything: control characters are dropped, tabs, line breaks and thin spaces become spaces, and
 * a character the font has no glyph for is shown as `?` (`drawable` says which it has).
 */
export function pdfSafe(text: string | null | undefined, drawable: (codePoint: number) => boolean = () => true): string {
  if (!text) return '';
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code === 0x09 || code === 0x0a || code === 0x0d || code === 0x202f || code === 0x2009) out += ' ';
    else if (code < 0x20 || (code >= 0x7f && code < 0xa0) || code === 0xad || (code >= 0x200b && code <= 0x200f) || code === 0xfeff) continue;
    else if (drawable(code)) out += ch;
    else out += '?';
  }
  return out;
}
