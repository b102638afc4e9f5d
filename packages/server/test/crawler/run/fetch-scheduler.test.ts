import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { abortError } from '../../../src/abort.js';
import { Flag, State } from '../../../src/crawler/run/url-registry.js';
import { parts, START } from '../parts.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('scheduler: discovering URLs', () => {
  it('registers and queues in-scope internal URLs within the depth limit, and nothing else', () => {
    const { scheduler, reg } = parts({ scheduler: { maxDepth: 2 }, exclude: '/private/' });
    const id = scheduler.discover(`${START}a`, 1, 'link')!;
    expect(reg.url(id)).toBe(`${START}a`);
    expect(reg.state[id]).toBe(State.Queued);
    expect(reg.has(id, Flag.Internal)).toBe(true);
    expect(scheduler.discover(`${START}deep`, 3, 'link')).toBeNull();
    expect(scheduler.discover(`${START}private/x`, 1, 'link')).toBeNull();
    expect(scheduler.discover('https://other.example/', 1, 'link')).toBeNull();
    // Known already: its id, whatever the depth.
    expect(scheduler.discover(`${START}a`, 2, 'link')).toBe(id);
  });

  it('moves a queued URL to a lower depth, and queues a sitemap-only URL once a link reaches it', () => {
    const { scheduler, reg } = parts();
    const id = scheduler.discover(`${START}a`, 3, 'link')!;
    scheduler.discover(`${START}a`, 1, 'canonical');
    expect(reg.depth[id]).toBe(1);
    expect(reg.discoveredVia(id)).toBe('link');

    const listed = reg.add(`${START}listed`, 1, 'sitemap').id;
    expect(reg.state[listed]).toBe(State.Known);
    scheduler.discover(`${START}listed`, 2, 'link');
    expect(reg.state[listed]).toBe(State.Queued);
    expect(reg.depth[listed]).toBe(2);
    expect(reg.discoveredVia(listed)).toBe('link');
  });

  it('stops registering at the registry cap, and says the crawl is truncated', () => {
    const { scheduler } = parts({ scheduler: { maxUrls: 1 } });
    expect(scheduler.registryCap).toBe(10_000);
    for (let i = 0; i < scheduler.registryCap; i++) scheduler.discover(`${START}p${i}`, 1, 'link');
    expect(scheduler.truncated).toBe(true);
  });
});

describe('scheduler: running the crawl', () => {
  it('fetches breadth first', async () => {
    const { scheduler, startId, reg } = parts({ scheduler: { concurrency: 1 } });
    const order: string[] = [];
    const links: Record<string, string[]> = { '': ['a', 'b'], a: ['c'], b: [], c: [] };
    scheduler.enqueue(startId, 0);
    await scheduler.run(async (id) => {
      const path = reg.url(id).slice(START.length);
      order.push(path);
      for (const l of links[path]) scheduler.discover(`${START}${l}`, reg.depth[id] + 1, 'link');
      reg.state[id] = State.Done;
    }, async () => false);
    expect(order).toEqual(['', 'a', 'b', 'c']);
  });

  it.each([
    ['holding its host slot', false],
    ['whose host slot is freed (its body read, its analysis still running)', true],
  ])('keeps click depths exact: nothing at depth d starts while a page at d-2 is in flight, %s', async (_, freed) => {
    const { scheduler, startId, reg } = parts();
    const deep = reg.add(`${START}deep`, 2, 'link').id;
    scheduler.enqueue(startId, 0);
    scheduler.enqueue(deep, 2);
    const started: string[] = [];
    await scheduler.run(async (id, slot) => {
      started.push(reg.url(id));
      if (freed) slot.release();
      if (id === startId) {
        await tick();
        expect(started).toEqual([START]);
      }
      reg.state[id] = State.Done;
    }, async () => false);
    expect(started).toEqual([START, `${START}deep`]);
  });

  it('runs at most perHostConcurrency requests on a host, one while it has a Crawl-delay', async () => {
    for (const [delay, expected] of [[0, 2], [1000, 1]]) {
      const { scheduler, reg } = parts({ scheduler: { concurrency: 4, perHostConcurrency: 2, hostDelay: () => delay } });
      for (let i = 0; i < 6; i++) scheduler.discover(`${START}p${i}`, 1, 'link');
      let inFlight = 0;
      let most = 0;
      await scheduler.run(async (id) => {
        most = Math.max(most, ++inFlight);
        await tick();
        inFlight--;
        reg.state[id] = State.Done;
      }, async () => false);
      expect(most).toBe(expected);
    }
  });

  it('starts the next request on a host once a page freed its slot, while that page is still analysed', async () => {
    const { scheduler, reg } = parts({ scheduler: { concurrency: 4, perHostConcurrency: 1 } });
    for (let i = 0; i < 4; i++) scheduler.discover(`${START}p${i}`, 1, 'link');
    let requests = 0;
    let mostRequests = 0;
    let mostPages = 0;
    let pages = 0;
    await scheduler.run(async (id, slot) => {
      pages++;
      mostPages = Math.max(mostPages, pages);
      mostRequests = Math.max(mostRequests, ++requests);
      await tick();
      requests--;
      slot.release(); // the body is read: the host is free
      slot.release(); // a second release frees nothing more
      await tick(); // the analysis
      pages--;
      reg.state[id] = State.Done;
    }, async () => false);
    // One request at a time on the host, but pages overlap: the next request did not wait for the analysis.
    expect(mostRequests).toBe(1);
    expect(mostPages).toBe(2);
  });

  it('spends the max_urls budget, then truncates; a released URL gives its slot back', async () => {
    const { scheduler, reg } = parts({ scheduler: { maxUrls: 3 } });
    for (let i = 0; i < 5; i++) scheduler.discover(`${START}p${i}`, 1, 'link');
    expect(scheduler.claim()).toBe(true);
    scheduler.release([reg.get(`${START}p0`)!]);
    let fetched = 0;
    await scheduler.run(async (id) => {
      fetched++;
      reg.state[id] = State.Done;
    }, async () => false);
    expect(fetched).toBe(3);
    expect(scheduler.truncated).toBe(true);
    expect(scheduler.claim()).toBe(false);
  });

  /**
   * A crawl of `site` (path → the paths it links to, in order) with pages that answer after the
   * delays `delays` gives, in turn; the paths fetched, in the order they started.
   */
  async function budgeted(site: Record<string, string[]>, maxUrls: number, delays: () => number, concurrency = 4): Promise<string[]> {
    const { scheduler, startId, reg } = parts({ scheduler: { maxUrls, concurrency, perHostConcurrency: concurrency } });
    scheduler.enqueue(startId, 0);
    const started: string[] = [];
    await scheduler.run(async (id) => {
      const path = reg.url(id).slice(START.length);
      started.push(path);
      await new Promise((resolve) => setTimeout(resolve, delays()));
      let index = 0;
      for (const l of site[path] ?? []) scheduler.discover(`${START}${l}`, reg.depth[id] + 1, 'link', { page: id, index: index++ });
      reg.state[id] = State.Done;
    }, async () => false);
    return started;
  }

  it('cuts the budget on the same URLs whatever order the pages answer in: the order the pages above named them', async () => {
    // The home names a, b, c; each names three pages of the next level, some named twice.
    const site: Record<string, string[]> = { '': ['a', 'b', 'c'], a: ['a1', 'a2', 'b1'], b: ['b1', 'b2', 'b3'], c: ['c1', 'a1', 'c2'], a1: ['x'], b1: ['y'] };
    const first = await budgeted(site, 7, () => 0);
    // Breadth first, and within a level in the order the level above named them: a1, a2, b1 (a names them first).
    expect(first).toEqual(['', 'a', 'b', 'c', 'a1', 'a2', 'b1']);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 4 }), async (pattern, budget, concurrency) => {
        let i = 0;
        const calm = await budgeted(site, budget, () => 0, 1);
        const hurried = await budgeted(site, budget, () => pattern[i++ % pattern.length], concurrency);
        expect(new Set(hurried)).toEqual(new Set(calm));
      }),
      { numRuns: 40 },
    );
  });

  it('opens a level once nothing above it is in flight, and the URLs a level finds at its own depth as a next wave', async () => {
    const { scheduler, startId, reg } = parts({ scheduler: { concurrency: 4, maxUrls: 5 } });
    scheduler.enqueue(startId, 0);
    const started: string[] = [];
    const inFlight = new Set<number>();
    await scheduler.run(async (id) => {
      const path = reg.url(id).slice(START.length);
      // Nothing of a deeper level runs beside a page above it.
      for (const other of inFlight) expect(reg.depth[other]).toBe(reg.depth[id]);
      started.push(path);
      inFlight.add(id);
      // s2 answers last, so the target of s1 is found first.
      await new Promise((resolve) => setTimeout(resolve, path === 's2' ? 30 : 1));
      if (path === '') ['s2', 's1', 'deep'].forEach((l, index) => scheduler.discover(`${START}${l}`, 1, 'link', { page: id, index }));
      // The stubs lead to their targets at their own depth: a next wave of level 1, ordered as the stubs are.
      if (path === 's2') scheduler.discover(`${START}t2`, 1, 'redirect', { page: id, index: 0 });
      if (path === 's1') scheduler.discover(`${START}t1`, 1, 'redirect', { page: id, index: 0 });
      if (path === 'deep') scheduler.discover(`${START}d2`, 2, 'link', { page: id, index: 0 });
      inFlight.delete(id);
      reg.state[id] = State.Done;
    }, async () => false);
    // The budget of 5: the home, its three links, then t2 (named by s2, which the home names first), though t1 came first.
    expect(started).toEqual(['', 's2', 's1', 'deep', 't2']);
    expect(scheduler.truncated).toBe(true);
  });

  it('takes one slot for a URL queued twice at its depth, and fetches it once', async () => {
    const { scheduler, reg } = parts({ scheduler: { maxUrls: 2 } });
    const twice = reg.add(`${START}twice`, 1, 'link').id;
    scheduler.enqueue(twice, 1);
    scheduler.enqueue(twice, 1);
    scheduler.discover(`${START}other`, 1, 'link');
    const fetched: string[] = [];
    await scheduler.run(async (id) => {
      fetched.push(reg.url(id).slice(START.length));
      reg.state[id] = State.Done;
    }, async () => false);
    expect(fetched.sort()).toEqual(['other', 'twice']);
    expect(scheduler.truncated).toBe(false);
  });

  it('runs the refill once the link crawl drains, then the sitemap-only URLs at depth 1', async () => {
    const { scheduler, startId, reg } = parts();
    const listed = reg.add(`${START}listed`, 1, 'sitemap').id;
    scheduler.enqueue(startId, 0);
    let refills = 0;
    const fetched: string[] = [];
    await scheduler.run(
      async (id) => {
        fetched.push(reg.url(id));
        reg.state[id] = State.Done;
      },
      async () => {
        refills++;
        return scheduler.queueSitemapOnly();
      },
    );
    expect(refills).toBe(1);
    expect(fetched).toEqual([START, `${START}listed`]);
    expect(reg.discoveredVia(listed)).toBe('sitemap');
  });

  it('runs auxiliary jobs in free slots', async () => {
    const { scheduler } = parts();
    const ran: string[] = [];
    scheduler.queueAux('https://other.example/a', async () => void ran.push('a'));
    scheduler.queueAux('https://other.example/b', async () => void ran.push('b'));
    await scheduler.run(async () => undefined, async () => false);
    expect(ran).toEqual(['a', 'b']);
  });

  it('ends on a failure once the work in flight is over, but not on an abort', async () => {
    const { scheduler, reg } = parts();
    for (let i = 0; i < 3; i++) scheduler.discover(`${START}p${i}`, 1, 'link');
    await expect(
      scheduler.run(async (id) => {
        if (reg.url(id).endsWith('p1')) throw new Error('sink down');
        await tick();
        reg.state[id] = State.Done;
      }, async () => false),
    ).rejects.toThrow('sink down');

    const other = parts();
    other.scheduler.discover(`${START}x`, 1, 'link');
    await other.scheduler.run(async () => {
      throw abortError(undefined, 'crawl stopped');
    }, async () => true);
  });

  it('starts nothing once the crawl signal is aborted', async () => {
    const { scheduler, control, startId } = parts();
    scheduler.enqueue(startId, 0);
    control.stop('firewall');
    let fetched = 0;
    await scheduler.run(async () => void fetched++, async () => true);
    expect(fetched).toBe(0);
  });
});
