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

export function isGenericAnchor(text: string): boolean {
  return GENERIC_ANCHORS.has(text.toLowerCase().replace(TRAILING, '').replace(LEADING, '').replace(CURLY_APOSTROPHE, "'"));
}
