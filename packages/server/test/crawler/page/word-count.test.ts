/** Words in every script, and code samples that are not prose. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { countScripts, emptyScriptCounts } from '../../../src/crawler/page/page-language.js';
import { HtmlAnalyser } from '../../../src/crawler/page/html-analyser.js';
import { wordCount } from '../../../src/crawler/page/word-count.js';
import { WORD } from '../../../src/crawler/page/text-hash.js';

function analyse(html: string) {
  const a = new HtmlAnalyser(['robots']);
  a.write(html);
  return a.end();
}
const page = (lang: string, body: string) => `<!doctype html><html lang="${lang}"><head><title>t</title></head><body><main>${body}</main></body></html>`;
const segmented = (text: string, lang: string) => [...new Intl.Segmenter(lang, { granularity: 'word' }).segment(text)].filter((s) => s.isWordLike).length;

describe('word counts', () => {
  it('counts Chinese, Japanese and Thai words as a segmenter does, not one word per run of letters', () => {
    const zh = '这是一个关于如何配置系统的简单例子，我们使用默认设置。';
    const ja = 'これはシステムを設定する方法についての簡単な例です。';
    const th = 'นี่คือตัวอย่างง่ายๆ ของการตั้งค่าระบบ';
    for (const [lang, text] of [['zh-CN', zh], ['ja', ja], ['th', th]] as const) {
      const expected = segmented(text, lang);
      expect(analyse(page(lang, `<p>${text}</p>`)).wordCount, lang).toBe(expected);
      // The pattern alone sees one or two "words" in a Chinese or Japanese sentence.
      if (lang !== 'th') expect(expected, lang).toBeGreaterThan((text.match(WORD) ?? []).length * 3);
    }
  });

  it('counts the same words when told by the script count that no code unit reaches U+0E00', () => {
    const pieces = ['word', ' ', 'été', 'ไทย', '日本語', 'かな', 'Привет', '。', '\u0dff', '\u0e00'];
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom(...pieces), fc.string({ maxLength: 6 })), { maxLength: 16 }), fc.constantFrom('en', 'ja', 'th', null), (parts, lang) => {
        const text = parts.join('');
        const words = text.match(WORD) ?? [];
        expect(wordCount(text, words, lang, countScripts(text, emptyScriptCounts()))).toBe(wordCount(text, words, lang));
      }),
    );
  });

  it('counts a long run of Chinese text in windows, as the segmenter counts it whole', () => {
    const text = '这是一个关于如何配置系统的简单例子，我们使用默认设置。'.repeat(300);
    expect(wordCount(text, [], 'zh-CN')).toBe(segmented(text, 'zh-CN'));
  });

  it('leaves space-separated scripts to the word pattern, and mixed text to the segmenter', () => {
    expect(wordCount('Alpha beta, well-known gamma.', ['Alpha', 'beta', 'well-known', 'gamma'], 'en')).toBe(4);
    expect(wordCount('한국어 문장은 띄어쓰기를 합니다', ['한국어', '문장은', '띄어쓰기를', '합니다'], 'ko')).toBe(4);
    expect(wordCount('使用 apt-get 安装软件', ['使用', 'apt', 'get', '安装软件'], 'zh-CN')).toBe(segmented('使用 apt-get 安装软件', 'zh-CN'));
    // An invalid lang still counts.
    expect(analyse(page('zz_not valid', '<p>这是一个例子</p>')).wordCount).toBe(segmented('这是一个例子', 'und'));
  });

  it('does not count code samples as prose, nor read them for placeholder text', () => {
    const html = page('en', '<p>One two three.</p><pre>let x = b"Lorem ipsum";\nprint(x)</pre><p>Run <code>apt-get install lorem</code> now.</p>');
    const facts = analyse(html);
    expect(facts.wordCount).toBe(5);
    expect(facts.textSample).not.toMatch(/lorem/i);
    // The code's words still make the page's fingerprint.
    expect(facts.mainWords).toContain('print');
  });
});
