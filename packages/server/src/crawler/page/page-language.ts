/**
 * The language of a page, as the page declares it and as its text is written.
 *
 * - **Declared**: `<html lang>`, else a single-valued `Content-Language` header, else the page's
 *   own hreflang entry (what browsers, screen readers and Google's documentation on localized
 *   versions read; Google itself ignores the attribute for ranking, which is why a wrong one is
 *   worth a finding).
 * - **Located**: a locale in the URL, as multi-language sites put one: a path segment among the
 *   first two (`/fr/`, `/pt-BR/`, `/docs/zh_CN/`), a language extension of the file name before its
 *   type (`index.ja.html`, Apache's content negotiation and Debian's web site), or the first label
 *   of the host (`de.example.com`). A bare two-letter code counts only when it is a language of
 *   WEB_LANGUAGES (`/it/` is Italian, `/js/` and `/ui/` are nothing).
 * - **Written**: the script of the page's prose (main content, code samples aside): how many of
 *   its letters are Latin, Han, kana, Hangul, Cyrillic… (`scriptCounts`).
 *
 * A page's language version (`pageLanguage`) is the declared language, else the located one.
 * `languageMismatch` compares the declared language with the script of the text, and answers only
 * when the text says so beyond doubt (docs/checks.md, lang_mismatch): no guess between languages
 * that share a script (English and French are both Latin), and enough letters to judge.
 */
import { CHECK_DETAILS as D } from '@siteaudit/schema/rules';
import { isLocaleSegment } from './url-hygiene.js';

/** Scripts counted in a page's prose: the index of each in `HtmlFacts.scripts`. */
export const SCRIPTS = ['latin', 'han', 'kana', 'hangul', 'cyrillic', 'greek', 'arabic', 'hebrew', 'thai', 'devanagari'] as const;
export type Script = (typeof SCRIPTS)[number];
const S = Object.fromEntries(SCRIPTS.map((s, i) => [s, i])) as Record<Script, number>;

/** A fresh count per script (plain numbers: it crosses to and from page-analysis threads). */
export function emptyScriptCounts(): number[] {
  return SCRIPTS.map(() => 0);
}

/** Which script a UTF-16 code unit belongs to (SCRIPTS index), or -1 for anything else (digits, punctuation, spaces). */
function scriptOf(c: number): number {
  if (c < 0x80) return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) ? S.latin : -1;
  if (c >= 0xc0 && c <= 0x24f) return c === 0xd7 || c === 0xf7 ? -1 : S.latin;
  if (c >= 0x370 && c <= 0x3ff) return S.greek;
  if (c >= 0x400 && c <= 0x52f) return S.cyrillic;
  if (c >= 0x590 && c <= 0x5ff) return S.hebrew;
  if (c >= 0x600 && c <= 0x6ff) return S.arabic;
  if (c >= 0x900 && c <= 0x97f) return S.devanagari;
  if (c >= 0xe00 && c <= 0xe7f) return S.thai;
  if (c >= 0x1100 && c <= 0x11ff) return S.hangul;
  if (c >= 0x1e00 && c <= 0x1eff) return S.latin;
  if ((c >= 0x3041 && c <= 0x309f && c !== 0x309b && c !== 0x309c) || (c >= 0x30a1 && c <= 0x30fa) || (c >= 0x31f0 && c <= 0x31ff)) return S.kana;
  if (c >= 0x3130 && c <= 0x318f) return S.hangul;
  if ((c >= 0x3400 && c <= 0x4dbf) || (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff)) return S.han;
  if (c >= 0xac00 && c <= 0xd7af) return S.hangul;
  if (c >= 0xff66 && c <= 0xff9d) return S.kana;
  if ((c >= 0xff21 && c <= 0xff3a) || (c >= 0xff41 && c <= 0xff5a)) return S.latin;
  return -1;
}

/** SCRIPTS index + 1 of each code unit below LOW_END (0: not a letter), where most prose is written. */
const LOW_END = 0x250;
const LOW_SCRIPTS = Uint8Array.from({ length: LOW_END }, (_, c) => scriptOf(c) + 1);
/** Where the scripts written without spaces between words begin (Thai; Lao, Myanmar, Khmer, kana and Han lie above). */
const UNSPACED_FROM = 0xe00;

/**
 * Adds the letters of `text` to `counts`, by script; true when the text holds a code unit at or
 * above UNSPACED_FROM, so may be written without spaces (word-count.ts). A look-up a code unit
 * below U+0250: the prose of most pages, counted twice as fast as by comparisons.
 */
export function countScripts(text: string, counts: number[]): boolean {
  let high = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < LOW_END) {
      const s = LOW_SCRIPTS[c];
      if (s !== 0) counts[s - 1]++;
    } else {
      if (c >= UNSPACED_FROM) high = true;
      const s = scriptOf(c);
      if (s >= 0) counts[s]++;
    }
  }
  return high;
}

/**
 * Languages a bare two-letter URL segment, file extension or host label is read as: the languages
 * of the web's multi-language sites. Any ISO 639 code would read `/io/`, `/ts/` or `/ch/` as a
 * language.
 */
const WEB_LANGUAGES = new Set(
  ('af am ar az be bg bn bs ca cs cy da de el en eo es et eu fa fi fr ga gl gu he hi hr hu hy id is it ja ka kk km kn ko ' +
    'lo lt lv mk ml mn mr ms my nb ne nl nn no pa pl pt ro ru si sk sl sq sr sv sw ta te th tl tr uk ur uz vi zh zu').split(' '),
);
/** Host labels that are a language code but mostly mean something else as a subdomain. */
const NOT_LANGUAGE_HOSTS = new Set(['my', 'id', 'is', 'it', 'am', 'no', 'ne', 'be', 'si']);
/** Bare folder names that are a language code but mostly mean something else (`/my/account`, `/ml/`, `/is/`). */
const NOT_LANGUAGE_FOLDERS = new Set(['my', 'ml', 'am', 'be', 'is', 'no', 'si']);

/** A locale as written in a URL (`fr`, `pt-BR`, `zh_CN`, `zh-cn`), lower-cased with hyphens; null when it is none. */
export function localeOfSegment(segment: string): string | null {
  const s = segment.replace(/_/g, '-');
  const language = s.split('-')[0].toLowerCase();
  if (!WEB_LANGUAGES.has(language)) return null;
  if (s.length === 2) return /^[a-z]{2}$/i.test(s) ? language : null;
  return isLocaleSegment(s) ? s.toLowerCase() : null;
}

/** The locale a URL names (path segment, file extension, host label), or null. */
export function urlLocale(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const segments = parsed.pathname.split('/').slice(1);
  const file = segments.pop() ?? '';
  for (const segment of segments.slice(0, 2)) {
    if (NOT_LANGUAGE_FOLDERS.has(segment)) continue;
    const locale = localeOfSegment(segment);
    if (locale) return locale;
  }
  // index.ja.html, ch01.zh-cn.html, page.pt-BR.php: a language between the name and the type.
  const ext = /^[^.]+\.([a-z]{2}(?:[-_][a-z0-9]{2,4}){0,2})\.[a-z0-9]{2,5}$/i.exec(file);
  if (ext) {
    const locale = localeOfSegment(ext[1]);
    if (locale) return locale;
  }
  const label = parsed.hostname.split('.')[0];
  if (parsed.hostname.split('.').length >= 3 && !NOT_LANGUAGE_HOSTS.has(label)) return localeOfSegment(label);
  return null;
}

/** A declared language tag, canonical and lower-cased (`EN-us` → `en-us`); null when absent or not a language tag. */
export function canonicalLanguage(tag: string | null | undefined): string | null {
  if (!tag) return null;
  // A site declares the same few tags on every page: ICU is asked once per tag (a page's lang
  // was about 2 % of its analysis on a templated site).
  let known = canonicalTags.get(tag);
  if (known === undefined) {
    if (canonicalTags.size >= 256) canonicalTags.clear();
    known = canonicalTag(tag);
    canonicalTags.set(tag, known);
  }
  return known;
}

const canonicalTags = new Map<string, string | null>();

function canonicalTag(tag: string): string | null {
  const t = tag.trim().replace(/_/g, '-');
  if (!t || t.includes(',') || t.includes(' ')) return null;
  try {
    const [canonical] = Intl.getCanonicalLocales(t);
    return canonical && /^[a-z]{2,3}(-|$)/i.test(canonical) ? canonical.toLowerCase() : null;
  } catch {
    return null;
  }
}

/**
 * The language a page declares: `<html lang>`, else a Content-Language header naming one
 * language, else the language its own hreflang annotation gives it (the entry naming the page itself).
 */
export function declaredLanguage(htmlLang: string | null, contentLanguage: string | null, hreflangSelf: string | null = null): string | null {
  return canonicalLanguage(htmlLang) ?? canonicalLanguage(contentLanguage) ?? canonicalLanguage(hreflangSelf);
}

/** The page's language version: declared, else named by its URL; and whether the URL named it. */
export function pageLanguage(url: string, declared: string | null): { tag: string; fromUrl: boolean } | null {
  if (declared) return { tag: declared, fromUrl: false };
  const located = urlLocale(url);
  return located ? { tag: located, fromUrl: true } : null;
}

/** The primary language of a tag (`zh-cn` → `zh`). */
export function primaryLanguage(tag: string): string {
  return tag.split('-')[0];
}

/** Letters of prose below which the script says nothing sure about the language. */
export const MIN_LETTERS = 200;

/** Scripts each language is written in, where the script tells languages apart; other languages are not judged. */
const LANGUAGE_SCRIPTS: Record<string, readonly Script[]> = {
  ja: ['han', 'kana'],
  zh: ['han'],
  ko: ['hangul', 'han'],
  ru: ['cyrillic'], uk: ['cyrillic'], bg: ['cyrillic'], be: ['cyrillic'], mk: ['cyrillic'], kk: ['cyrillic'], mn: ['cyrillic'],
  el: ['greek'],
  ar: ['arabic'], fa: ['arabic'], ur: ['arabic'],
  he: ['hebrew'],
  th: ['thai'],
  hi: ['devanagari'], mr: ['devanagari'], ne: ['devanagari'],
};
for (const l of 'en fr de es it pt nl sv da no nb nn fi pl cs sk hu ro tr id ms vi ca eu gl hr sl et lv lt is ga cy af sw tl sq eo'.split(' ')) LANGUAGE_SCRIPTS[l] = ['latin'];

/**
 * Why the prose of a page cannot be in its declared language, or null when it can (or when the
 * text is too short, or the language not one whose script tells). Sure cases only:
 * - most letters (70 % or more) are of scripts the declared language is not written in, and its
 *   own scripts have under 10 % (an English page declared `ja`, a Japanese one declared `en`);
 *   the finding names the most frequent of those scripts and its share;
 * - a page declared in a Latin-script language whose letters are 20 % or more Japanese kana, or
 *   50 % or more Chinese characters, kana and Hangul (CJK prose counts fewer letters per word:
 *   the Japanese chapters of the Debian Reference have 19 to 86 % Latin letters);
 * - a page declared Japanese whose many Chinese characters come with no kana at all (Japanese
 *   prose cannot do without its particles), or declared Chinese with kana among them (5 % or more
 *   of its Han and kana).
 */
export function languageMismatch(declared: string | null, counts: readonly number[]): string | null {
  if (!declared) return null;
  const language = primaryLanguage(declared);
  const scripts = LANGUAGE_SCRIPTS[language];
  if (!scripts) return null;
  const total = counts.reduce((a, b) => a + b, 0);
  if (total < MIN_LETTERS) return null;
  const own = scripts.reduce((n, s) => n + counts[S[s]], 0);
  // The most frequent of the scripts the language is not written in, named in the finding.
  let top = -1;
  for (let i = 0; i < counts.length; i++) if (!scripts.includes(SCRIPTS[i]) && (top < 0 || counts[i] > counts[top])) top = i;
  const han = counts[S.han];
  const kana = counts[S.kana];
  const percent = (i: number) => Math.round((100 * counts[i]) / total);
  if (total - own >= 0.7 * total && own < 0.1 * total) return D.langMismatchScript(declared, percent(top), SCRIPTS[top]);
  if (scripts.includes('latin')) {
    // A CJK letter is a syllable or a word, a Latin one a fraction of a word: Japanese and Chinese
    // technical prose has 20 to 50 % Latin letters (commands, names), so it is told by its kana
    // (never in Latin-script prose in bulk) or its Han and Hangul outweighing the Latin letters.
    if (kana >= 0.2 * total) return D.langMismatchScript(declared, percent(S.kana), 'kana');
    const cjk = han + kana + counts[S.hangul];
    if (cjk >= 0.5 * total) return D.langMismatchScript(declared, percent(top), SCRIPTS[top]);
  }
  if (language === 'ja' && han >= MIN_LETTERS && kana === 0) return D.langMismatchNoKana(declared, han);
  if (language === 'zh' && han + kana >= MIN_LETTERS && kana >= 0.05 * (han + kana)) return D.langMismatchKana(declared, Math.round((100 * kana) / (han + kana)));
  return null;
}
