/**
 * Crawl mechanics on small fixture sites: redirects and loops, budget, depth, patterns, HTTP
 * auth, retries, Retry-After, timeouts, the network guard, issue exclusion, stopping, blocking.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { crawlSite, MAX_REDIRECTS } from '../../src/crawler/index.js';
import { pageHtml, startFixtureSite, type FixtureOptions, type FixtureSite, type Route } from './fixture-site.js';
import { config, crawl, FAST, issuesOf, memorySink } from '../../../../tests/support/crawler.js';

let site: FixtureSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

/** A page at `path` linking to `links` only (no navigation). */
function linking(path: string, links: string[]): Route {
  return { html: (o) => pageHtml({ path, nav: false, body: links.map((l) => `<a href="${l}">${l}</a>`).join(' ') }, o) };
}

async function start(options: FixtureOptions) {
  site = await startFixtureSite({ robots: 'User-agent: *\nAllow: /\n', sitemap: false, ...options });
  return site;
}

const CLEAN = ['/', '/about', '/blog/', '/blog/post-1', '/blog/post-2', '/products/', '/contact', '/defects/'];

describe('redirects', () => {
  it('follows up to the hop cap and records every hop', async () => {
    const routes: Record<string, Route> = { '/': linking('/', ['/r0', '/s0']) };
    // /r0 … /r9: ten redirects, then a page. /s0 … /s10: eleven, one too many.
    for (let i = 0; i < MAX_REDIRECTS; i++) routes[`/r${i}`] = { status: 301, headers: { location: `/r${i + 1}` }, body: () => '' };
    routes[`/r${MAX_REDIRECTS}`] = linking(`/r${MAX_REDIRECTS}`, []);
    for (let i = 0; i <= MAX_REDIRECTS; i++) routes[`/s${i}`] = { status: 302, headers: { location: `/s${i + 1}` }, body: () => '' };
    routes[`/s${MAX_REDIRECTS + 1}`] = linking(`/s${MAX_REDIRECTS + 1}`, []);
    const s = await start({ only: [], routes });
    const r = await crawl(`${s.origin}/`);
    const page = (p: string) => r.pages.find((x) => x.url === `${s.origin}${p}`);

    expect(page('/r0')!.redirect_chain).toHaveLength(MAX_REDIRECTS);
    expect(page(`/r${MAX_REDIRECTS}`)!.status_code).toBe(200);
    expect(issuesOf(r.issues, `${s.origin}/r0`)).toEqual(['redirect_chain']);

    expect(page('/s0')!.error_type).toBe('too_many_redirects');
    expect(page(`/s${MAX_REDIRECTS + 1}`)).toBeUndefined();
    expect(issuesOf(r.issues, `${s.origin}/s0`)).toEqual(['redirect_chain', 'temporary_redirect']);
    // A link into a chain that never ends is broken; a link into a long chain is a link to a redirect.
    expect(r.issues.filter((i) => i.url === `${s.origin}/` && i.name !== 'http_page').map((i) => [i.name, i.details])).toEqual(
      expect.arrayContaining([
        ['link_to_redirect', `link to ${s.origin}/r0: redirects (status 301)`],
        ['broken_internal_link', expect.stringContaining(`link to ${s.origin}/s0`)],
      ]),
    );
    // Each hop is fetched once, even the ones other links point to.
    expect(s.requests.filter((q) => q === 'GET /r5')).toHaveLength(1);
  });

  it('detects loops, including a redirect to itself', async () => {
    const s = await start({
      only: [],
      routes: {
        '/': linking('/', ['/a', '/self']),
        '/a': { status: 301, headers: { location: '/b' }, body: () => '' },
        '/b': { status: 308, headers: { location: '/a' }, body: () => '' },
        '/self': { status: 301, headers: { location: '/self#again' }, body: () => '' },
      },
    });
    const r = await crawl(`${s.origin}/`);
    expect(issuesOf(r.issues, `${s.origin}/a`)).toEqual(['redirect_loop']);
    expect(issuesOf(r.issues, `${s.origin}/self`)).toEqual(['redirect_loop']);
    expect(r.pages.find((p) => p.url === `${s.origin}/b`)?.error_type).toBe('redirect_loop');
    expect(s.requests.filter((q) => q === 'GET /a')).toHaveLength(1);
  });

  it('does not follow a redirect out of the site', async () => {
    let ext = '';
    const s = await start({
      only: [],
      routes: { '/': linking('/', ['/out']), '/out': { respond: () => ({ status: 301, headers: { location: `${ext}/elsewhere` } }) } },
    });
    ext = s.externalOrigin;
    const r = await crawl(`${s.origin}/`);
    expect(r.pages.find((p) => p.url === `${s.origin}/out`)?.redirect_url).toBe(`${ext}/elsewhere`);
    expect(s.externalRequests).toEqual([]);
  });

  it('adopts the host the start URL moves to', async () => {
    let ext = '';
    const s = await start({ only: [], routes: { '/': { respond: () => ({ status: 301, headers: { location: `${ext}/` } }) } } });
    ext = s.externalOrigin;
    const r = await crawl(`${s.origin}/`);
    expect(r.pages.find((p) => p.url === `${ext}/`)).toMatchObject({ is_internal: true, status_code: 200, discovered_via: 'redirect' });
  });
});

describe('budget, depth and patterns', () => {
  it('stops at max_urls and says the crawl was truncated', async () => {
    const s = await start({ only: CLEAN, routes: { '/blog/': linking('/blog/', ['/blog/post-1', '/blog/post-2']) } });
    const r = await crawl(`${s.origin}/`, { maxUrls: 3 });
    expect(r.outcome.crawled).toBe(3);
    expect(r.pages.filter((p) => p.is_internal)).toHaveLength(3);
    expect(r.outcome.truncated).toBe(true);
    expect(r.outcome.discovered).toBeGreaterThan(3);

    const all = await crawl(`${s.origin}/`, { maxUrls: 100 });
    expect(all.outcome.truncated).toBe(false);
    expect(all.outcome.crawled).toBe(all.outcome.discovered);
  });

  it('crawls the same URLs under the same budget whatever order the pages answer in', async () => {
    // 40 pages, each linking to five others; every page answers after a delay that differs between the two sites.
    const paths = Array.from({ length: 40 }, (_, i) => `/p${i}`);
    const links = (i: number) => [1, 7, 13, 22, 31].map((step) => paths[(i * 3 + step) % paths.length]);
    const crawled = async (delay: (i: number) => number) => {
      const routes: Record<string, Route> = { '/': linking('/', paths.slice(0, 6)) };
      paths.forEach((path, i) => (routes[path] = { ...linking(path, links(i)), delayMs: delay(i) }));
      const s = await start({ only: [], routes });
      const r = await crawl(`${s.origin}/`, { maxUrls: 17, concurrency: 8, perHostConcurrency: 8 });
      await s.close();
      site = undefined;
      expect(r.outcome.truncated).toBe(true);
      return r.pages.filter((p) => p.is_internal).map((p) => p.url.slice(s.origin.length)).sort();
    };
    const first = await crawled((i) => 1 + ((i * 7) % 11) * 3);
    const second = await crawled((i) => 1 + ((i * 5 + 3) % 11) * 3);
    expect(first).toHaveLength(17);
    expect(second).toEqual(first);
  });

  it('a budget exactly the size of the site is not a truncation', async () => {
    const s = await start({ only: ['/', '/about'], routes: { '/': linking('/', ['/about']), '/about': linking('/about', ['/']) } });
    const r = await crawl(`${s.origin}/`, { maxUrls: 2 });
    expect(r.outcome).toMatchObject({ crawled: 2, truncated: false });
  });

  it('respects max_depth (not a truncation)', async () => {
    const s = await start({ only: CLEAN, routes: { '/blog/': linking('/blog/', ['/blog/post-1', '/blog/post-2']) } });
    const r = await crawl(`${s.origin}/`, { maxDepth: 1 });
    expect(Math.max(...r.pages.map((p) => p.depth ?? 0))).toBe(1);
    expect(r.pages.some((p) => p.url.endsWith('/blog/post-1'))).toBe(false);
    expect(r.outcome.truncated).toBe(false);
    const zero = await crawl(`${s.origin}/`, { maxDepth: 0 });
    expect(zero.pages.map((p) => p.url)).toEqual([`${s.origin}/`]);
  });

  it('applies exclude and include patterns, but always crawls the start URL', async () => {
    const s = await start({ only: CLEAN, routes: { '/blog/': linking('/blog/', ['/blog/post-1', '/blog/post-2']) } });
    const excluded = await crawl(`${s.origin}/`, { excludePatterns: '/blog/\n/contact$' });
    const urls = excluded.pages.map((p) => p.url.replace(s.origin, ''));
    expect(urls.some((u) => u.startsWith('/blog/') || u === '/contact')).toBe(false);
    expect(urls).toContain('/about');

    const included = await crawl(`${s.origin}/`, { includePatterns: '/blog/*' });
    expect(included.pages.map((p) => p.url.replace(s.origin, '')).sort()).toEqual(['/', '/blog/', '/blog/post-1', '/blog/post-2']);

    // Pages reachable only through excluded ones are not found: patterns limit the crawl itself.
    const regex = await crawl(`${s.origin}/`, { includePatterns: 're:/blog/(post-\\d)?$' });
    expect(regex.pages.map((p) => p.url.replace(s.origin, '')).sort()).toEqual(['/', '/blog/', '/blog/post-1', '/blog/post-2']);
  });

  it('drops the issues whose URL matches issue_exclusion_patterns, from counts and score too', async () => {
    const s = await start({ only: [...CLEAN, '/no-h1', '/thin'] });
    const all = await crawl(`${s.origin}/`);
    const some = await crawl(`${s.origin}/`, { issueExclusionPatterns: '/no-h1, /thin' });
    expect(all.issues.some((i) => i.url.endsWith('/no-h1'))).toBe(true);
    expect(some.issues.some((i) => i.url.endsWith('/no-h1') || i.url.endsWith('/thin'))).toBe(false);
    // slow_response (a warning) follows the machine's load, not the site: left out of the comparison.
    const slow = (r: typeof all) => r.issues.filter((i) => i.name === 'slow_response').length;
    expect(some.outcome.issueCounts.warning - slow(some)).toBeLessThan(all.outcome.issueCounts.warning - slow(all));
    if (slow(some) === slow(all)) expect(some.outcome.healthScore!).toBeGreaterThan(all.outcome.healthScore!);
  });
});

describe('HTTP', () => {
  it('sends basic auth to the site, and never to other hosts', async () => {
    const s = await start({
      only: ['/', '/about'],
      auth: { user: 'ann', password: 's3cret' },
      routes: { '/': linking('/', ['/about']), '/about': { html: (o) => pageHtml({ path: '/about', nav: false, body: '<a href="EXT/x">x</a>' }, o).replace('EXT', s.externalOrigin) } },
    });
    const denied = await crawl(`${s.origin}/`);
    expect(denied.pages[0].status_code).toBe(401);
    expect(issuesOf(denied.issues, `${s.origin}/`)).toEqual(['http_4xx']);

    const r = await crawl(`${s.origin}/`, { httpAuth: { user: 'ann', password: 's3cret' }, checkExternalLinks: true });
    expect(r.pages.filter((p) => p.is_internal).map((p) => p.status_code)).toEqual([200, 200]);
    expect(s.externalRequests.length).toBeGreaterThan(0);
    expect(s.externalRequests.every((q) => q.endsWith(' -'))).toBe(true);
  });

  it('retries 5xx with backoff, up to the configured retries', async () => {
    const flaky = (fails: number): Route => ({
      respond: (n) => (n <= fails ? { status: 503, body: 'busy' } : { status: 200, body: pageHtml({ path: '/flaky' }, s.origin) }),
    });
    let s = await start({ only: [], routes: { '/': linking('/', ['/flaky']), '/flaky': flaky(2) } });
    const ok = await crawl(`${s.origin}/`, { retries: 2 });
    expect(ok.pages.find((p) => p.url.endsWith('/flaky'))?.status_code).toBe(200);
    expect(s.requests.filter((q) => q === 'GET /flaky')).toHaveLength(3);
    await s.close();

    s = site = await startFixtureSite({ robots: 'User-agent: *\nAllow: /\n', sitemap: false, only: [], routes: { '/': linking('/', ['/flaky']), '/flaky': flaky(5) } });
    const failed = await crawl(`${s.origin}/`, { retries: 1 });
    expect(failed.pages.find((p) => p.url.endsWith('/flaky'))?.status_code).toBe(503);
    expect(issuesOf(failed.issues, `${s.origin}/flaky`)).toEqual(['http_5xx']);
    expect(s.requests.filter((q) => q === 'GET /flaky')).toHaveLength(2);
  });

  it('waits for Retry-After on 429 and does not retry a 404', async () => {
    const s = await start({
      only: [],
      routes: {
        '/': linking('/', ['/busy', '/missing']),
        '/busy': { respond: (n) => (n === 1 ? { status: 429, headers: { 'retry-after': '0' }, body: 'slow down' } : { status: 200, body: '<html><body>ok</body></html>' }) },
        '/missing': { status: 404, html: () => 'no' },
      },
    });
    const r = await crawl(`${s.origin}/`, { retries: 2 });
    expect(r.pages.find((p) => p.url.endsWith('/busy'))?.status_code).toBe(200);
    expect(s.requests.filter((q) => q === 'GET /busy')).toHaveLength(2);
    expect(s.requests.filter((q) => q === 'GET /missing')).toHaveLength(1);
  });

  it('records a timeout as a fetch failure after its retries', async () => {
    const s = await start({ only: [], routes: { '/': linking('/', ['/slow']), '/slow': { hang: true } } });
    const r = await crawl(`${s.origin}/`, { timeoutMs: 150, retries: 1 });
    const slow = r.pages.find((p) => p.url.endsWith('/slow'))!;
    expect(slow).toMatchObject({ status_code: null, error_type: 'timeout' });
    expect(issuesOf(r.issues, slow.url)).toEqual(['fetch_failed']);
    expect(s.requests.filter((q) => q === 'GET /slow')).toHaveLength(2);
    expect(r.issues.filter((i) => i.name === 'broken_internal_link').map((i) => [i.url, i.details])).toEqual([[`${s.origin}/`, `link to ${slow.url}: no response`]]);
  });

  it('checks external links only when asked, HEAD first', async () => {
    const s = await start({ only: ['/external-links'], routes: { '/': linking('/', ['/external-links']) } });
    const off = await crawl(`${s.origin}/`);
    expect(off.pages.every((p) => p.is_internal)).toBe(true);
    expect(s.externalRequests).toEqual([]);
    const on = await crawl(`${s.origin}/`, { checkExternalLinks: true });
    expect(issuesOf(on.issues, `${s.origin}/external-links`)).toContain('broken_external_link');
    expect(s.externalRequests).toEqual(expect.arrayContaining(['HEAD /ok -', 'HEAD /head-405 -', 'GET /head-405 -']));
  });
});

describe('guard, blocking and stopping', () => {
  it('refuses 127.0.0.1 when private addresses are not allowed', async () => {
    const s = await start({ only: ['/'] });
    const r = await crawl(`${s.origin}/`, { allowPrivateAddresses: false });
    expect(r.outcome).toMatchObject({ blocked: true, blockedReason: 'address_refused', crawled: 1, healthScore: null });
    expect(r.pages[0]).toMatchObject({ url: `${s.origin}/`, error_type: 'address_refused' });
    expect(s.requests).toEqual([]);
  });

  it('is blocked by a firewall challenge on the start URL, without reporting it', async () => {
    const s = await start({
      only: [],
      routes: {
        '/': {
          status: 403,
          html: () => '<html><head><title>Attention Required! | Cloudflare</title></head><body>Sorry, you have been blocked. <div class="cf-error-details">Ray ID</div><script src="/cdn-cgi/challenge-platform/x"></script></body></html>',
        },
      },
    });
    const r = await crawl(`${s.origin}/`);
    expect(r.outcome).toMatchObject({ blocked: true, blockedReason: 'firewall', protectionOccurrences: 1, healthScore: null });
    expect(r.issues.filter((i) => i.url === `${s.origin}/`)).toEqual([]);
  });

  it('stops when the signal aborts, and says so', async () => {
    const s = await start({ only: CLEAN });
    const controller = new AbortController();
    const { store, sink } = memorySink();
    const outcome = await crawlSite(config(`${s.origin}/`, { concurrency: 1 }), { ...sink, progress: () => controller.abort() }, { ...FAST, signal: controller.signal });
    expect(outcome.aborted).toBe(true);
    expect(outcome.crawled).toBeLessThan(CLEAN.length);
    expect(store.pages.length).toBe(outcome.crawled);
  });

  it('reports a missing sitemap', async () => {
    const s = await start({ only: ['/'] });
    const r = await crawl(`${s.origin}/`);
    expect(r.issues.filter((i) => i.name === 'sitemap_missing').map((i) => i.url)).toEqual([`${s.origin}/sitemap.xml`]);
  });

  it('batches sink calls and never sends an issue before its page', async () => {
    const s = await start({ only: [...CLEAN, '/no-h1', '/thin', '/no-og'] });
    const order: string[] = [];
    const seen = new Set<string>();
    let early = 0;
    const outcome = await crawlSite(
      config(`${s.origin}/`),
      {
        async pages(batch) {
          order.push(`pages:${batch.length}`);
          for (const p of batch) seen.add(p.url);
        },
        async issues(batch) {
          order.push(`issues:${batch.length}`);
          for (const i of batch) if (i.url.startsWith(s.origin) && !i.url.endsWith('.txt') && !i.url.endsWith('.xml') && !seen.has(i.url)) early++;
        },
        progress() {},
      },
      { tuning: { batchSize: 3 } },
    );
    expect(outcome.crawled).toBeGreaterThan(5);
    expect(early).toBe(0);
    expect(order.every((o) => Number(o.split(':')[1]) <= 3)).toBe(true);
  });
});
