/**
 * The pattern language of campaigns (docs/decisions/url-normalisation.md, "Patterns"): what is
 * accepted, what is refused and why, and that matching cannot backtrack. Glob semantics are also
 * covered by packages/server/test/crawler/url.test.ts, through the crawler's re-export.
 */
import { describe, expect, it } from 'vitest';
import { CreateCampaignBody, UpdateCampaignBody } from '@siteaudit/schema';
import { fieldErrors } from '../../src/rules/problem-bodies.js';
import { PATTERN_LIMITS, PatternError, compilePatterns, patternProblem, splitPatterns } from '../../src/rules/url-patterns.js';

const u = (path: string) => `https://example.com${path}`;

describe('pattern syntax', () => {
  it('splits lines, commas between globs, comments and blanks', () => {
    expect(splitPatterns('/a/, /b/\n# note\n\n  re:x,y  \r\n*.pdf$')).toEqual(['/a/', '/b/', 're:x,y', '*.pdf$']);
    expect(splitPatterns(null)).toEqual([]);
  });

  it('accepts RE2 syntax: classes, counted repeats, flags, named groups, Unicode classes', () => {
    const m = compilePatterns('re:/p/\\d{4,}$\nre:(?i)/BLOG/\nre:/(?P<lang>en|fr)/\nre:/\\pL+-\\d+$\nre:\\Q?x=1\\E');
    expect(m.size).toBe(5);
    expect(m.matches(u('/p/12345'))).toBe(true);
    expect(m.matches(u('/p/123'))).toBe(false);
    expect(m.matches(u('/blog/post'))).toBe(true);
    expect(m.matches(u('/fr/page'))).toBe(true);
    expect(m.matches(u('/café-12'))).toBe(true);
    expect(m.matches(u('/list?x=1'))).toBe(true);
    expect(m.matches(u('/list?y=1'))).toBe(false);
  });

  it('keeps glob semantics: path prefix, * any run, final $, literal ? and ., scheme globs on the whole URL without case', () => {
    const m = compilePatterns('/blog/\n/shop/*/reviews, *.pdf$\n/search?q=\nHTTPS://EXAMPLE.COM/en/');
    expect(m.matches(u('/blog/post?x=1'))).toBe(true);
    expect(m.matches(u('/about/blog/'))).toBe(false);
    expect(m.matches(u('/shop/a/b/reviews/2'))).toBe(true);
    expect(m.matches(u('/files/a.pdf'))).toBe(true);
    expect(m.matches(u('/files/a.pdf?dl=1'))).toBe(false);
    expect(m.matches(u('/files/aXpdf'))).toBe(false);
    expect(m.matches(u('/search?q=x'))).toBe(true);
    expect(m.matches(u('/searchXq='))).toBe(false);
    expect(m.matches(u('/en/page'))).toBe(true);
    expect(m.matches('http://example.com/en/page')).toBe(false);
    expect(compilePatterns('utm_source=').matches(u('/p?a=1&utm_source=x'))).toBe(true);
    expect(compilePatterns('example').matches(u('/'))).toBe(false);
  });

  it('a glob full of stars still matches, and fails, on long URLs', () => {
    const m = compilePatterns(`/${'*a'.repeat(200)}*b$`);
    expect(m.matches(u(`/${'a'.repeat(5_000)}`))).toBe(false);
    expect(m.matches(u(`/${'a'.repeat(5_000)}b`))).toBe(true);
  });

  it('reads at most the first 2,048 characters of a URL with re: entries, and all of it with globs', () => {
    const url = u(`/${'x'.repeat(PATTERN_LIMITS.matchedLength)}.pdf`);
    expect(compilePatterns('re:\\.pdf$').matches(url)).toBe(false);
    expect(compilePatterns('*.pdf$').matches(url)).toBe(true);
    expect(compilePatterns('re:^https://example\\.com/x').matches(url)).toBe(true);
  });

  it('runs catastrophic expressions in linear time instead of backtracking', () => {
    // With a backtracking engine each of these would not finish on 2,000 characters.
    const url = u(`/${'a'.repeat(2_000)}`);
    expect(compilePatterns('re:(a+)+b').matches(url)).toBe(false);
    expect(compilePatterns('re:^(a|aa)+$').matches(`${'a'.repeat(2_000)}!`)).toBe(false);
    expect(compilePatterns('re:(.*a){20}b').matches(url)).toBe(false);
    expect(compilePatterns('re:(a+)+b').matches(`${url}b`)).toBe(true);
  });
});

describe('pattern refusals', () => {
  const reason = (source: string) => patternProblem(source)?.en;

  it('names the entry and the JavaScript-only construct RE2 lacks', () => {
    expect(reason('/ok/\nre:(a)\\1')).toBe('Pattern "re:(a)\\1": "\\1" (backreference) is not supported: patterns use RE2 syntax, matched in linear time');
    expect(reason('re:/a(?=b)')).toMatch(/^Pattern "re:\/a\(\?=b\)": "\(\?=" \(lookahead or lookbehind\) is not supported/);
    expect(reason('re:(?!x)')).toMatch(/"\(\?!" \(lookahead or lookbehind\)/);
    expect(reason('re:(?<=a)b')).toMatch(/"\(\?<=" \(lookahead or lookbehind\)/);
    expect(reason('re:(?<!a)b')).toMatch(/"\(\?<!" \(lookahead or lookbehind\)/);
    expect(reason('re:a++')).toMatch(/"\+\+" \(possessive quantifier\)/);
    expect(reason('re:(?<n>a)\\k<n>')).toMatch(/\(backreference\)/);
    expect(reason('re:([')).toMatch(/^Pattern "re:\(\[": not a valid RE2 expression \(missing closing \]/);
    expect(reason('re:')).toBe('Pattern "re:": empty regular expression');
    expect(patternProblem('re:(a)\\1')?.fr).toMatch(/^Motif « re:\(a\)\\1 » : « \\1 » \(renvoi arrière\) n'est pas accepté/);
  });

  it('bounds entries, their length, the field length and the compiled size', () => {
    const { entries, entryLength, fieldLength, programSize } = PATTERN_LIMITS;
    expect(patternProblem(Array.from({ length: entries }, (_, i) => `/p${i}/`).join('\n'))).toBeNull();
    expect(reason(Array.from({ length: entries + 1 }, (_, i) => `/p${i}/`).join('\n'))).toBe(`${entries + 1} entries, at most ${entries}`);
    expect(patternProblem(`/${'x'.repeat(entryLength - 1)}`)).toBeNull();
    expect(reason(`/${'x'.repeat(entryLength)}`)).toMatch(new RegExp(`^Pattern "/x+\\.\\.\\.": longer than ${entryLength} characters$`));
    expect(reason(`# ${'x'.repeat(fieldLength)}`)).toBe(`Longer than ${fieldLength} characters`);
    // Repeats of a class are short to write and costly to run; globs do not count (no RE2 program).
    expect(patternProblem(Array.from({ length: 4 }, (_, i) => `re:\\pL{100}${i}`).join('\n'))).toBeNull();
    expect(reason(Array.from({ length: 5 }, (_, i) => `re:\\pL{100}${i}`).join('\n'))).toMatch(new RegExp(`^Too complex: the re: entries compile to \\d+ RE2 instructions, at most ${programSize}`));
    expect(patternProblem(Array.from({ length: entries }, (_, i) => `/${'x'.repeat(90)}${i}/*`).join('\n'))).toBeNull();
  });

  it('throws PatternError with the problem from compilePatterns', () => {
    expect(() => compilePatterns('re:(?=a)')).toThrow(PatternError);
  });

  it('refuses at campaign create and update, by field, in English and French', () => {
    const base = { name: 'n', start_url: 'https://example.com/', max_depth: 1, max_urls: 1 };
    const created = CreateCampaignBody.safeParse({ ...base, issue_exclusion_patterns: 're:(a)\\1', exclude_patterns: '/ok/' });
    expect(created.success).toBe(false);
    const en = fieldErrors(created.error!.issues, 'en');
    expect(Object.keys(en)).toEqual(['issue_exclusion_patterns']);
    expect(en.issue_exclusion_patterns[0].message).toMatch(/^Pattern "re:\(a\)\\1": "\\1" \(backreference\) is not supported/);
    expect(fieldErrors(created.error!.issues, 'fr').issue_exclusion_patterns[0].message).toMatch(/^Motif « re:\(a\)\\1 »/);

    const updated = UpdateCampaignBody.safeParse({ include_patterns: 're:(?<=x)y', exclude_patterns: 'x'.repeat(PATTERN_LIMITS.fieldLength + 1) });
    const errors = fieldErrors(updated.error!.issues, 'en');
    expect(errors.include_patterns[0].message).toMatch(/lookahead or lookbehind/);
    expect(errors.exclude_patterns).toEqual([{ code: 'too_big', message: expect.any(String) }]);
    expect(UpdateCampaignBody.safeParse({ include_patterns: 're:(a+)+b', exclude_patterns: null }).success).toBe(true);
  });
});
