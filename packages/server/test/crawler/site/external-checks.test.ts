import { describe, expect, it } from 'vitest';
import { ExternalChecks } from '../../../src/crawler/site/external-checks.js';
import { State } from '../../../src/crawler/run/url-registry.js';
import { FetchError } from '../../../src/crawler/fetch/http-client.js';
import { fakeClient, parts, response, START } from '../parts.js';

const EXT = 'https://other.example/';

function checks(answers: Parameters<typeof fakeClient>[0], limits = { maxExternalChecks: 10 }) {
  const p = parts();
  const client = fakeClient(answers);
  const external = new ExternalChecks(p.ctx(client), limits);
  const page = (path: string) => {
    const id = p.reg.add(`${START}${path}`, 1, 'link').id;
    p.reg.state[id] = State.Done;
    return id;
  };
  // Runs the queued auxiliary jobs to the end.
  const drain = () => p.scheduler.run(async () => undefined, async () => false);
  return { ...p, client, external, page, drain };
}

describe('external link checks', () => {
  it('checks each external URL once and reports a broken one on every page linking to it', async () => {
    const t = checks({ [EXT]: response(404) });
    await t.external.link(EXT, t.page('a'), 2);
    await t.external.link(EXT, t.page('b'), 2);
    await t.drain();
    await t.external.link(EXT, t.page('c'), 2);
    expect(t.client.requested).toEqual([EXT]);
    expect(t.store.pages.map((p) => [p.url, p.status_code, p.is_internal, p.depth, p.discovered_via])).toEqual([[EXT, 404, false, 2, 'external']]);
    expect(t.store.issues.map((i) => [i.url, i.details])).toEqual([
      [`${START}a`, `link to ${EXT}: status 404`],
      [`${START}b`, `link to ${EXT}: status 404`],
      [`${START}c`, `link to ${EXT}: status 404`],
    ]);
    expect(t.output.recorded).toBe(0);
  });

  it('asks with GET when HEAD is refused, and follows redirects', async () => {
    let head = true;
    const t = checks({
      [EXT]: () => (head ? ((head = false), response(405)) : response(301, { location: '/moved' })),
      [`${EXT}moved`]: response(200),
    });
    await t.external.link(EXT, t.page('a'), 1);
    await t.drain();
    expect(t.client.requested).toEqual([EXT, EXT, `${EXT}moved`]);
    expect(t.store.pages[0].redirect_chain.map((h) => h.status_code)).toEqual([301, 200]);
    expect(t.store.issues).toEqual([]);
  });

  it('reports a redirect loop and a connection failure as broken; a challenge only counts', async () => {
    const wall = { ...response(403), protection: 'challenge' as const };
    const t = checks({
      [`${EXT}loop`]: response(302, { location: '/loop' }),
      [`${EXT}down`]: new FetchError('dns', 'no such host', `${EXT}down`),
      [`${EXT}wall`]: wall,
    });
    const a = t.page('a');
    for (const path of ['loop', 'down', 'wall']) await t.external.link(`${EXT}${path}`, a, 1);
    await t.drain();
    expect(t.store.issues.map((i) => i.details)).toEqual([`link to ${EXT}loop: redirect loop`, `link to ${EXT}down: dns`]);
    expect(t.control.protectionOccurrences).toBe(1);
    expect(t.store.pages.find((p) => p.url === `${EXT}wall`)!.protection).toBe(true);
  });

  it('checks at most maxExternalChecks distinct URLs', async () => {
    const t = checks({ [`${EXT}1`]: response(200) }, { maxExternalChecks: 1 });
    await t.external.link(`${EXT}1`, t.page('a'), 1);
    await t.external.link(`${EXT}2`, t.page('a'), 1);
    await t.drain();
    expect(t.client.requested).toEqual([`${EXT}1`]);
  });
});
