/**
 * The PageSpeed Insights API v5 adapter against its msw stand-in: the documented request, the
 * score read from lighthouseResult.categories.performance.score × 100, and refused measurements
 * (Lighthouse errors, a bad key, rate limits) answered as measurements with an error code.
 */
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPageSpeedInsights } from '../../src/providers/index.js';
import { pageSpeedStandIn } from '../../../../tests/support/pagespeed-stand-in.js';

const stand = pageSpeedStandIn({ apiKey: 'psi-key' });
const server = setupServer(...stand.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => stand.reset());
afterAll(() => server.close());

const psi = createPageSpeedInsights({ apiKey: 'psi-key', retryDelayMs: 0 });

describe('PageSpeed Insights adapter', () => {
  it('asks for the performance category of each page and strategy, with the key', async () => {
    stand.scores.set('https://shop.test/', { mobile: 0.42, desktop: 0.915 });
    const result = await psi.measure([
      { url: 'https://shop.test/', strategy: 'mobile' },
      { url: 'https://shop.test/', strategy: 'desktop' },
    ]);
    expect(result).toEqual([
      { url: 'https://shop.test/', strategy: 'mobile', score: 42, error: null },
      { url: 'https://shop.test/', strategy: 'desktop', score: 92, error: null },
    ]);
    expect(stand.calls).toEqual(
      expect.arrayContaining([
        { url: 'https://shop.test/', strategy: 'mobile', categories: ['performance'], key: 'psi-key' },
        { url: 'https://shop.test/', strategy: 'desktop', categories: ['performance'], key: 'psi-key' },
      ]),
    );
    expect(psi.name).toBe('pagespeed_insights');
  });

  it('answers a page Lighthouse could not load as a refused measurement with its code', async () => {
    stand.scores.set('https://shop.test/ok', { mobile: 0.8, desktop: 0.9 });
    stand.runtimeErrors.set('https://shop.test/blank', 'NO_FCP');
    const result = await psi.measure([
      { url: 'https://shop.test/down', strategy: 'mobile' },
      { url: 'https://shop.test/blank', strategy: 'mobile' },
      { url: 'https://shop.test/ok', strategy: 'mobile' },
    ]);
    expect(result.map((m) => [m.score, m.error])).toEqual([
      [null, 'FAILED_DOCUMENT_REQUEST'],
      [null, 'NO_FCP'],
      [80, null],
    ]);
  });

  it('refuses every measurement with the key error when the key is wrong', async () => {
    stand.scores.set('https://shop.test/', { mobile: 0.5, desktop: 0.5 });
    const wrong = createPageSpeedInsights({ apiKey: 'nope', retryDelayMs: 0 });
    const result = await wrong.measure([{ url: 'https://shop.test/', strategy: 'mobile' }]);
    expect(result).toEqual([{ url: 'https://shop.test/', strategy: 'mobile', score: null, error: 'API_KEY_INVALID' }]);
  });

  it('retries a rate-limited call, and gives up with RATE_LIMITED after the retries', async () => {
    stand.scores.set('https://shop.test/', { mobile: 0.7, desktop: 0.9 });
    stand.rateLimit(1);
    expect((await psi.measure([{ url: 'https://shop.test/', strategy: 'mobile' }]))[0]).toMatchObject({ score: 70, error: null });
    stand.rateLimit(5);
    expect((await psi.measure([{ url: 'https://shop.test/', strategy: 'mobile' }]))[0]).toMatchObject({ score: null, error: 'RATE_LIMITED' });
    expect(stand.calls).toHaveLength(4);
  });
});
