/**
 * The language of a page (page-language.ts): the locale its URL names, the scripts of its text,
 * and when the text beyond doubt is not in the declared language.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { canonicalLanguage, countScripts, declaredLanguage, emptyScriptCounts, languageMismatch, pageLanguage, SCRIPTS, urlLocale } from '../../../src/crawler/page/page-language.js';

const counts = (text: string) => {
  const c = emptyScriptCounts();
  countScripts(text, c);
  return Object.fromEntries(SCRIPTS.map((s, i) => [s, c[i]]).filter(([, n]) => n !== 0));
};
const scripts = (text: string) => {
  const c = emptyScriptCounts();
  countScripts(text, c);
  return c;
};

const EN = 'The quick brown fox jumps over the lazy dog while the documentation explains every option of the command line in plain words. ';
// Debian Reference, ch01 (ja and zh-cn).
const JA = 'このチュートリアルでは、GNU/Linux システムの基本的な使い方を学びます。シェルのプロンプトからコマンドを入力して、ファイルを操作します。';
const ZH = '本章介绍如何使用 GNU/Linux 系统的基本知识。你将从命令行输入命令并操作文件，了解系统的结构与管理方法。';

describe('scripts of the text', () => {
  it('counts letters by script, digits and punctuation aside', () => {
    expect(counts('abc ÉTÉ 123 !?')).toEqual({ latin: 6 });
    expect(counts('日本語のテキスト')).toEqual({ han: 3, kana: 5 });
    expect(counts('中文文本')).toEqual({ han: 4 });
    expect(counts('한국어 Привет Ελληνικά')).toEqual({ hangul: 3, cyrillic: 6, greek: 8 });
    // The prolonged sound mark and the middle dot are not letters of one language.
    expect(counts('ー・、。')).toEqual({});
  });

  it('reads every code unit below U+0250 by the Latin ranges (the look-up table), and says when the text reaches U+0E00', () => {
    for (let c = 0; c < 0x250; c++) {
      const latin = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0xc0 && c !== 0xd7 && c !== 0xf7);
      expect(counts(String.fromCharCode(c)), c.toString(16)).toEqual(latin ? { latin: 1 } : {});
    }
    // The scripts written without spaces (Thai, Lao, Myanmar, Khmer, kana, Han) all lie at U+0E00 and above.
    const pieces = ['word ', 'été', '\u0dff', '\u0e00', 'ไทย', '日本', 'Привет', '\ud83d\ude00', '123', '\u024f', '\u0250'];
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom(...pieces), fc.string({ maxLength: 8 })), { maxLength: 12 }), (parts) => {
        const text = parts.join('');
        expect(countScripts(text, emptyScriptCounts())).toBe(/[\u0e00-\uffff]/.test(text));
      }),
    );
  });
});

describe('the locale a URL names', () => {
  it('reads a path segment, a language extension of the file name, or a host label', () => {
    expect(urlLocale('https://example.com/fr/produits/')).toBe('fr');
    expect(urlLocale('https://example.com/pt-BR/index.html')).toBe('pt-br');
    expect(urlLocale('https://example.com/docs/zh_CN/intro.html')).toBe('zh-cn');
    expect(urlLocale('https://example.com/ch01.ja.html')).toBe('ja');
    expect(urlLocale('https://example.com/ch01.zh-cn.html')).toBe('zh-cn');
    expect(urlLocale('https://de.example.com/about')).toBe('de');
  });

  it('does not read a language into an ordinary segment, extension or host', () => {
    for (const url of [
      'https://example.com/js/app.html',
      'https://example.com/ui/io/ts/',
      'https://example.com/a/b/c/fr/',
      'https://example.com/archive.tar.html',
      'https://example.com/setup.py.html',
      'https://www.example.com/',
      'https://my.example.com/account',
      'https://example.com/my/account',
      'https://example.com/ml/models/',
      'https://it.example.com/helpdesk',
      'https://example.com/',
    ]) {
      expect(urlLocale(url), url).toBeNull();
    }
  });

  it('declared wins over the URL', () => {
    expect(pageLanguage('https://example.com/fr/', 'en')).toEqual({ tag: 'en', fromUrl: false });
    expect(pageLanguage('https://example.com/fr/', null)).toEqual({ tag: 'fr', fromUrl: true });
    expect(pageLanguage('https://example.com/about', null)).toBeNull();
    expect(declaredLanguage(null, 'de-DE')).toBe('de-de');
    expect(declaredLanguage('EN-us', 'de')).toBe('en-us');
    expect(declaredLanguage(null, 'de, en')).toBeNull();
    expect(declaredLanguage(null, null, 'pt-BR')).toBe('pt-br');
    expect(declaredLanguage('fr', null, 'pt-BR')).toBe('fr');
    expect(canonicalLanguage('not a tag')).toBeNull();
  });

  it('answers a tag the same the second time, once ICU was asked (a tag a site repeats on every page)', () => {
    for (const tag of ['EN-us', 'en_GB', 'zz-top-secret-x', 'x', '', ' fr ', 'de, en', 'ja']) {
      const first = canonicalLanguage(tag);
      expect(canonicalLanguage(tag), tag).toBe(first);
    }
    expect(canonicalLanguage('en_GB')).toBe('en-gb');
    expect(canonicalLanguage(' fr ')).toBe('fr');
    // More tags than the memo keeps: still answered right.
    for (let i = 0; i < 600; i++) expect(canonicalLanguage(`en-x-p${i}`)).toBe(`en-x-p${i}`);
    expect(canonicalLanguage('EN-us')).toBe('en-us');
  });
});

describe('lang_mismatch', () => {
  it('finds Japanese or Chinese text declared English, and English declared Japanese', () => {
    expect(languageMismatch('en', scripts(JA.repeat(4)))).toMatch(/^lang="en" but \d+% of the text's letters are (Chinese characters|Japanese kana)$/);
    expect(languageMismatch('en', scripts(ZH.repeat(5)))).toMatch(/^lang="en" but \d+% of the text's letters are Chinese characters$/);
    expect(languageMismatch('ja', scripts(EN.repeat(3)))).toMatch(/^lang="ja" but 100% of the text's letters are Latin script$/);
  });

  it('tells Chinese declared Japanese (no kana) and Japanese declared Chinese (kana)', () => {
    expect(languageMismatch('ja', scripts(ZH.repeat(6)))).toMatch(/^lang="ja" but the text's \d+ Chinese characters come with no kana$/);
    expect(languageMismatch('zh-cn', scripts(JA.repeat(4)))).toMatch(/^lang="zh-cn" but \d+% of the text's Chinese characters are kana$/);
  });

  it('says nothing when the text is in the declared language, mixed with code words, or too short to tell', () => {
    expect(languageMismatch('ja', scripts(JA.repeat(4)))).toBeNull();
    expect(languageMismatch('zh-cn', scripts(ZH.repeat(5)))).toBeNull();
    // Technical Japanese: half its letters Latin (commands, product names).
    expect(languageMismatch('ja', scripts(`${JA} apt-get install aptitude synaptic GNU/Linux Debian`.repeat(4)))).toBeNull();
    expect(languageMismatch('en', scripts(EN.repeat(3)))).toBeNull();
    // English and French share a script: never judged.
    expect(languageMismatch('fr', scripts(EN.repeat(3)))).toBeNull();
    expect(languageMismatch('en', scripts(JA))).toBeNull();
    // A language whose script is not known here, or none declared.
    expect(languageMismatch('am', scripts(EN.repeat(3)))).toBeNull();
    expect(languageMismatch(null, scripts(JA.repeat(4)))).toBeNull();
  });

  it('never flags a text written only in its declared language’s scripts (property)', () => {
    const latin = fc.stringMatching(/^[a-zA-Zéèàç ]{0,400}$/);
    fc.assert(fc.property(latin, fc.constantFrom('en', 'fr', 'de-de', 'pt-br'), (text, lang) => languageMismatch(lang, scripts(text)) === null));
    const japanese = fc.array(fc.constantFrom(...[...JA].filter((c) => c.trim())), { maxLength: 600 }).map((a) => a.join(''));
    fc.assert(fc.property(japanese, (text) => languageMismatch('ja', scripts(`${JA}${text}`)) === null));
  });
});
