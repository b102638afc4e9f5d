/**
 * How the query and the body of a request are validated, shared by the server binder and the
 * mock so both refuse alike: the operation's zod schema, then the rules every string of the
 * request obeys whatever its field (no NUL character: PostgreSQL cannot store it, SQLite
 * would). Errors are keyed by field path in a null-prototype object, so that a field named
 * `constructor` or `__proto__` is reported like any other (and still serialises as JSON).
 */
import type { z } from 'zod';
import type { Language } from './errors.js';
import { fieldErrors, type FieldErrors } from './rules.js';

export type InputCheck<T> = { ok: true; data: T } | { ok: false; errors: FieldErrors };

const NUL_MESSAGE = { fr: 'Ne doit pas contenir le caractère NUL', en: 'Must not contain the NUL character' } as const;

/** Paths (`name`, `keywords.3`) of the strings of a JSON value that hold a NUL character. */
export function nulPaths(value: unknown, path: readonly string[] = []): string[] {
  if (typeof value === 'string') return value.includes('\u0000') ? [path.join('.')] : [];
  if (Array.isArray(value)) return value.flatMap((item, i) => nulPaths(item, [...path, String(i)]));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => nulPaths(v, [...path, k]));
  return [];
}

/**
 * The parsed value, or the errors by field. `whole` names the value itself when an error is on
 * no field (a missing or non-object body is reported on `body`).
 */
export function checkInput<T extends z.ZodType>(schema: T, value: unknown, language: Language, whole = '_'): InputCheck<z.output<T>> {
  // With the input on each issue, a wrong type is told apart from a missing field.
  const result = schema.safeParse(value, { reportInput: true });
  const errors = result.success ? (Object.create(null) as FieldErrors) : fieldErrors(result.error.issues, language);
  for (const path of nulPaths(value)) (errors[path || '_'] ??= []).push({ code: 'invalid_format', message: NUL_MESSAGE[language] });
  const paths = Object.keys(errors);
  if (paths.length === 0 && result.success) return { ok: true, data: result.data };
  if (whole === '_' || !('_' in errors)) return { ok: false, errors };
  const keyed = Object.create(null) as FieldErrors;
  for (const path of paths) keyed[path === '_' ? whole : path] = errors[path];
  return { ok: false, errors: keyed };
}
