/** Problem bodies (RFC 9457) for catalogue codes, and validation errors by field path. */
import type { z } from 'zod';
import { ERRORS, ERROR_TYPE_BASE, type ErrorCode, type Language, type Problem } from '../errors.js';

/** A text in both languages of the API; the answer holds the caller's. */
export interface Localized {
  fr: string;
  en: string;
}

/** What a refusal adds to its catalogue entry; `detail` may come in both languages. */
export type ProblemExtras = Omit<Partial<Problem>, 'type' | 'title' | 'status' | 'code' | 'detail'> & { detail?: string | Localized };

/**
 * The base of problem `type` URLs for a documentation base: `<docsUrl>/errors#` (a server's
 * `docsUrl` option, docs/decisions/api-reference.md), else the public documentation's.
 */
export function problemTypeBase(docsUrl?: string | null): string {
  return docsUrl ? `${docsUrl.replace(/\/+$/, '')}/errors#` : ERROR_TYPE_BASE;
}

/** An RFC 9457 body for a catalogue code, titled in the caller's language, its `type` under `typeBase`. */
export function buildProblem(code: ErrorCode, language: Language, extras: ProblemExtras = {}, typeBase = ERROR_TYPE_BASE): Problem {
  const entry = ERRORS[code];
  const { detail, ...rest } = extras;
  const problem: Problem = { type: `${typeBase}${code}`, title: entry.title[language], status: entry.status, code, ...rest };
  if (detail !== undefined) problem.detail = typeof detail === 'string' ? detail : detail[language];
  return problem;
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
  required: 'Champ requis',
};

/** The French message a custom refinement carries in `params.fr`, when it has its own. */
function frenchOf(issue: z.core.$ZodIssue): string | undefined {
  const fr: unknown = issue.code === 'custom' ? issue.params?.fr : undefined;
  return typeof fr === 'string' ? fr : undefined;
}

/**
 * The code of a refinement of ours: its `params.code` (`invalid_url`, `invalid_pattern`…), never
 * zod's internal `custom`.
 */
function customCode(issue: z.core.$ZodIssue): string {
  const code: unknown = issue.code === 'custom' ? issue.params?.code : undefined;
  return typeof code === 'string' ? code : 'invalid_value';
}

/** Validation errors keyed by field path, in a null-prototype object. */
export type FieldErrors = Record<string, { code: string; message: string }[]>;

/**
 * zod issues → `errors` keyed by field path (`schedule.time`, `keywords.3`). An unknown key is
 * reported on its own path so the caller sees which field was refused. Paths are prefixed by
 * where the value came from only for the query (`query.limit` would leak our structure, so no).
 */
/** Fields a 422 names at most: the first ones, in the order found; a caller fixes them and meets the rest. */
export const MAX_FIELD_ERRORS = 100;

export function fieldErrors(issues: readonly z.core.$ZodIssue[], language: Language): FieldErrors {
  // Keys are the caller's field names: a plain object would answer `constructor` with its own.
  const out = Object.create(null) as FieldErrors;
  let fields = 0;
  const add = (path: string, code: string, message: string) => {
    const key = path || '_';
    if (!(key in out)) {
      // A body of 100,000 unknown keys would be answered with all of them (6 MB).
      if (fields >= MAX_FIELD_ERRORS) return;
      fields++;
    }
    (out[key] ??= []).push({ code, message });
  };
  for (const issue of issues) {
    const base = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        add(base ? `${base}.${key}` : key, 'unknown_field', language === 'fr' ? 'Champ inconnu' : 'Unknown field');
      }
      continue;
    }
    // A missing enum (`format`) fails as a value, not a type: it is missing all the same.
    const missing = (issue.code === 'invalid_type' || issue.code === 'invalid_value') && issue.input === undefined;
    const code = missing ? 'required' : issue.code === 'custom' ? customCode(issue) : issue.code;
    const message = language === 'fr' ? (frenchOf(issue) ?? FR_MESSAGES[code] ?? 'Valeur invalide') : missing ? 'Required' : issue.message;
    add(base, code, message);
  }
  return out;
}
