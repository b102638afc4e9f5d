/**
 * Nofollow on internal links, judged by the targets (crawler/site/nofollow-links.ts), driven
 * through the link graph: at once when the targets are known, when the last one is recorded, or
 * at the crawl's end; internal_nofollow_to_indexable or internal_nofollow, never both.
 */
import { describe, expect, it } from 'vitest';
import { Flag, State } from '../../../src/crawler/run/url-registry.js';
import type { PageLinks } from '../../../src/crawler/site/link-graph.js';
import { parts, START } from '../parts.js';

type Setup = ReturnType<typeof parts>;

const INDEXABLE = Flag.Internal | Flag.Html | Flag.Indexable;

/** A target of the start page: recorded (Done) with `status` and `flags`, or still queued. */
function target(p: Setup, path: string, outcome: { status: number; flags: number } | 'queued') {
  const id = p.reg.add(`${START}${path}`, 1, 'link').id;
  if (outcome === 'queued') p.reg.state[id] = State.Queued;
  else {
    p.reg.state[id] = State.Done;
    p.reg.status[id] = outcome.status;
    p.reg.finalStatus[id] = outcome.status;
    p.reg.set(id, outcome.flags);
  }
  return id;
}

/** Records queued target `id` with this outcome, as the page stage does (digest first). */
async function record(p: Setup, id: number, status: number, flags: number) {
  p.reg.status[id] = status;
  p.reg.finalStatus[id] = status;
  p.reg.set(id, flags);
  await p.output.record(id, { url: p.reg.url(id) } as never);
}

function pageLinks(p: Setup, follow: number[], nofollow: number[], pageLevel = false): PageLinks {
  return {
    targets: new Set([...follow, ...nofollow]),
    nofollow: new Set(nofollow),
    nofollowUrls: nofollow.map((id) => p.reg.url(id)),
    pageLevel,
  };
}

const nofollowIssues = (p: Setup) =>
  p.store.issues.filter((i) => i.name === 'internal_nofollow' || i.name === 'internal_nofollow_to_indexable').map((i) => [i.name, i.url, i.details]);

describe('nofollow links judged by their targets', () => {
  it('targets already recorded: indexable ones make internal_nofollow_to_indexable, naming them, and not internal_nofollow', async () => {
    const p = parts();
    const a = target(p, 'a', { status: 200, flags: INDEXABLE });
    const b = target(p, 'b', { status: 200, flags: INDEXABLE });
    const hidden = target(p, 'hidden', { status: 200, flags: Flag.Internal | Flag.Html | Flag.Noindex });
    const followed = target(p, 'followed', { status: 200, flags: INDEXABLE });
    await p.links.countInlinks(p.startId, pageLinks(p, [followed], [hidden, a, b]));
    expect(nofollowIssues(p)).toEqual([['internal_nofollow_to_indexable', START, `2 nofollow link(s) to indexable pages: ${START}a, ${START}b`]]);
  });

  it('targets that are not indexable make internal_nofollow: noindex, canonicalised elsewhere, redirected, 404, blocked, challenge, not HTML', async () => {
    const p = parts();
    const ids = [
      target(p, 'noindex', { status: 200, flags: Flag.Internal | Flag.Html | Flag.Noindex }),
      // Canonical elsewhere: the page digest leaves Indexable off.
      target(p, 'copy', { status: 200, flags: Flag.Internal | Flag.Html }),
      target(p, 'moved', { status: 301, flags: Flag.Internal }),
      target(p, 'gone', { status: 404, flags: Flag.Internal }),
      target(p, 'private', { status: 0, flags: Flag.Internal | Flag.Blocked }),
      target(p, 'wall', { status: 200, flags: INDEXABLE | Flag.Protection }),
      target(p, 'file.pdf', { status: 200, flags: Flag.Internal }),
    ];
    await p.links.countInlinks(p.startId, pageLinks(p, [], ids));
    expect(nofollowIssues(p)).toEqual([['internal_nofollow', START, `7 nofollow internal link(s): ${START}noindex, ${START}copy, ${START}moved (+4)`]]);
  });

  it('waits for the last nofollowed target, then reports the page once', async () => {
    const p = parts();
    const first = target(p, 'first', 'queued');
    const second = target(p, 'second', 'queued');
    await p.links.countInlinks(p.startId, pageLinks(p, [], [first, second]));
    expect(nofollowIssues(p)).toEqual([]);
    await record(p, first, 404, Flag.Internal);
    expect(nofollowIssues(p)).toEqual([]);
    await record(p, second, 200, INDEXABLE);
    expect(nofollowIssues(p)).toEqual([['internal_nofollow_to_indexable', START, `1 nofollow link(s) to indexable pages: ${START}second`]]);
    await p.links.finish();
    expect(nofollowIssues(p)).toHaveLength(1);
  });

  it('counts every indexable target and names three', async () => {
    const p = parts();
    const ids = ['a', 'b', 'c', 'd', 'e'].map((path) => target(p, path, { status: 200, flags: INDEXABLE }));
    await p.links.countInlinks(p.startId, pageLinks(p, [], ids, true));
    expect(nofollowIssues(p)).toEqual([['internal_nofollow_to_indexable', START, `page-level nofollow on 5 link(s) to indexable pages: ${START}a, ${START}b, ${START}c (+2)`]]);
  });

  it('a page-level nofollow whose links lead nowhere indexable is internal_nofollow, as the page states it', async () => {
    const p = parts();
    const gone = target(p, 'gone', { status: 410, flags: Flag.Internal });
    await p.links.countInlinks(p.startId, pageLinks(p, [], [gone], true));
    expect(nofollowIssues(p)).toEqual([['internal_nofollow', START, 'meta robots nofollow on the page']]);
  });

  it('the crawl’s end reports the pages still waiting with what is known; targets never recorded count as not indexable', async () => {
    const p = parts();
    const known = target(p, 'known', { status: 200, flags: INDEXABLE });
    const never = target(p, 'never', 'queued');
    const other = p.reg.add(`${START}other`, 1, 'link').id;
    const unseen = target(p, 'unseen', 'queued');
    await p.links.countInlinks(p.startId, pageLinks(p, [], [known, never]));
    await p.links.countInlinks(other, pageLinks(p, [], [unseen]));
    expect(nofollowIssues(p)).toEqual([]);
    await p.links.finish();
    expect(nofollowIssues(p)).toEqual([
      ['internal_nofollow_to_indexable', START, `1 nofollow link(s) to indexable pages: ${START}known`],
      ['internal_nofollow', `${START}other`, `1 nofollow internal link(s): ${START}unseen`],
    ]);
  });

  it('names the nofollow URLs of the page when none has an id (beyond the depth limit, excluded)', async () => {
    const p = parts();
    await p.links.countInlinks(p.startId, { targets: new Set(), nofollow: new Set(), nofollowUrls: [`${START}deep`, `${START}excluded`], pageLevel: false });
    expect(nofollowIssues(p)).toEqual([['internal_nofollow', START, `2 nofollow internal link(s): ${START}deep, ${START}excluded`]]);
  });

  it('a page without nofollow links gets neither check, and followed links to indexable pages count for nothing', async () => {
    const p = parts();
    const a = target(p, 'a', { status: 200, flags: INDEXABLE });
    const later = target(p, 'later', 'queued');
    await p.links.countInlinks(p.startId, pageLinks(p, [a, later], []));
    await record(p, later, 200, INDEXABLE);
    await p.links.finish();
    expect(nofollowIssues(p)).toEqual([]);
  });

  it('keeps the slots of many waiting pages apart and reuses them', async () => {
    const p = parts({ scheduler: { maxUrls: 10_000 } });
    const pages = Array.from({ length: 300 }, (_, i) => p.reg.add(`${START}page-${i}`, 1, 'link').id);
    const targets = Array.from({ length: 300 }, (_, i) => target(p, `target-${i}`, 'queued'));
    // Page i links nofollow to targets i and i+1; even targets turn out indexable.
    for (let i = 0; i < pages.length; i++) await p.links.countInlinks(pages[i], pageLinks(p, [], [targets[i], targets[(i + 1) % targets.length]]));
    for (let i = 0; i < targets.length; i++) await record(p, targets[i], 200, i % 2 === 0 ? INDEXABLE : Flag.Internal | Flag.Html | Flag.Noindex);
    const found = new Map(nofollowIssues(p).map(([name, url, details]) => [url, `${name} ${details}`]));
    expect(found.size).toBe(pages.length);
    for (let i = 0; i < pages.length; i++) {
      const indexable = [targets[i], targets[(i + 1) % targets.length]].filter((id) => (id - targets[0]) % 2 === 0).map((id) => p.reg.url(id));
      expect(found.get(p.reg.url(pages[i]))).toBe(`internal_nofollow_to_indexable 1 nofollow link(s) to indexable pages: ${indexable.join(', ')}`);
    }
    // Every page was reported: a second round reuses the freed slots and still reports each once.
    p.store.issues.length = 0;
    for (let i = 0; i < pages.length; i++) await p.links.countInlinks(pages[i], pageLinks(p, [], [targets[i]]));
    expect(nofollowIssues(p)).toHaveLength(pages.length);
  });
});
