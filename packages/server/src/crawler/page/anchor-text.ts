/**
 * Anchor texts that say nothing of their target, in English and in French (compared lowercased,
 * trailing dots and arrows dropped). A page in one of the two languages is judged by its own
 * list: `suite` and `plus` are generic in French, and an English page's index term or operator.
 */
const GENERIC_EN = new Set([
  'click here', 'click', 'here', 'this link', 'link', 'this page', 'read more', 'more', 'learn more', 'see more', 'more info', 'more information', 'details', 'go', 'continue', 'continue reading', 'find out more',
]);
const GENERIC_FR = new Set([
  'cliquez ici', 'cliquer ici', 'ici', 'ce lien', 'lien', 'cette page', 'lire la suite', 'la suite', 'suite', 'lire plus', 'en savoir plus', 'savoir plus', 'plus', 'voir plus', 'en lire plus', "plus d'infos", "plus d'informations", 'détails', 'voir', 'continuer',
]);
/**
 * Both lists: what a page in another language (or none declared) is judged by, and what the HTML
 * analyser keeps (only links whose text is empty or one of these), so every link of a page is
 * judged without holding every anchor text.
 */
export const GENERIC_ANCHORS = new Set([...GENERIC_EN, ...GENERIC_FR]);

// Hoisted: a regular-expression literal is a new RegExp object each time it is evaluated (21 links a page).
const TRAILING = /[\s.…:!»›>→]+$/u;
const LEADING = /^[«‹<←\s]+/u;
const CURLY_APOSTROPHE = /’/g;
/** One character of TRAILING's and LEADING's classes. */
const TRAILING_CHAR = /^[\s.…:!»›>→]$/u;
const LEADING_CHAR = /^[«‹<←\s]$/u;

/** The list a page's declared language (`<html lang>`) is judged by: its own for English or French, else both. */
function genericFor(lang: string | null | undefined): ReadonlySet<string> {
  if (!lang) return GENERIC_ANCHORS;
  if (ENGLISH.test(lang)) return GENERIC_EN;
  return FRENCH.test(lang) ? GENERIC_FR : GENERIC_ANCHORS;
}
const ENGLISH = /^en(?:[-_]|$)/i;
const FRENCH = /^fr(?:[-_]|$)/i;

/**
 * Whether a link's text is generic in the page's language (`lang`, both lists when not English
 * or French): lower-cased, its trailing dots and arrows and leading quotes and arrows dropped, a
 * curly apostrophe made straight. Each step runs only when its end of the text or its apostrophe
 * asks for it: most anchors have nothing to drop, and three replacements a link cost more than
 * the look-up.
 */
export function isGenericAnchor(text: string, lang?: string | null): boolean {
  let t = text.toLowerCase();
  if (t !== '' && TRAILING_CHAR.test(t[t.length - 1])) t = t.replace(TRAILING, '');
  if (t !== '' && LEADING_CHAR.test(t[0])) t = t.replace(LEADING, '');
  if (t.includes('’')) t = t.replace(CURLY_APOSTROPHE, "'");
  return genericFor(lang).has(t);
}
