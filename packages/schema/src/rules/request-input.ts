/**
 * How the query and the body of a request are validated, shared by the server binder and the
 * mock so both refuse alike: the operation's zod schema, then the rules every string of the
 * request obeys whatever its field (no NUL character: PostgreSQL cannot store it, SQLite
 * would; no lone surrogate: it is no Unicode text, and would be stored as U+FFFD, the answer
 * then differing from what is read back). Errors are keyed by field path in a null-prototype object, so that a field named
 * `constructor` or `__proto__` is reported like any other (and still serialises as JSON).
 */
import type { z } from 'zod';
import type { Language } from '../errors.js';
import { fieldErrors, type FieldErrors, MAX_FIELD_ERRORS } from './problem-bodies.js';

export type InputCheck<T> = { ok: true; data: T } | { ok: false; errors: FieldErrors };

const NUL_MESSAGE = { fr: 'Ne doit pas contenir le caractère NUL', en: 'Must not contain the NUL character' } as const;
const SURROGATE_MESSAGE = { fr: 'Ne doit pas contenir de demi-caractère UTF-16 isolé (texte Unicode invalide)', en: 'Must not contain a lone UTF-16 surrogate (invalid Unicode text)' } as const;

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The strings' paths of a JSON value that hold a NUL character. */
export function nulPaths(value: unknown): string[] {
  return stringPaths(value, (s) => s.includes('\u0000'));
}

/** The strings' paths of a JSON value that hold a lone surrogate (`"\ud800"` in JSON text). */
export function loneSurrogatePaths(value: unknown): string[] {
  return stringPaths(value, (s) => LONE_SURROGATE.test(s));
}

/**
 * Paths (`name`, `keywords.3`) of the strings of a JSON value that `bad` finds. Walked with a
 * stack of its own, not by recursion: a 1 MB body nests half a million arrays deep.
 */
function stringPaths(value: unknown, bad: (text: string) => boolean): string[] {
  const found: string[] = [];
  const pending: [unknown, string][] = [[value, '']];
  const join = (path: string, key: string) => (path ? `${path}.${key}` : key);
  while (pending.length > 0) {
    const [item, path] = pending.pop()!;
    if (typeof item === 'string') {
      if (bad(item)) found.push(path);
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
  type Message = Record<Language, string>;
  const unstorable: [string, Message][] = [
    ...nulPaths(value).map((path): [string, Message] => [path, NUL_MESSAGE]),
    ...loneSurrogatePaths(value).map((path): [string, Message] => [path, SURROGATE_MESSAGE]),
  ];
  for (const [path, message] of unstorable) {
    // Inside a value already refused it adds nothing (and its path could be a megabyte long).
    if (refused.some((field) => field === '_' || path === field || path.startsWith(`${field}.`))) continue;
    if (!((path || '_') in errors) && Object.keys(errors).length >= MAX_FIELD_ERRORS) break;
    (errors[path || '_'] ??= []).push({ code: 'invalid_format', message: message[language] });
  }
  const paths = Object.keys(errors);
  if (paths.length === 0 && result.success) return { ok: true, data: result.data };
  if (whole === '_' || !('_' in errors)) return { ok: false, errors };
  const keyed = Object.create(null) as FieldErrors;
  for (const path of paths) keyed[path === '_' ? whole : path] = errors[path];
  return { ok: false, errors: keyed };
}
