/**
 * The indexed near-duplicate search (crawler/near-duplicates.ts) against every pair compared:
 * the same pages, counts and examples, on hashes built to collide (copies with a few bits
 * flipped, groups of equal simhashes, exact duplicates inside them).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_EXACT_DISTANCE, nearDuplicatesIndexed, nearDuplicatesPairwise, type SimhashColumns } from '../../../src/crawler/site/near-duplicates.js';

/** Pages built from a few ancestors: each a copy of one with some bits flipped, some repeated whole. */
function columns(spec: { ancestor: number; flips: number[]; content: number }[], ancestors: [number, number][]): SimhashColumns {
  const n = spec.length;
  const c: SimhashColumns = { simHi: new Uint32Array(n), simLo: new Uint32Array(n), contentKey: new Float64Array(n) };
  spec.forEach((page, id) => {
    let [hi, lo] = ancestors[page.ancestor % ancestors.length];
    for (const bit of page.flips) {
      if (bit < 32) lo = (lo ^ (1 << bit)) >>> 0;
      else hi = (hi ^ (1 << (bit - 32))) >>> 0;
    }
    c.simHi[id] = hi;
    c.simLo[id] = lo;
    // Equal content implies equal words, hence an equal simhash: only pages without flips share content.
    c.contentKey[id] = page.flips.length === 0 ? page.ancestor * 10 + (page.content % 3) : 1000 + id;
  });
  return c;
}

const sorted = (m: Map<number, { count: number; example: number }>) => [...m].sort((a, b) => a[0] - b[0]);

describe('near-duplicate search', () => {
  it('finds exactly the pairs, counts and examples of the pairwise comparison up to distance 8', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.integer({ min: 0, max: 2 ** 32 - 1 })), { minLength: 1, maxLength: 6 }),
        fc.array(fc.record({ ancestor: fc.nat(5), flips: fc.array(fc.integer({ min: 0, max: 63 }), { maxLength: 9 }), content: fc.nat(2) }), { minLength: 2, maxLength: 120 }),
        fc.integer({ min: 0, max: MAX_EXACT_DISTANCE }),
        fc.integer({ min: 1, max: 5 }),
        (ancestors, spec, k, extra) => {
          const c = columns(spec, ancestors);
          const ids = spec.map((_, i) => i);
          const expected = sorted(nearDuplicatesPairwise(c, ids, k));
          // The plan chosen for the size, and m = k + extra blocks (keys of `extra` blocks).
          expect(sorted(nearDuplicatesIndexed(c, ids, k))).toEqual(expected);
          expect(sorted(nearDuplicatesIndexed(c, ids, k, k + extra))).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('stays exact on a large site of random pages with near copies and template groups', () => {
    let seed = 7;
    const rand = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
    const ancestors: [number, number][] = Array.from({ length: 3000 }, () => [Math.floor(rand() * 2 ** 32), Math.floor(rand() * 2 ** 32)]);
    const spec = Array.from({ length: 6000 }, (_, i) => ({
      ancestor: i % 3 === 0 ? 0 : Math.floor(rand() * ancestors.length),
      flips: Array.from({ length: Math.floor(rand() * 10) }, () => Math.floor(rand() * 64)),
      content: Math.floor(rand() * 3),
    }));
    const c = columns(spec, ancestors);
    const ids = spec.map((_, i) => i);
    for (const k of [0, 3, 6, 8]) {
      const expected = sorted(nearDuplicatesPairwise(c, ids, k));
      expect(sorted(nearDuplicatesIndexed(c, ids, k))).toEqual(expected);
      expect(sorted(nearDuplicatesIndexed(c, ids, k, k + 2))).toEqual(expected);
    }
  });

  it('reports a cluster of close pages with lower-bound counts when a run is capped, the other pages exactly', () => {
    let seed = 11;
    const rand = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
    const random = (): [number, number] => [Math.floor(rand() * 2 ** 32), Math.floor(rand() * 2 ** 32)];
    // 1,500 variant pages within 3 bits of one template (all within 6 of each other), then 500 others.
    const ancestors: [number, number][] = [random(), ...Array.from({ length: 500 }, random)];
    const spec = Array.from({ length: 2000 }, (_, i) => ({
      ancestor: i < 1500 ? 0 : i - 1499,
      flips: i < 1500 ? Array.from({ length: 3 }, () => Math.floor(rand() * 64)) : [],
      content: 0,
    }));
    const c = columns(spec, ancestors);
    const ids = spec.map((_, i) => i);
    const expected = nearDuplicatesPairwise(c, ids, 6);
    const found = nearDuplicatesIndexed(c, ids, 6, undefined, 32);
    expect([...found.keys()].sort((a, b) => a - b)).toEqual([...expected.keys()].sort((a, b) => a - b));
    for (const [id, m] of found) {
      const truth = expected.get(id)!;
      expect(m.example).toBe(truth.example);
      if (id < 1500) {
        expect(m.atLeast).toBe(true);
        expect(m.count).toBeGreaterThanOrEqual(31);
        expect(m.count).toBeLessThanOrEqual(truth.count);
      } else expect(m).toEqual(truth);
    }
    // Uncapped (a cap above the cluster), the search is exact again.
    expect(sorted(nearDuplicatesIndexed(c, ids, 6, undefined, 2000))).toEqual(sorted(expected));
  });
});
