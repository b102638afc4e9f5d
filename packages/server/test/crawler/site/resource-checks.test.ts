import { describe, expect, it } from 'vitest';
import { THRESHOLDS } from '../../../src/crawler/checks.js';
import { State } from '../../../src/crawler/run/url-registry.js';
import { FetchError } from '../../../src/crawler/fetch/http-client.js';
import type { HtmlResource } from '../../../src/crawler/page/html-resources.js';
import { ResourceChecks } from '../../../src/crawler/site/resource-checks.js';
import { fakeClient, fixedRobots, parts, response, START } from '../parts.js';

const CDN = 'https://cdn.example/';

function checks(answers: Parameters<typeof fakeClient>[0], robots = fixedRobots()) {
  const p = parts();
  const client = fakeClient(answers);
  const resources = new ResourceChecks(p.ctx(client, robots), {
    maxResourceChecks: 100,
    maxRedirects: 3,
    token: 'siteauditbot',
  });
  /** Page `path` uses `used`: registered, recorded, reported, as the page stage does. */
  const use = async (path: string, used: HtmlResource[]) => {
    const id = p.reg.add(`${START}${path}`, 1, 'link').id;
    p.reg.state[id] = State.Done;
    await resources.report(id, resources.register(id, `${START}${path}`, used));
  };
  const drain = () => p.scheduler.run(async () => undefined, async () => false);
  return { ...p, client, use, drain };
}

describe('resource checks', () => {
  it('reports on pages that used the resource before and after its check', async () => {
    const t = checks({ [`${START}s.css`]: response(404) });
    await t.use('a', [{ url: `${START}s.css`, type: 'stylesheet' }]);
    await t.drain();
    await t.use('b', [{ url: `${START}s.css`, type: 'stylesheet' }]);
    await t.drain();
    expect(t.client.requested).toEqual([`${START}s.css`]);
    expect(t.store.issues.map((i) => [i.name, i.url])).toEqual([
      ['broken_stylesheet', `${START}a`],
      ['broken_stylesheet', `${START}b`],
    ]);
  });

  it('names the check by type: broken_resource for icons, media, frames and the rest', async () => {
    const t = checks({ [`${START}favicon.ico`]: response(410), [`${START}v.mp4`]: response(500) });
    await t.use('a', [
      { url: `${START}favicon.ico`, type: 'icon' },
      { url: `${START}v.mp4`, type: 'media' },
    ]);
    await t.drain();
    expect(t.store.issues.map((i) => [i.name, i.details]).sort()).toEqual([
      ['broken_resource', `icon ${START}favicon.ico: status 410`],
      ['broken_resource', `media ${START}v.mp4: status 500`],
    ]);
  });

  it('counts a redirect loop, a redirect to an error and a network failure as broken; 429 and a challenge are not', async () => {
    const wall = { ...response(403), protection: 'challenge' as const };
    const t = checks({
      [`${CDN}loop.js`]: response(302, { location: '/loop.js' }),
      [`${CDN}moved.png`]: response(301, { location: '/gone.png' }),
      [`${CDN}gone.png`]: response(404),
      [`${CDN}down.css`]: new FetchError('dns', 'no such host', `${CDN}down.css`),
      [`${CDN}busy.js`]: response(429),
      [`${CDN}wall.js`]: wall,
    });
    await t.use('a', [
      { url: `${CDN}loop.js`, type: 'script' },
      { url: `${CDN}moved.png`, type: 'image' },
      { url: `${CDN}down.css`, type: 'stylesheet' },
      { url: `${CDN}busy.js`, type: 'script' },
      { url: `${CDN}wall.js`, type: 'script' },
    ]);
    await t.drain();
    expect(t.store.issues.map((i) => `${i.name}: ${i.details}`).sort()).toEqual([
      `broken_image: image ${CDN}moved.png: redirects to ${CDN}gone.png, which answers 404`,
      `broken_script: script ${CDN}loop.js: redirect loop`,
      `broken_stylesheet: stylesheet ${CDN}down.css: dns`,
    ]);
    expect(t.store.resources.find((r) => r.url === `${CDN}wall.js`)!.error_type).toBe('protection');
  });

  it('counts a host whose robots.txt cannot even be fetched as broken, not as blocked', async () => {
    const unreachable = { url: `${CDN}robots.txt`, state: 'unreachable' as const, status: null, error: 'dns' as const, sitemaps: [], crawlDelayMs: null, isAllowed: () => false };
    const t = checks({}, fixedRobots(unreachable));
    await t.use('a', [{ url: `${CDN}lib.js`, type: 'script' }]);
    await t.drain();
    expect(t.client.requested).toEqual([]);
    expect(t.store.issues.map((i) => `${i.name}: ${i.details}`)).toEqual([`broken_script: script ${CDN}lib.js: dns`]);
  });

  it('asks again with GET when HEAD answers a doubtful client error, not when it answers 404', async () => {
    let head = true;
    const t = checks({
      [`${START}a.js`]: () => (head ? ((head = false), response(403)) : response(200)),
      [`${START}b.js`]: response(404),
    });
    await t.use('a', [
      { url: `${START}a.js`, type: 'script' },
      { url: `${START}b.js`, type: 'script' },
    ]);
    await t.drain();
    expect(t.client.requested.sort()).toEqual([`${START}a.js`, `${START}a.js`, `${START}b.js`]);
    expect(t.store.issues.map((i) => i.details)).toEqual([`script ${START}b.js: status 404`]);
  });

  it('reports an image over the size threshold once, on the image, internal or not', async () => {
    const big = String(THRESHOLDS.imageBytes + 1);
    const t = checks({
      [`${START}big.png`]: response(200, { 'content-length': big }),
      [`${CDN}big.jpg`]: response(200, { 'content-length': big }),
      [`${START}small.png`]: response(200, { 'content-length': '100' }),
      [`${START}big.css`]: response(200, { 'content-length': big }),
    });
    await t.use('a', [
      { url: `${START}big.png`, type: 'image' },
      { url: `${CDN}big.jpg`, type: 'image' },
      { url: `${START}small.png`, type: 'image' },
      { url: `${START}big.css`, type: 'stylesheet' },
    ]);
    await t.use('b', [{ url: `${START}big.png`, type: 'image' }]);
    await t.drain();
    expect(t.store.issues.map((i) => [i.name, i.url, i.details]).sort()).toEqual([
      ['image_too_large', `${CDN}big.jpg`, `500 KB, used on ${START}a`],
      ['image_too_large', `${START}big.png`, `500 KB, used on ${START}a`],
    ]);
  });
});
