import { describe, expect, it } from 'vitest';
import { abortError } from '../../../src/abort.js';
import { MAX_REDIRECTS } from '../../../src/crawler/crawl-config.js';
import { CHAIN_FAILED, CHAIN_UNKNOWN, Flag, State } from '../../../src/crawler/run/url-registry.js';
import { FetchError } from '../../../src/crawler/fetch/http-client.js';
import { UrlFetcher } from '../../../src/crawler/fetch/url-fetcher.js';
import { parseRobots } from '../../../src/crawler/fetch/robots-policy.js';
import { fakeClient, fixedRobots, parts, response, START, type PartsOptions } from '../parts.js';

const moved = (status: number, to: string) => response(status, { location: to });

function fetcher(answers: Parameters<typeof fakeClient>[0], options: PartsOptions & { robots?: string } = {}) {
  const p = parts(options);
  const client = fakeClient(answers);
  const robots = fixedRobots(parseRobots(`${START}robots.txt`, options.robots ?? '', 'siteauditbot'));
  const ended: { id: number; url: string; depth: number; status: number }[] = [];
  const f = new UrlFetcher(p.ctx(client, robots), async ({ id, url, depth, response: r }) => {
    ended.push({ id, url, depth, status: r.status });
    p.reg.status[id] = r.status;
    p.reg.finalStatus[id] = r.status;
    p.reg.state[id] = State.Done;
  });
  const fetch = async (id = p.startId) => {
    p.reg.state[id] = State.Active;
    await f.fetch(id);
  };
  return { ...p, client, ended, fetch };
}

describe('fetching and redirects', () => {
  it('follows a chain hop by hop, recording each hop with the chain from it on', async () => {
    const t = fetcher({ [START]: moved(301, '/a'), [`${START}a`]: moved(302, '/b'), [`${START}b`]: response(200) });
    await t.fetch();
    expect(t.client.requested).toEqual([START, `${START}a`, `${START}b`]);
    expect(t.ended).toEqual([{ id: t.reg.get(`${START}b`), url: `${START}b`, depth: 0, status: 200 }]);
    expect(t.store.pages.map((p) => [p.url, p.status_code, p.redirect_url, p.redirect_chain.length, p.error_type])).toEqual([
      [START, 301, `${START}a`, 2, null],
      [`${START}a`, 302, `${START}b`, 1, null],
    ]);
    expect(t.store.issues.map((i) => [i.name, i.url])).toEqual([
      ['temporary_redirect', `${START}a`],
      ['redirect_chain', START],
    ]);
    const a = t.reg.get(`${START}a`)!;
    expect(t.reg.redirect[t.startId]).toBe(a);
    expect(t.reg.finalStatus[t.startId]).toBe(200);
    expect(t.reg.discoveredVia(a)).toBe('redirect');
  });

  it('stops at a loop: every hop failed, flagged as a loop, one redirect_loop issue', async () => {
    const t = fetcher({ [START]: moved(301, '/x'), [`${START}x`]: moved(301, '/') });
    await t.fetch();
    expect(t.store.pages.map((p) => p.error_type)).toEqual(['redirect_loop', 'redirect_loop']);
    for (const p of t.store.pages) {
      const id = t.reg.get(p.url)!;
      expect(t.reg.finalStatus[id]).toBe(CHAIN_FAILED);
      expect([t.reg.has(id, Flag.Loop), t.reg.has(id, Flag.Failed)]).toEqual([true, true]);
    }
    expect(t.store.issues.map((i) => [i.name, i.details])).toEqual([['redirect_loop', `${START} → ${START}x → ${START}`]]);
  });

  it(`gives up after ${MAX_REDIRECTS} redirects`, async () => {
    const answers: Parameters<typeof fakeClient>[0] = { [START]: moved(301, '/r1') };
    for (let i = 1; i <= MAX_REDIRECTS + 2; i++) answers[`${START}r${i}`] = moved(301, `/r${i + 1}`);
    const t = fetcher(answers);
    await t.fetch();
    expect(t.store.pages).toHaveLength(MAX_REDIRECTS + 1);
    expect(new Set(t.store.pages.map((p) => p.error_type))).toEqual(new Set(['too_many_redirects']));
    expect(t.store.issues.at(-1)!.details).toMatch(new RegExp(`^more than ${MAX_REDIRECTS} redirects: `));
  });

  it('records an invalid Location as a failed chain', async () => {
    const t = fetcher({ [START]: moved(301, 'mailto:someone@shop.example') });
    await t.fetch();
    expect(t.store.pages.map((p) => [p.error_type, p.redirect_url])).toEqual([['invalid_redirect', null]]);
    expect(t.reg.finalStatus[t.startId]).toBe(CHAIN_FAILED);
  });

  it('does not follow a redirect off the site, except the start URL moving the whole site', async () => {
    const off = fetcher({ [`${START}p`]: moved(301, 'https://other.example/p') });
    const page = off.scheduler.discover(`${START}p`, 1, 'link')!;
    await off.fetch(page);
    expect(off.client.requested).toEqual([`${START}p`]);
    expect(off.reg.finalStatus[page]).toBe(CHAIN_UNKNOWN);

    const moving = fetcher({ [START]: moved(301, 'https://shop.example.com/'), 'https://shop.example.com/': response(200) });
    await moving.fetch();
    expect(moving.ended.map((e) => e.url)).toEqual(['https://shop.example.com/']);
    expect(moving.scope.isInternal('https://www.shop.example.com/x')).toBe(true);
  });

  it('reports a hop to another host (redirect_external) or from HTTPS to HTTP (redirect_to_http), not the start moving the site', async () => {
    const off = fetcher({ [`${START}p`]: moved(301, 'https://other.example/p'), [`${START}q`]: moved(301, 'http://shop.example/q'), 'http://shop.example/q': response(200) });
    await off.fetch(off.scheduler.discover(`${START}p`, 1, 'link')!);
    await off.fetch(off.scheduler.discover(`${START}q`, 1, 'link')!);
    expect(off.store.issues.map((i) => [i.name, i.url, i.details])).toEqual([
      ['redirect_external', `${START}p`, '301 to https://other.example/p'],
      ['redirect_to_http', `${START}q`, '301 to http://shop.example/q'],
    ]);
    // The same host (another path), HTTPS to HTTPS, and the start URL moving the whole site: nothing.
    const fine = fetcher({ [START]: moved(301, 'https://shop.example.com/'), 'https://shop.example.com/': moved(308, '/home'), 'https://shop.example.com/home': response(200) });
    await fine.fetch();
    expect(fine.store.issues.map((i) => i.name)).toEqual(['redirect_chain']);
  });

  it('stops a chain at a URL already fetched, taking its outcome', async () => {
    const t = fetcher({ [`${START}old`]: moved(301, '/') });
    t.reg.status[t.startId] = 404;
    t.reg.finalStatus[t.startId] = 404;
    t.reg.state[t.startId] = State.Done;
    const old = t.scheduler.discover(`${START}old`, 1, 'link')!;
    await t.fetch(old);
    expect(t.reg.redirect[old]).toBe(t.startId);
    expect(t.reg.finalStatus[old]).toBe(404);
  });

  it('stops a chain when the budget is spent', async () => {
    const t = fetcher({ [START]: moved(301, '/a') }, { scheduler: { maxUrls: 0 } });
    await t.fetch();
    expect(t.scheduler.truncated).toBe(true);
    expect(t.client.requested).toEqual([START]);
  });

  it('records a URL robots.txt disallows, without requesting it', async () => {
    const t = fetcher({}, { robots: 'User-agent: *\nDisallow: /private' });
    const page = t.scheduler.discover(`${START}private/x`, 1, 'link')!;
    await t.fetch(page);
    expect(t.client.requested).toEqual([]);
    expect(t.store.pages.map((p) => p.error_type)).toEqual(['blocked_by_robots']);
    expect(t.store.issues.map((i) => [i.name, i.details])).toEqual([['blocked_by_robots', 'disallowed for siteauditbot']]);
    expect(t.reg.has(page, Flag.Blocked)).toBe(true);
  });

  it('records a URL that got no answer as failed, with fetch_failed', async () => {
    const t = fetcher({ [START]: new FetchError('timeout', 'no answer in 5 s', START) });
    await t.fetch();
    expect(t.store.pages.map((p) => p.error_type)).toEqual(['timeout']);
    expect(t.store.issues.map((i) => [i.name, i.details])).toEqual([['fetch_failed', 'timeout: no answer in 5 s']]);
    expect(t.reg.finalStatus[t.startId]).toBe(CHAIN_FAILED);
  });

  it('gives the URLs of a chain cut by a stop back to the queue', async () => {
    const t = fetcher({ [START]: moved(301, '/a'), [`${START}a`]: abortError(undefined, 'crawl stopped') });
    await expect(t.fetch()).rejects.toThrow('crawl stopped');
    const a = t.reg.get(`${START}a`)!;
    expect(t.reg.state[a]).toBe(State.Queued);
    expect(t.reg.state[t.startId]).toBe(State.Queued);
    expect(t.store.pages).toEqual([]);
  });
});
