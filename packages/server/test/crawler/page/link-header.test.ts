/**
 * The Link header parser (crawler/page/link-header.ts): what a server writes comes back as written,
 * whatever its targets and quoted values hold (commas, semicolons, escaped quotes), and junk
 * between link values is skipped without losing the values around it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasRel, parseLinkHeader } from '../../../src/crawler/page/link-header.js';

const token = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/);
const target = fc.stringMatching(/^[^<>]{0,30}$/).map((s) => s.trim());
const quoted = fc.string({ maxLength: 20 }).filter((s) => !s.includes('\n'));
const link = fc.record({
  target,
  rel: fc.uniqueArray(token, { minLength: 1, maxLength: 3 }),
  params: fc.dictionary(token.filter((k) => k !== 'rel'), fc.oneof(token.map((v) => ({ v, quote: false })), quoted.map((v) => ({ v, quote: true }))), { maxKeys: 3 }),
});

type Written = { target: string; rel: string[]; params: Record<string, { v: string; quote: boolean }> };
/** A link value as a server writes it: quoted values with `\\` and `"` escaped. */
const serialise = (l: Written) =>
  [`<${l.target}>`, `rel="${l.rel.join(' ')}"`, ...Object.entries(l.params).map(([k, { v, quote }]) => (quote ? `${k}="${v.replace(/[\\"]/g, (c) => `\\${c}`)}"` : `${k}=${v}`))].join('; ');

describe('parseLinkHeader', () => {
  it('gives back every link value as written, in order', () => {
    fc.assert(
      fc.property(fc.array(link, { maxLength: 5 }), (links) => {
        const parsed = parseLinkHeader(links.map(serialise).join(', '));
        expect(parsed.map((p) => p.target)).toEqual(links.map((l) => l.target));
        links.forEach((l, i) => {
          for (const r of l.rel) expect(hasRel(parsed[i], r)).toBe(true);
          for (const [k, { v }] of Object.entries(l.params)) expect(parsed[i].params[k]).toBe(v);
        });
      }),
    );
  });

  it('reads hreflang alternates beside other relations, names and values in any case', () => {
    const parsed = parseLinkHeader('</a,b;c>; REL="Alternate Canonical"; HrefLang="fr-CA", junk; x=1, <https://x.test/de>;rel=alternate;hreflang=de, </css>; rel=preload; as=style; title="a, b; <c>"');
    expect(parsed.map((p) => [p.target, hasRel(p, 'alternate'), hasRel(p, 'canonical'), p.params.hreflang ?? null])).toEqual([
      ['/a,b;c', true, true, 'fr-CA'],
      ['https://x.test/de', true, false, 'de'],
      ['/css', false, false, null],
    ]);
    expect(parsed[2].params.title).toBe('a, b; <c>');
    // Parameters named like members of Object are parameters, and change no prototype.
    const [odd] = parseLinkHeader('</x>; rel=alternate; __proto__="y"; constructor=z; hreflang=fr');
    expect([odd.params.__proto__, odd.params.constructor, odd.params.hreflang]).toEqual(['y', 'z', 'fr']);
    expect(({} as Record<string, unknown>).y).toBeUndefined();
    expect(parseLinkHeader('')).toEqual([]);
    expect(parseLinkHeader(null)).toEqual([]);
    expect(parseLinkHeader('<unclosed; rel=alternate')).toEqual([]);
  });
});
