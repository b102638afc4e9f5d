/** The seen-URL set (crawler/url-set.ts) against a Map: same ids, same URLs back, across growth. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UrlSet } from '../../../src/crawler/run/url-set.js';

/** Characters on either side of ASCII's end (U+007F), where a look-up switches from the string's characters to its UTF-8 bytes. */
const AROUND_ASCII = fc.constantFrom('a', '/', '%', '\u007f', '\u0080', 'é', '\u00ff', '\u0100', '✓', '😀');

describe('the seen-URL set', () => {
  it('gives ids in order of addition, finds each URL again and gives it back whole', () => {
    const set = new UrlSet();
    const model = new Map<string, number>();
    const urls: string[] = [];
    for (let i = 0; i < 30_000; i++) {
      // Repeats, long URLs (past the 4 KB scratch), non-ASCII (a URL not normalised).
      const url = i % 7 === 3 ? urls[(i * 31) % urls.length] : i % 1000 === 1 ? `https://x.example/${'a'.repeat(5000)}${i}` : `https://x.example/p/${i}?q=${i % 13}${i % 500 === 2 ? 'é✓' : ''}`;
      const { id, created } = set.add(url);
      expect(created).toBe(!model.has(url));
      if (created) {
        expect(id).toBe(model.size);
        model.set(url, id);
        urls.push(url);
      } else expect(id).toBe(model.get(url));
    }
    expect(set.size).toBe(model.size);
    for (const [url, id] of model) {
      expect(set.get(url)).toBe(id);
      expect(set.url(id)).toBe(url);
    }
    expect(set.get('https://x.example/p/absent')).toBeUndefined();
  });

  it('agrees with a Map on any sequence of strings', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string({ maxLength: 40, unit: 'binary' }), fc.string({ maxLength: 40 }), fc.string({ maxLength: 8, unit: AROUND_ASCII })), { maxLength: 300 }), (strings) => {
        const set = new UrlSet();
        const model = new Map<string, number>();
        for (const s of strings) {
          const { id } = set.add(s);
          if (!model.has(s)) model.set(s, model.size);
          expect(id).toBe(model.get(s));
        }
        for (const [s, id] of model) {
          expect(set.url(id)).toBe(s);
          // Found again whichever way it is looked up: ASCII from its characters, the rest from its bytes.
          expect(set.get(s)).toBe(id);
        }
      }),
    );
  });
});
