/**
 * The PageSpeed step's pure parts: which pages form the sample, how measurements become a
 * PageSpeedResult (null strategies, never 0; combined = mean of the measured strategies;
 * failed = every measurement refused), which pages are slow, and how the health score takes it in.
 */
import { describe, expect, it } from 'vitest';
import { chooseSample, healthWithPageSpeed, measureSample, slowPages, summarise } from '../../src/modules/crawls/pagespeed-step.js';
import type { PageSpeedMeasurement, PageSpeedProvider } from '../../src/providers/index.js';

const S = 'https://shop.test';
const page = (path: string, depth: number, seq: number) => ({ url: `${S}${path}`, depth, seq });

describe('the PageSpeed sample', () => {
  it('is the home page and the shallowest page of the largest sections, at most four', () => {
    const sample = chooseSample([
      page('/', 0, 0),
      page('/shoes/', 1, 1),
      page('/shoes/running', 2, 5),
      page('/shoes/trail', 2, 6),
      page('/bags/', 1, 2),
      page('/bags/small', 2, 7),
      page('/about', 1, 3),
      page('/blog/post-1', 2, 8),
      page('/blog/post-2', 2, 9),
      page('/blog/post-3', 3, 10),
      page('/contact', 1, 4),
      page('/?page=2', 1, 11),
    ]);
    expect(sample).toEqual([
      { url: `${S}/`, role: 'home' },
      // Three pages each: the shallower section first.
      { url: `${S}/shoes/`, role: 'category' },
      { url: `${S}/blog/post-1`, role: 'category' },
      { url: `${S}/bags/`, role: 'category' },
      { url: `${S}/about`, role: 'category' },
    ]);
  });

  it('takes sections below the start directory, and is empty without a page', () => {
    expect(chooseSample([page('/fr/', 0, 0), page('/fr/chaussures/', 1, 1), page('/fr/chaussures/a', 2, 2), page('/en/', 1, 3)])).toEqual([
      { url: `${S}/fr/`, role: 'home' },
      { url: `${S}/fr/chaussures/`, role: 'category' },
      { url: `${S}/en/`, role: 'category' },
    ]);
    expect(chooseSample([])).toEqual([]);
  });
});

const m = (path: string, strategy: 'mobile' | 'desktop', score: number | null, error: string | null = null): PageSpeedMeasurement => ({ url: `${S}${path}`, strategy, score, error });

describe('the PageSpeed summary', () => {
  const sample = [
    { url: `${S}/`, role: 'home' as const },
    { url: `${S}/a/`, role: 'category' as const },
  ];

  it('averages each strategy over the pages it measured and combines the strategies', () => {
    const result = summarise('lighthouse', sample, [m('/', 'mobile', 40), m('/', 'desktop', 90), m('/a/', 'mobile', 61), m('/a/', 'desktop', null, 'NO_FCP')], '2025-03-10T09:00:00.000Z');
    expect(result).toEqual({
      status: 'measured',
      provider: 'lighthouse',
      skip_reason: null,
      mobile: { score: 50.5, pages_measured: 2, pages_failed: 0 },
      desktop: { score: 90, pages_measured: 1, pages_failed: 1 },
      combined: 70.3,
      failed: false,
      sample: [
        { url: `${S}/`, role: 'home', mobile: 40, desktop: 90, error: null },
        { url: `${S}/a/`, role: 'category', mobile: 61, desktop: null, error: 'NO_FCP' },
      ],
      measured_at: '2025-03-10T09:00:00.000Z',
    });
  });

  it('leaves a strategy measured on no page null, and combined equal to the other one', () => {
    const result = summarise('lighthouse', sample, [m('/', 'mobile', null, 'X'), m('/', 'desktop', 0), m('/a/', 'mobile', null, 'X'), m('/a/', 'desktop', 20)], 't');
    expect(result.mobile).toBeNull();
    // A real 0 stays a score.
    expect(result.desktop).toEqual({ score: 10, pages_measured: 2, pages_failed: 0 });
    expect(result.combined).toBe(10);
  });

  it('reads failed when every measurement was refused', () => {
    const result = summarise('pagespeed_insights', sample, [m('/', 'mobile', null, 'A'), m('/', 'desktop', null, 'B'), m('/a/', 'mobile', null, 'A'), m('/a/', 'desktop', null, 'A')], 't');
    expect(result).toMatchObject({ status: 'failed', failed: true, mobile: null, desktop: null, combined: null });
    expect(result.sample[0].error).toBe('A');
  });

  it('finds the slow mobile pages, minus the excluded ones', () => {
    const all = [m('/', 'mobile', 49), m('/', 'desktop', 10), m('/a/', 'mobile', 50), m('/b/', 'mobile', 3)];
    expect(slowPages(all, null)).toEqual([{ url: `${S}/`, score: 49 }, { url: `${S}/b/`, score: 3 }]);
    expect(slowPages(all, `${S}/b/`)).toEqual([{ url: `${S}/`, score: 49 }]);
  });

  it('answers every request, in order, even when the provider throws or leaves one out', async () => {
    const partial: PageSpeedProvider = { name: 'x', measure: async (r) => [{ ...r[1], score: 70, error: null }] };
    expect(await measureSample(partial, [{ url: `${S}/`, role: 'home' }])).toEqual([m('/', 'mobile', null, 'NOT_MEASURED'), m('/', 'desktop', 70)]);
    const broken: PageSpeedProvider = { name: 'x', measure: async () => { throw new Error('down'); } };
    expect((await measureSample(broken, [{ url: `${S}/`, role: 'home' }])).map((x) => x.error)).toEqual(['PROVIDER_ERROR', 'PROVIDER_ERROR']);
  });
});

describe('the health score with PageSpeed', () => {
  it('costs nothing at 100 and no slow page, like an error on every page at 0', () => {
    const ten = { pages: 10, htmlPages: 10 };
    expect(healthWithPageSpeed(80, ten, 0, 100)).toBe(80);
    expect(healthWithPageSpeed(80, ten, 0, null)).toBe(80);
    expect(healthWithPageSpeed(100, ten, 0, 0)).toBeCloseTo(100 * Math.exp(-0.35), 9);
    expect(healthWithPageSpeed(90, ten, 2, 40)).toBeLessThan(healthWithPageSpeed(90, ten, 1, 40));
    // A slow page is a share of the HTML pages (the pages PageSpeed measures), not of every URL.
    expect(healthWithPageSpeed(100, { pages: 9, htmlPages: 4 }, 1, 100)).toBeCloseTo(100 * Math.exp(-0.12 * 0.5), 9);
  });
});
