/**
 * The standard PDF fonts only encode WinAnsi (Latin-1 plus a few typographic signs); pdfkit writes any
 * other character as garbage bytes. Crawled titles and URLs can hold anything, so text is narrowed to
 * what the font can show before it is drawn.
 */
const WIN_ANSI_EXTRA = new Set([
  0x20ac, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0x017d,
  0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0x017e,
  0x0178,
]);

export function pdfSafe(text: string | null | undefined): string {
  if (!text) return '';
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code === 0x09 || code === 0x0a || code === 0x0d || code === 0x202f || code === 0x2009) out += ' ';
    else if (code < 0x20 || (code >= 0x7f && code < 0xa0)) continue;
    else if (code <= 0xff || WIN_ANSI_EXTRA.has(code)) out += ch;
    else out += '?';
  }
  return out;
}
