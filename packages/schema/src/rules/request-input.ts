/**
 * How the query and the body of a request are validated, shared by the server binder and the
 * mock so both refuse alike: the operation's zod schema, then the rules every string of the
 * request obeys whatever its field (no NUL character: PostgreSQL cannot store it, SQLite
 * would). Errors are keyed by field path in a null-prototype object, so that a field named
 * `constructor` or `__proto__` is reported like any other (and still serialises as JSON).
 */
import type { z } from 'zod';
import type { Language } from '../errors.js';
import { fieldErrors, type FieldErrors } from './problem-bodies.js';

export type InputCheck<T> = { ok: true; data: T } | { ok: false; errors: FieldErrors };

const NUL_MESSAGE = { fr: 'Ne doit pas contenir le caractère NUL', en: 'Must not contain the NUL character' } as const;

/**
 * Paths (`name`, `keywords.3`) of the strings of a JSON value that hold a NUL character. Walked
 * with a stack of its own, not by recursion: a 1 MB body nests half a million arrays deep.
 */
export function nulPaths(value: unknown): string[] {
  const found: string[] = [];
  const pending: [unknown, string][] = [[value, '']];
  const join = (path: string, key: string) => (path ? `${path}.${key}` : key);
  while (pending.length > 0) {
    const [item, path] = pending.pop()!;
    if (typeof item === 'string') {
      if (item.includes('\u0000')) found.push(path);
    } else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) pending.push([item[i], join(path, String(i))]);
    } else if (item && typeof item === 'object') {
      const entries = Object.entries(item);
      for (let i = entries.length - 1; i >= 0; i--) pending.push([entries[i][1], join(path, entries[i][0])]);
    }
  }
  return found;
}

/**
 * The parsed value, or the errors by field. `whole` names the value itself when an error is on
 * no field (a missing or non-object body is reported on `body`).
 */
export function checkInput<T extends z.ZodType>(schema: T, value: unknown, language: Language, whole = '_'): InputCheck<z.output<T>> {
  // With the input on each issue, a wrong type is told apart from a missing field.
  const result = schema.safeParse(value, { reportInput: true });
  const errors = result.success ? (Object.create(null) as FieldErrors) : fieldErrors(result.error.issues, language);
  const refused = Object.keys(errors);
  for (const path of nulPaths(value)) {
    // A NUL inside a value already refused adds nothing (and its path could be a megabyte long).
    if (refused.some((field) => field === '_' || path === field || path.startsWith(`${field}.`))) continue;
    (errors[path || '_'] ??= []).push({ code: 'invalid_format', message: NUL_MESSAGE[language] });
  }
  const paths = Object.keys(errors);
  if (paths.length === 0 && result.success) return { ok: true, data: result.data };
  if (whole === '_' || !('_' in errors)) return { ok: false, errors };
  const keyed = Object.create(null) as FieldErrors;
  for (const path of paths) keyed[path === '_' ? whole : path] = errors[path];
  return { ok: false, errors: keyed };
}
