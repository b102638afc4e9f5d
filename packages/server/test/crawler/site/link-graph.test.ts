import { describe, expect, it } from 'vitest';
import { CHAIN_FAILED, Flag, NO_ID, OFF_SITE_ID, State, UNUSABLE_ID } from '../../../src/crawler/run/url-registry.js';
import { linkProblem } from '../../../src/crawler/site/link-graph.js';
import type { PageSummary } from '../../../src/crawler/page/page-facts.js';
import { parts, START } from '../parts.js';

function summary(over: Partial<PageSummary> = {}): PageSummary {
  return {
    title: null,
    metaDescription: null,
    h1: null,
    wordCount: 0,
    canonical: null,
    declaredCanonical: null,
    noindex: false,
    nofollow: false,
    indexable: true,
    internalLinks: [],
    externalLinks: [],
    resources: [],
    imagesWithoutAlt: 0,
    hreflang: [],
    language: null,
    metaRefreshUrl: null,
    paginationLinks: [],
    refreshRedirect: false,
    metaRobots: null,
    xRobotsTag: null,
    ...over,
  };
}

const link = (path: string) => ({ url: `${START}${path}`, nofollow: false, text: '' });
const nofollowLink = (path: string) => ({ url: `${START}${path}`, nofollow: true, text: '' });

describe('link graph: what a link is worth reporting', () => {
  it('judges a target by its own status and the end of its redirect chain', () => {
    const { reg } = parts();
    const add = (path: string, status: number, final: number, flags = 0) => {
      const id = reg.add(`${START}${path}`, 1, 'link').id;
      reg.status[id] = status;
      reg.finalStatus[id] = final;
      reg.set(id, flags);
      return id;
    };
    expect(linkProblem(reg, add('ok', 200, 200))).toBeNull();
    expect(linkProblem(reg, add('gone', 404, 404))).toEqual({ name: 'broken_internal_link', why: 'status 404' });
    expect(linkProblem(reg, add('moved', 301, 200))).toEqual({ name: 'link_to_redirect', why: 'redirects (status 301)' });
    expect(linkProblem(reg, add('moved-gone', 301, 410))).toEqual({ name: 'broken_internal_link', why: 'redirects to a page answering 410' });
    expect(linkProblem(reg, add('moved-nowhere', 302, CHAIN_FAILED))).toEqual({ name: 'broken_internal_link', why: 'redirects to a page answering nothing' });
    expect(linkProblem(reg, add('down', 0, CHAIN_FAILED, Flag.Failed))).toEqual({ name: 'broken_internal_link', why: 'no response' });
    expect(linkProblem(reg, add('loop', 301, CHAIN_FAILED, Flag.Failed | Flag.Loop))).toEqual({ name: 'broken_internal_link', why: 'redirect loop' });
    expect(linkProblem(reg, add('wall', 403, 403, Flag.Protection))).toBeNull();
    expect(linkProblem(reg, add('robots', 0, 0, Flag.Blocked))).toBeNull();
  });
});

describe('link graph: registering a page', () => {
  it('registers internal links (not the page itself) one depth down, and an internal meta refresh', () => {
    const { links, reg, startId } = parts();
    const { targets } = links.register({ id: startId, url: START, depth: 0 }, summary({ internalLinks: [link(''), link('a'), link('b')], metaRefreshUrl: `${START}next` }));
    expect([...targets].map((id) => reg.url(id))).toEqual([`${START}a`, `${START}b`, `${START}next`]);
    for (const id of targets) expect(reg.depth[id]).toBe(1);
  });

  it('tells the nofollow links apart: rel=nofollow ones, or every link under a page-level nofollow, never the meta refresh', () => {
    const { links, reg, startId } = parts({ exclude: '/excluded' });
    const urls = (ids: Set<number>) => [...ids].map((id) => reg.url(id));
    const rel = links.register({ id: startId, url: START, depth: 0 }, summary({ internalLinks: [link('a'), nofollowLink('b'), nofollowLink('excluded'), nofollowLink('')] }));
    expect(urls(rel.targets)).toEqual([`${START}a`, `${START}b`]);
    expect(urls(rel.nofollow)).toEqual([`${START}b`]);
    // The excluded target has no id but is a nofollow link of the page all the same; the page itself is not.
    expect(rel.nofollowUrls).toEqual([`${START}b`, `${START}excluded`]);
    expect(rel.pageLevel).toBe(false);
    const page = links.register({ id: startId, url: START, depth: 0 }, summary({ nofollow: true, internalLinks: [link('a'), link('c')], metaRefreshUrl: `${START}next` }));
    expect(urls(page.targets)).toEqual([`${START}a`, `${START}c`, `${START}next`]);
    expect(urls(page.nofollow)).toEqual([`${START}a`, `${START}c`]);
    expect(page.pageLevel).toBe(true);
  });

  it('stores the canonical target: itself, an internal id, OFF_SITE_ID on another site, UNUSABLE_ID out of the crawl', () => {
    const { links, reg, startId } = parts({ exclude: '/excluded' });
    const page = reg.add(`${START}p`, 1, 'link').id;
    expect(reg.canonical[page]).toBe(NO_ID);
    links.register({ id: page, url: `${START}p`, depth: 1 }, summary({ canonical: `${START}p` }));
    expect(reg.canonical[page]).toBe(page);
    links.register({ id: page, url: `${START}p`, depth: 1 }, summary({ canonical: `${START}main` }));
    expect(reg.url(reg.canonical[page])).toBe(`${START}main`);
    expect(reg.discoveredVia(reg.canonical[page])).toBe('canonical');
    links.register({ id: page, url: `${START}p`, depth: 1 }, summary({ canonical: 'https://other.example/p' }));
    expect(reg.canonical[page]).toBe(OFF_SITE_ID);
    links.register({ id: page, url: `${START}p`, depth: 1 }, summary({ canonical: `${START}excluded` }));
    expect(reg.canonical[page]).toBe(UNUSABLE_ID);
    links.register({ id: startId, url: START, depth: 0 }, summary({ canonical: `${START}p` }));
    expect(reg.canonical[startId]).toBe(page);
  });

  it('keeps the internal hreflang alternates, the page itself included', () => {
    const { links, reg, startId } = parts();
    links.register({ id: startId, url: START, depth: 0 }, summary({ hreflang: [{ lang: 'en', url: START }, { lang: 'fr', url: `${START}fr` }, { lang: 'de', url: 'https://de.example/' }] }));
    const alternates = links.hreflang.get(startId)!;
    expect(alternates.map((a) => [a.lang, reg.url(a.target)])).toEqual([['en', START], ['fr', `${START}fr`]]);
  });
});

describe('link graph: inlinks and link issues', () => {
  it('counts inlinks and reports a broken link at once when the target is known, later when it is not', async () => {
    const { links, reg, output, store, startId } = parts();
    const done = reg.add(`${START}gone`, 1, 'link').id;
    reg.status[done] = 404;
    reg.finalStatus[done] = 404;
    reg.state[done] = State.Done;
    const later = reg.add(`${START}later`, 1, 'link').id;
    reg.state[later] = State.Queued;

    await links.countInlinks(startId, { targets: new Set([done, later]), nofollow: new Set(), nofollowUrls: [], pageLevel: false });
    expect(reg.inlinks[done]).toBe(1);
    expect(reg.inlinks[later]).toBe(1);
    expect(store.issues.map((i) => [i.name, i.url, i.details])).toEqual([['broken_internal_link', START, `link to ${START}gone: status 404`]]);

    reg.status[later] = 301;
    reg.finalStatus[later] = 200;
    await output.record(later, { url: `${START}later` } as never);
    expect(store.issues.map((i) => i.name)).toEqual(['broken_internal_link', 'link_to_redirect']);
    // Judged once: recording again reports nothing more.
    await links.resolveLinksTo(later);
    expect(store.issues).toHaveLength(2);
  });
});
