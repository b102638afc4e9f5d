/** The answer's language, from `Accept-Language`. */
import type { Language } from '../errors.js';

const LANGUAGES: readonly Language[] = ['fr', 'en'];

/**
 * `Accept-Language` → fr or en; default fr (docs/decisions/errors.md). Honours q-values, regions
 * and `*` (RFC 9110 §12.5.4, RFC 4647 §2.1): `*` gives its weight to each of the two languages the
 * header does not name, and a language named with q=0 is never picked (`fr;q=0, *` is English).
 * Between equal weights, the first named wins, then French.
 */
export function pickLanguage(header: string | null | undefined): Language {
  if (!header) return 'fr';
  const named = new Map<Language, { q: number; index: number }>();
  let wildcard: { q: number; index: number } | null = null;
  header.split(',').forEach((part, index) => {
    const [tag, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    if (!(weight >= 0 && weight <= 1)) return;
    const lang = tag.trim().split('-')[0];
    if (lang === '*') {
      if (!wildcard || weight > wildcard.q) wildcard = { q: weight, index };
    } else if ((LANGUAGES as readonly string[]).includes(lang)) {
      const seen = named.get(lang as Language);
      if (!seen || weight > seen.q) named.set(lang as Language, { q: weight, index: seen?.index ?? index });
    }
  });
  const ranked = LANGUAGES.map((lang, order) => ({ lang, order, ...(named.get(lang) ?? wildcard ?? { q: 0, index: Infinity }) }))
    .filter((r) => r.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index || a.order - b.order);
  return ranked[0]?.lang ?? 'fr';
}
