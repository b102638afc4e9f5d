/**
 * Pure rules shared by the server and the mock, so the two answer alike: problem bodies,
 * validation errors by field path, languages and canonical keywords.
 */
import type { z } from 'zod';
import { ERRORS, ERROR_TYPE_BASE, type ErrorCode, type Language, type Problem } from './errors.js';

/** `Accept-Language` → fr or en; default fr (spec: Language). Honours q-values and regions. */
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

export type ProblemExtras = Omit<Partial<Problem>, 'type' | 'title' | 'status' | 'code'>;

/** An RFC 9457 body for a catalogue code, titled in the caller's language. */
export function buildProblem(code: ErrorCode, language: Language, extras: ProblemExtras = {}): Problem {
  const entry = ERRORS[code];
  return { type: `${ERROR_TYPE_BASE}${code}`, title: entry.title[language], status: entry.status, code, ...extras };
}

const FR_MESSAGES: Record<string, string> = {
  invalid_type: 'Type invalide',
  too_small: 'Valeur trop petite ou trop courte',
  too_big: 'Valeur trop grande ou trop longue',
  invalid_format: 'Format invalide',
  invalid_value: 'Valeur non autorisée',
  unrecognized_keys: 'Champ inconnu',
  invalid_union: 'Valeur invalide',
  not_multiple_of: 'Valeur invalide',
  custom: 'Valeur invalide',
  required: 'Champ requis',
};

/**
 * zod issues → `errors` keyed by field path (`schedule.time`, `keywords.3`). An unknown key is
 * reported on its own path so the caller sees which field was refused. Paths are prefixed by
 * where the value came from only for the query (`query.limit` would leak our structure, so no).
 */
export function fieldErrors(issues: readonly z.core.$ZodIssue[], language: Language): Record<string, { code: string; message: string }[]> {
  const out: Record<string, { code: string; message: string }[]> = {};
  const add = (path: string, code: string, message: string) => {
    (out[path || '_'] ??= []).push({ code, message });
  };
  for (const issue of issues) {
    const base = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        add(base ? `${base}.${key}` : key, 'unknown_field', language === 'fr' ? 'Champ inconnu' : 'Unknown field');
      }
      continue;
    }
    const missing = issue.code === 'invalid_type' && issue.input === undefined;
    const code = missing ? 'required' : issue.code;
    const message = language === 'fr' ? (FR_MESSAGES[code] ?? 'Valeur invalide') : missing ? 'Required' : issue.message;
    add(base, code, message);
  }
  return out;
}

/** The canonical form of a keyword: trimmed, lowercase (Unicode-aware), single spaces, NFC. */
export function canonicalKeyword(keyword: string): string {
  return keyword.normalize('NFC').trim().toLocaleLowerCase('und').replace(/\s+/gu, ' ');
}
