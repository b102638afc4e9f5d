/**
 * URL patterns of a campaign (`include_patterns`, `exclude_patterns`, `issue_exclusion_patterns`):
 * split, checked and compiled here, for the campaign validation (server and mock) and the crawler.
 * Syntax, bounds and examples: docs/decisions/url-normalisation.md, "Patterns". Every entry, glob
 * or `re:`, runs as an RE2 program (re2js): matching is linear in the URL whatever the pattern, so
 * one team's pattern cannot stall the process for the others.
 */
import { RE2JS, RE2JSSyntaxException, RE2Set } from 're2js';

export const PATTERN_LIMITS = {
  /** Entries per field. */
  entries: 100,
  /** Characters per entry. */
  entryLength: 1_000,
  /** Characters per field, comments and separators included. */
  fieldLength: 10_000,
  /** RE2 program size of a field, summed over its entries: bounds the work spent on each URL. */
  programSize: 10_000,
} as const;

/** Why a pattern list is refused, in both languages of the API; `entry` is null for the field as a whole. */
export interface PatternProblem {
  entry: string | null;
  en: string;
  fr: string;
}

export class PatternError extends Error {
  constructor(readonly problem: PatternProblem) {
    super(problem.en);
    this.name = 'PatternError';
  }
}

export interface UrlMatcher {
  /** True when at least one entry matches the normalised URL. */
  matches(url: string): boolean;
  /** Number of entries; 0 for an empty list. */
  readonly size: number;
}

/** Splits a pattern list into its entries: one per line, commas between globs, `#` comments. */
export function splitPatterns(source: string | null | undefined): string[] {
  if (!source) return [];
  const entries: string[] = [];
  for (const raw of source.split(/\r\n|\r|\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    if (line.startsWith('re:')) entries.push(line);
    else entries.push(...line.split(',').map((e) => e.trim()).filter(Boolean));
  }
  return entries;
}

/** An entry compiled: its RE2 source and whether it is tested on the whole URL or on path and query. */
interface Compiled {
  source: string;
  target: 'url' | 'path';
  size: number;
}

/** A glob as RE2: literal text, `*` any run, a final `$` the end; anchored at the path or at the URL. */
function globSource(entry: string): { source: string; target: Compiled['target'] } {
  const anchoredEnd = entry.endsWith('$');
  const glob = anchoredEnd ? entry.slice(0, -1) : entry;
  const full = glob.includes('://');
  const fromStart = full || glob.startsWith('/');
  const body = glob.split('*').map((part) => RE2JS.quote(part)).join('.*');
  return { source: `(?s${full ? 'i' : ''})${fromStart ? '^' : ''}${body}${anchoredEnd ? '$' : ''}`, target: full ? 'url' : 'path' };
}

const quoted = (entry: string) => (entry.length > 80 ? `${entry.slice(0, 77)}...` : entry);

function refused(entry: string, en: string, fr: string): PatternProblem {
  return { entry, en: `Pattern "${quoted(entry)}": ${en}`, fr: `Motif « ${quoted(entry)} » : ${fr}` };
}

/** RE2's parse error in words, naming the usual constructs of JavaScript regular expressions it lacks. */
function syntaxReason(error: RE2JSSyntaxException): { en: string; fr: string } {
  const what = error.error;
  const at = error.input ?? '';
  const unsupported = (token: string, en: string, fr: string) => ({
    en: `"${token}" (${en}) is not supported: patterns use RE2 syntax, matched in linear time`,
    fr: `« ${token} » (${fr}) n'est pas accepté : les motifs suivent la syntaxe RE2, évaluée en temps linéaire`,
  });
  if (what === 'invalid escape sequence' && /^\\[1-9k]/.test(at)) return unsupported(at, 'backreference', 'renvoi arrière');
  const group = /^\(\?(<?[=!]|>)/.exec(at)?.[0];
  if (group === '(?>') return unsupported(group, 'atomic group', 'groupe atomique');
  if (group) return unsupported(group, 'lookahead or lookbehind', 'assertion avant ou arrière');
  if (what === 'invalid nested repetition operator' && at.endsWith('+')) return unsupported(at, 'possessive quantifier', 'quantificateur possessif');
  return { en: `not a valid RE2 expression (${what}: ${at})`, fr: `expression RE2 invalide (${what} : ${at})` };
}

function compileEntry(entry: string): Compiled | PatternProblem {
  if (entry.length > PATTERN_LIMITS.entryLength) {
    return refused(entry, `longer than ${PATTERN_LIMITS.entryLength} characters`, `plus de ${PATTERN_LIMITS.entryLength} caractères`);
  }
  if (!entry.startsWith('re:')) {
    const { source, target } = globSource(entry);
    return { source, target, size: RE2JS.compile(source).programSize() };
  }
  const source = entry.slice(3);
  if (!source) return refused(entry, 'empty regular expression', 'expression régulière vide');
  try {
    return { source, target: 'url', size: RE2JS.compile(source).programSize() };
  } catch (error) {
    const reason = error instanceof RE2JSSyntaxException ? syntaxReason(error) : { en: (error as Error).message, fr: (error as Error).message };
    return refused(entry, reason.en, reason.fr);
  }
}

/** Every entry compiled, or the first problem of the list: syntax first, then the bounds. */
function compileAll(source: string | null | undefined): Compiled[] | PatternProblem {
  if (source && source.length > PATTERN_LIMITS.fieldLength) {
    const n = PATTERN_LIMITS.fieldLength;
    return { entry: null, en: `Longer than ${n} characters`, fr: `Plus de ${n} caractères` };
  }
  const entries = splitPatterns(source);
  if (entries.length > PATTERN_LIMITS.entries) {
    const n = PATTERN_LIMITS.entries;
    return { entry: null, en: `${entries.length} entries, at most ${n}`, fr: `${entries.length} entrées, ${n} au plus` };
  }
  const compiled: Compiled[] = [];
  let size = 0;
  for (const entry of entries) {
    const result = compileEntry(entry);
    if ('en' in result) return result;
    compiled.push(result);
    size += result.size;
  }
  if (size > PATTERN_LIMITS.programSize) {
    const n = PATTERN_LIMITS.programSize;
    return {
      entry: null,
      en: `Too complex: the entries compile to ${size} RE2 instructions, at most ${n} (large repetition counts such as {500} cost the most)`,
      fr: `Trop complexe : les entrées donnent ${size} instructions RE2, ${n} au plus (les grands nombres de répétitions comme {500} coûtent le plus)`,
    };
  }
  return compiled;
}

/** Why a pattern list would be refused, or null: for validating campaign input. */
export function patternProblem(source: string | null | undefined): PatternProblem | null {
  const result = compileAll(source);
  return Array.isArray(result) ? null : result;
}

/** The English message of an invalid pattern list, or null. */
export function validatePatterns(source: string | null | undefined): string | null {
  return patternProblem(source)?.en ?? null;
}

function setOf(compiled: Compiled[], target: Compiled['target']): RE2Set | null {
  const sources = compiled.filter((c) => c.target === target).map((c) => c.source);
  if (sources.length === 0) return null;
  const set = new RE2Set(RE2Set.UNANCHORED);
  for (const source of sources) set.add(source);
  set.compile();
  return set;
}

/** Compiles a pattern list into one matcher; throws PatternError when the list would be refused. */
export function compilePatterns(source: string | null | undefined): UrlMatcher {
  const compiled = compileAll(source);
  if (!Array.isArray(compiled)) throw new PatternError(compiled);
  const onUrl = setOf(compiled, 'url');
  const onPath = setOf(compiled, 'path');
  return {
    size: compiled.length,
    matches(url: string): boolean {
      if (onUrl && onUrl.match(url).length > 0) return true;
      if (!onPath) return false;
      let pathAndQuery = url;
      try {
        const parsed = new URL(url);
        pathAndQuery = parsed.pathname + parsed.search;
      } catch {
        // not a URL (cannot happen for normalised URLs): match the raw text
      }
      return onPath.match(pathAndQuery).length > 0;
    },
  };
}
