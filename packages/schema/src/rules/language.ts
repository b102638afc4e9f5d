/** The answer's language, from `Accept-Language`. */
import type { Language } from '../errors.js';

/** `Accept-Language` → fr or en; default fr (docs/decisions/errors.md). Honours q-values and regions. */
export function pickLanguage(header: string | null | undefined): Language {
  if (!header) return 'fr';
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { lang: tag.split('-')[0], q: q ? Number(q.slice(2)) : 1, index };
    })
    .filter((r) => (r.lang === 'fr' || r.lang === 'en') && r.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return (ranked[0]?.lang as Language | undefined) ?? 'fr';
}
