/** The links waiting on a target (crawler/pending-links.ts): in order, per target, capped, cells reused. */
import { describe, expect, it } from 'vitest';
import { isMarked, MAX_PENDING_SOURCES, PendingLinks, sourceOf } from '../../../src/crawler/site/pending-links.js';

describe('pending links', () => {
  it('gives back each target its own sources in the order they came, once', () => {
    const p = new PendingLinks();
    p.add(5, 1);
    p.add(9, 2);
    p.add(5, 3);
    p.add(5000, 4);
    expect(p.take(5)).toEqual([1, 3]);
    expect(p.take(5)).toEqual([]);
    expect(p.take(9)).toEqual([2]);
    expect(p.take(5000)).toEqual([4]);
    expect(p.take(123_456)).toEqual([]);
  });

  it('keeps at most MAX_PENDING_SOURCES per target, says which links it dropped, and counts again once taken', () => {
    const p = new PendingLinks();
    const kept = Array.from({ length: MAX_PENDING_SOURCES + 5 }, (_, s) => p.add(1, s));
    expect(kept.filter(Boolean)).toHaveLength(MAX_PENDING_SOURCES);
    expect(kept.slice(MAX_PENDING_SOURCES)).toEqual([false, false, false, false, false]);
    expect(p.take(1)).toHaveLength(MAX_PENDING_SOURCES);
    expect(p.add(1, 7)).toBe(true);
    expect(p.take(1)).toEqual([7]);
  });

  it('gives marked links back marked, source 0 included', () => {
    const p = new PendingLinks();
    p.add(3, 0, true);
    p.add(3, 0);
    p.add(3, 42, true);
    p.add(3, 9);
    const entries = p.take(3);
    expect(entries.map((e) => [sourceOf(e), isMarked(e)])).toEqual([
      [0, true],
      [0, false],
      [42, true],
      [9, false],
    ]);
  });

  it('matches a map of arrays over a long random sequence of adds and takes', () => {
    const p = new PendingLinks();
    const model = new Map<number, number[]>();
    let seed = 3;
    const rand = (n: number) => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n;
    for (let step = 0; step < 50_000; step++) {
      const target = rand(500);
      if (rand(4) === 0) {
        expect(p.take(target)).toEqual(model.get(target) ?? []);
        model.delete(target);
      } else {
        const source = rand(100_000);
        p.add(target, source);
        model.set(target, [...(model.get(target) ?? []), source]);
      }
    }
  });
});
