/**
 * Anchor texts that say nothing of their target, in English and French (compared lowercased,
 * trailing dots and arrows dropped). The HTML analyser keeps only the links whose text is empty or
 * one of these, so every link of a page is judged without holding every anchor text.
 */
export const GENERIC_ANCHORS = new Set([
  'click here', 'click', 'here', 'this link', 'link', 'this page', 'read more', 'more', 'learn more', 'see more', 'more info', 'more information', 'details', 'go', 'continue', 'continue reading', 'find out more',
  'cliquez ici', 'cliquer ici', 'ici', 'ce lien', 'lien', 'cette page', 'lire la suite', 'la suite', 'suite', 'lire plus', 'en savoir plus', 'savoir plus', 'plus', 'voir plus', 'en lire plus', "plus d'infos", "plus d'informations", 'détails', 'voir', 'continuer',
]);

// Hoisted: a regular-expression literal is a new RegExp object each time it is evaluated (21 links a page).
const TRAILING = /[\s.…:!»›>→]+$/u;
const LEADING = /^[«‹<←\s]+/u;
const CURLY_APOSTROPHE = /’/g;
/** One character of TRAILING's and LEADING's classes. */
const TRAILING_CHAR = /^[\s.…:!»›>→]$/u;
const LEADING_CHAR = /^[«‹<←\s]$/u;

/**
 * Whether a link's text is generic: lower-cased, its trailing dots and arrows and leading quotes
 * and arrows dropped, a curly apostrophe made straight. Each step runs only when its end of the
 * text or its apostrophe asks for it: most anchors have nothing to drop, and three replacements a
 * link cost more than the look-up.
 */
export function isGenericAnchor(text: string): boolean {
  let t = text.toLowerCase();
  if (t !== '' && TRAILING_CHAR.test(t[t.length - 1])) t = t.replace(TRAILING, '');
  if (t !== '' && LEADING_CHAR.test(t[0])) t = t.replace(LEADING, '');
  if (t.includes('’')) t = t.replace(CURLY_APOSTROPHE, "'");
  return GENERIC_ANCHORS.has(t);
}
