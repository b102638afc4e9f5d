/** The canonical form of a keyword: trimmed, lowercase (Unicode-aware), single spaces, NFC. */
export function canonicalKeyword(keyword: string): string {
  return keyword.normalize('NFC').trim().toLocaleLowerCase('und').replace(/\s+/gu, ' ');
}
