/**
 * Lighthouse on the local Chromium, for real, on a small local page: mobile and desktop
 * performance scores, a page that cannot load answered as a refused measurement, and the
 * network guard refusing a private address before any browser starts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AddressRefusedError } from '../../src/net/address-guard.js';
import { createLighthousePageSpeed } from '../../src/providers/index.js';
import type { GuardProxy } from '../../src/rendering/index.js';
import { BROWSER_TIMEOUT, CHROME, HAS_CHROMIUM, SKIP_NOTE, page, serve, type LocalSite } from '../../../../tests/support/rendering.js';

let site: LocalSite;
beforeAll(async () => {
  site = await serve({
    '/': { body: page({ body: `<main><h1>Measured page</h1><p>${'Some text to paint. '.repeat(40)}</p></main>` }) },
    // The same server under the name "localhost", which the test's guard refuses.
    '/guarded': (base) => ({
      body: page({ body: `<main><h1>Guarded page</h1><p>${'Some text to paint. '.repeat(40)}</p><img src="${base.replace('127.0.0.1', 'localhost')}/private.png" alt="" width="1" height="1"></main>` }),
    }),
  });
});
afterAll(() => site?.close());

describe('Lighthouse provider guard', () => {
  it('refuses a page on a private address unless allowed, without starting Chromium', async () => {
    const guarded = createLighthousePageSpeed({ chromePath: '/nonexistent/chromium' });
    const result = await guarded.measure([{ url: `${site.url}/`, strategy: 'mobile' }]);
    expect(result).toEqual([{ url: `${site.url}/`, strategy: 'mobile', score: null, error: 'ADDRESS_REFUSED' }]);
    expect(site.hits.size).toBe(0);
  });

  it('refuses every measurement when Chromium cannot start', async () => {
    const broken = createLighthousePageSpeed({ chromePath: '/nonexistent/chromium', allowPrivateAddresses: true });
    const result = await broken.measure([{ url: `${site.url}/`, strategy: 'mobile' }, { url: `${site.url}/`, strategy: 'desktop' }]);
    expect(result.map((m) => m.error)).toEqual(['CHROME_LAUNCH_FAILED', 'CHROME_LAUNCH_FAILED']);
  });
});

describe.skipIf(!HAS_CHROMIUM)(`Lighthouse on the local Chromium${SKIP_NOTE}`, () => {
  it(
    'measures a local page on mobile and desktop, and refuses a page that does not load',
    async () => {
      const lighthouse = createLighthousePageSpeed({ chromePath: CHROME, allowPrivateAddresses: true });
      expect(lighthouse.name).toBe('lighthouse');
      const closed = 'http://127.0.0.1:9/';
      const result = await lighthouse.measure([
        { url: `${site.url}/`, strategy: 'mobile' },
        { url: `${site.url}/`, strategy: 'desktop' },
        { url: closed, strategy: 'mobile' },
      ]);
      const [mobile, desktop, refused] = result;
      for (const m of [mobile, desktop]) {
        expect(m.error).toBeNull();
        expect(Number.isInteger(m.score)).toBe(true);
        expect(m.score).toBeGreaterThan(0);
        expect(m.score).toBeLessThanOrEqual(100);
      }
      expect([mobile.strategy, desktop.strategy]).toEqual(['mobile', 'desktop']);
      expect(refused).toMatchObject({ url: closed, score: null });
      expect(refused.error).toMatch(/^[A-Z_]+$/);
      expect(site.hits.get('/')).toBeGreaterThanOrEqual(2);
    },
    BROWSER_TIMEOUT * 3,
  );

  it(
    'sends every request of Chromium through the guard proxy',
    async () => {
      let guard: GuardProxy | null = null;
      const guarded = createLighthousePageSpeed({
        chromePath: CHROME,
        allowPrivateAddresses: true,
        vet: async (host) => {
          if (host !== '127.0.0.1') throw new AddressRefusedError(host, '127.0.0.1');
          return { address: '127.0.0.1', family: 4 };
        },
        onGuard: (g) => (guard = g),
      });
      const [result] = await guarded.measure([{ url: `${site.url}/guarded`, strategy: 'desktop' }]);
      expect(result.error).toBeNull();
      expect(result.score).toBeGreaterThan(0);
      expect(site.hits.get('/guarded')).toBeGreaterThanOrEqual(1);
      expect(guard!.refused.map((r) => r.host)).toContain('localhost');
      expect(site.hits.get('/private.png')).toBeUndefined();
    },
    BROWSER_TIMEOUT * 2,
  );
});
