/**
 * Words as their readers count them, in every script. Most scripts separate words with spaces, and
 * the word pattern's matches are the words; Chinese, Japanese, Thai, Lao, Khmer and Myanmar do not,
 * and a run of their letters is a sentence, not a word: such text is counted with Intl.Segmenter
 * (ICU's dictionary-based word breaks), in the page's language. The segmenter is several times
 * slower than the pattern, so only text holding one of those scripts goes through it, and V8's
 * segment iterator slows down with the length of its input (a 43,000-character text took a
 * second, four times less text a tenth of that), so it is given windows of at most WINDOW
 * characters, cut after a space or a punctuation mark where there is one.
 */

/** A letter of a script written without spaces between words. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/** Where a window may end without cutting a word. */
const BREAK = /[\s。，、．！？；：,.!?;:]/u;
const WINDOW = 200;

const segmenters = new Map<string, Intl.Segmenter>();

function segmenterFor(lang: string | null): Intl.Segmenter {
  const key = lang ?? '';
  let segmenter = segmenters.get(key);
  if (!segmenter) {
    try {
      segmenter = new Intl.Segmenter(lang || undefined, { granularity: 'word' });
    } catch {
      // An invalid lang (reported by lang_invalid) counts with the default locale's rules.
      segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });
    }
    if (segmenters.size < 64) segmenters.set(key, segmenter);
  }
  return segmenter;
}

/**
 * The words of `text`, given its matches of the word pattern (`words`) and the page's language.
 * `mayBeUnspaced` false says the text holds no code unit from U+0E00 up (page-language.ts
 * countScripts tells), where every script written without spaces lies: the pattern's matches are
 * its words, and the text is not scanned again.
 */
export function wordCount(text: string, words: readonly string[], lang: string | null, mayBeUnspaced = true): number {
  if (!mayBeUnspaced || !UNSPACED.test(text)) return words.length;
  const segmenter = segmenterFor(lang);
  let n = 0;
  for (let at = 0; at < text.length; ) {
    let end = Math.min(text.length, at + WINDOW);
    if (end < text.length) {
      let cut = end;
      while (cut > at + WINDOW / 2 && !BREAK.test(text[cut - 1])) cut--;
      if (cut > at + WINDOW / 2) end = cut;
    }
    for (const s of segmenter.segment(text.slice(at, end))) if (s.isWordLike) n++;
    at = end;
  }
  return n;
}
