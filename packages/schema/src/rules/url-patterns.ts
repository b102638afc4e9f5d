/**
 * URL patterns of a campaign (`include_patterns`, `exclude_patterns`, `issue_exclusion_patterns`):
 * split, checked and compiled here, for the campaign validation (server and mock) and the crawler.
 * Syntax, bounds and examples: docs/decisions/url-normalisation.md, "Patterns". Globs are matched
 * by plain string search and `re:` entries by RE2 (re2js), both in time linear in the URL, with
 * bounds on the work per URL, so that one team's patterns cannot stall the process for others.
 */
import { RE2JS, RE2JSSyntaxException, RE2Set } from 're2js';

export const PATTERN_LIMITS = {
  /** Entries per field. */
  entries: 100,
  /** Characters per entry. */
  entryLength: 1_000,
  /** Characters per field, comments and separators included. */
  fieldLength: 10_000,
  /** RE2 program size of a field's `re:` entries together: the work per character of a URL. */
  programSize: 500,
  /** Characters of a URL an `re:` entry reads: what a start URL may hold. */
  matchedLength: 2_048,
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

/** A glob as its literal runs: `*` between them, a final `$` anchoring the end. */
interface Glob {
  runs: string[];
  fromStart: boolean;
  toEnd: boolean;
  /** Tested on the whole URL without case (globs with a scheme); otherwise on path and query. */
  full: boolean;
}

/** An entry compiled: a glob, or an `re:` expression and its RE2 program size. */
type Compiled = { glob: Glob } | { source: string; size: number };

function parseGlob(entry: string): Glob {
  const toEnd = entry.endsWith('$');
  const body = toEnd ? entry.slice(0, -1) : entry;
  const full = body.includes('://');
  return { runs: (full ? body.toLowerCase() : body).split('*'), fromStart: full || body.startsWith('/'), toEnd, full };
}

/**
 * Leftmost matching of each run in turn, which is exact for globs whose only operator is `*`:
 * linear in the text (native string search), with no regular expression involved.
 */
function globMatches(glob: Glob, text: string): boolean {
  const { runs, fromStart, toEnd } = glob;
  const first = runs[0];
  const last = runs[runs.length - 1];
  if (runs.length === 1) {
    if (fromStart) return toEnd ? text === first : text.startsWith(first);
    return toEnd ? text.endsWith(first) : text.includes(first);
  }
  let from = 0;
  if (fromStart) {
    if (!text.startsWith(first)) return false;
    from = first.length;
  } else {
    const at = text.indexOf(first);
    if (at < 0) return false;
    from = at + first.length;
  }
  let end = text.length;
  if (toEnd) {
    if (!text.endsWith(last) || text.length - last.length < from) return false;
    end = text.length - last.length;
  }
  for (let i = 1; i < runs.length - (toEnd ? 1 : 0); i++) {
    const at = text.indexOf(runs[i], from);
    if (at < 0 || at + runs[i].length > end) return false;
    from = at + runs[i].length;
  }
  return true;
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
  if (!entry.startsWith('re:')) return { glob: parseGlob(entry) };
  const source = entry.slice(3);
  if (!source) return refused(entry, 'empty regular expression', 'expression régulière vide');
  try {
    return { source, size: RE2JS.compile(source).programSize() };
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
    if ('size' in result) size += result.size;
  }
  if (size > PATTERN_LIMITS.programSize) {
    const n = PATTERN_LIMITS.programSize;
    return {
      entry: null,
      en: `Too complex: the re: entries compile to ${size} RE2 instructions, at most ${n} (repetition counts such as {100} cost the most)`,
      fr: `Trop complexe : les entrées re: donnent ${size} instructions RE2, ${n} au plus (les nombres de répétitions comme {100} coûtent le plus)`,
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

/** Compiles a pattern list into one matcher; throws PatternError when the list would be refused. */
export function compilePatterns(source: string | null | undefined): UrlMatcher {
  const compiled = compileAll(source);
  if (!Array.isArray(compiled)) throw new PatternError(compiled);
  const globs = compiled.flatMap((c) => ('glob' in c ? [c.glob] : []));
  const sources = compiled.flatMap((c) => ('source' in c ? [c.source] : []));
  // One RE2 program for every `re:` entry: each URL is read once.
  let expressions: RE2Set | null = null;
  if (sources.length > 0) {
    expressions = new RE2Set(RE2Set.UNANCHORED);
    for (const expression of sources) expressions.add(expression);
    expressions.compile();
  }
  return {
    size: compiled.length,
    matches(url: string): boolean {
      if (expressions && expressions.match(url.slice(0, PATTERN_LIMITS.matchedLength)).length > 0) return true;
      if (globs.length === 0) return false;
      let pathAndQuery = url;
      try {
        const parsed = new URL(url);
        pathAndQuery = parsed.pathname + parsed.search;
      } catch {
        // not a URL (cannot happen for normalised URLs): match the raw text
      }
      const lower = url.toLowerCase();
      return globs.some((glob) => globMatches(glob, glob.full ? lower : pathAndQuery));
    },
  };
}
