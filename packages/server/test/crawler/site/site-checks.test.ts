/**
 * Cross-page checks, each with pages built to trigger it and pages built not to (the full set is
 * also covered by the labelled fixture crawl).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { pageHtml, prose, startFixtureSite, type FixtureOptions, type FixtureSite, type Route } from '../fixture-site.js';
import { crawl, issuesOf } from '../../../../../tests/support/crawler.js';

let site: FixtureSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

function start(options: FixtureOptions) {
  return startFixtureSite({ robots: 'User-agent: *\nAllow: /\n', sitemap: false, only: [], ...options }).then((s) => (site = s));
}

const hub = (paths: string[]): Route => ({
  html: (o) => pageHtml({ path: '/', nav: false, body: paths.map((p) => `<a href="${p}">${p}</a>`).join(' ') }, o),
});
const pageRoute = (path: string, o: Parameters<typeof pageHtml>[0] = { path }, status?: number): Route => ({ status, html: (origin) => pageHtml({ ...o, path, nav: false }, origin) });

describe('duplicates among indexable 2xx pages', () => {
  it('reports equal titles and descriptions, ignoring noindex, non-canonical and error pages', async () => {
    const same = { title: 'Exactly the same title text', description: 'Exactly the same description on each of these pages, long enough to count.' };
    const s = await start({
      routes: {
        '/': hub(['/a', '/b', '/noindex', '/other-canonical', '/error']),
        '/a': pageRoute('/a', { path: '/a', ...same }),
        '/b': pageRoute('/b', { path: '/b', ...same, title: ' exactly  the SAME title text ' }),
        '/noindex': pageRoute('/noindex', { path: '/noindex', ...same, head: '<meta name="robots" content="noindex">' }),
        '/other-canonical': pageRoute('/other-canonical', { path: '/other-canonical', ...same, canonical: '/a' }),
        '/error': pageRoute('/error', { path: '/error', ...same }, 500),
      },
    });
    const r = await crawl(`${s.origin}/`);
    const flagged = (name: string) => r.issues.filter((i) => i.name === name).map((i) => i.url.replace(s.origin, '')).sort();
    expect(flagged('title_duplicate')).toEqual(['/a', '/b']);
    expect(flagged('description_duplicate')).toEqual(['/a', '/b']);
    // The comparison ignores case: the titles differ only by case and the details say so; the descriptions are written alike.
    const details = (name: string) => r.issues.filter((i) => i.name === name).map((i) => i.details);
    for (const d of details('title_duplicate')) expect(d).toMatch(/^same title as 1 other page\(s\), e\.g\. \S+ \(compared ignoring case: the values differ only by case\)$/);
    for (const d of details('description_duplicate')) expect(d).not.toContain('ignoring case');
  });

  it('exact duplicate content compares the main text, not the page around it', async () => {
    const text = prose('shared');
    const s = await start({
      routes: {
        '/': hub(['/a', '/b', '/c']),
        // Same main text, different navigation around it: duplicates.
        '/a': { html: (o) => pageHtml({ path: '/a', h1: ['Same'], text, body: '' }, o) },
        '/b': { html: (o) => pageHtml({ path: '/b', h1: ['Same'], text, nav: false }, o) },
        // Same navigation, different text: not duplicates.
        '/c': { html: (o) => pageHtml({ path: '/c', h1: ['Same'] }, o) },
      },
    });
    const r = await crawl(`${s.origin}/`);
    expect(r.issues.filter((i) => i.name === 'duplicate_content').map((i) => i.url.replace(s.origin, '')).sort()).toEqual(['/a', '/b']);
  });

  it('near-duplicates honour duplication_threshold', async () => {
    const words = prose('near', 300).split(' ');
    const edited = [...words];
    edited[150] = 'different';
    const routes = {
      '/': hub(['/a', '/b', '/c']),
      '/a': pageRoute('/a', { path: '/a', h1: ['Near'], text: words.join(' ') }),
      '/b': pageRoute('/b', { path: '/b', h1: ['Near'], text: edited.join(' ') }),
      '/c': pageRoute('/c', { path: '/c', h1: ['Near'] }),
    };
    const s = await start({ routes });
    const at90 = await crawl(`${s.origin}/`, { duplicationThreshold: 90 });
    expect(at90.issues.filter((i) => i.name === 'near_duplicate_content').map((i) => i.url.replace(s.origin, '')).sort()).toEqual(['/a', '/b']);
    const at100 = await crawl(`${s.origin}/`, { duplicationThreshold: 100 });
    const distance0 = at100.pages.find((p) => p.url.endsWith('/a'))!.simhash === at100.pages.find((p) => p.url.endsWith('/b'))!.simhash;
    expect(at100.issues.filter((i) => i.name === 'near_duplicate_content')).toHaveLength(distance0 ? 2 : 0);
  });
});

describe('link graph checks', () => {
  it('orphans: in the sitemap without inlinks, and only when the crawl saw the whole link graph', async () => {
    const routes = {
      '/': hub(['/linked']),
      '/linked': pageRoute('/linked'),
      '/orphan': pageRoute('/orphan'),
    };
    const sitemap = (o: string) =>
      `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${o}/linked</loc></url><url><loc>${o}/orphan</loc></url></urlset>`;
    const s = await start({
      robots: 'User-agent: *\nAllow: /\nSitemap: /sitemap.xml\n',
      routes: { ...routes, '/sitemap.xml': { headers: { 'content-type': 'application/xml' }, body: sitemap } },
    });
    // The fixture serves /sitemap.xml itself unless told not to; here the route does it.
    const r = await crawl(`${s.origin}/`);
    expect(r.issues.filter((i) => i.name === 'orphan_page').map((i) => i.url)).toEqual([`${s.origin}/orphan`]);
    const truncated = await crawl(`${s.origin}/`, { maxUrls: 2 });
    expect(truncated.outcome.truncated).toBe(true);
    expect(truncated.issues.filter((i) => i.name === 'orphan_page')).toEqual([]);
  });

  it('sitemap entries by cause; indexable pages missing from the sitemap; pages with a single incoming link', async () => {
    const listed = ['/', '/linked', '/moved', '/gone', '/hidden', '/copy', '/elsewhere', '/private/x'];
    const sitemap = (o: string) => `<?xml version="1.0"?><urlset>${listed.map((p) => `<url><loc>${o}${p}</loc></url>`).join('')}</urlset>`;
    const s = await start({
      robots: 'User-agent: *\nDisallow: /private/\nSitemap: /sitemap.xml\n',
      routes: {
        '/': hub(['/linked', '/twice', '/unlisted', '/moved', '/hidden', '/copy', '/elsewhere']),
        '/linked': pageRoute('/linked', { path: '/linked', body: '<a href="/twice">t</a>' }),
        '/twice': pageRoute('/twice'),
        '/unlisted': pageRoute('/unlisted'),
        '/moved': { status: 301, headers: { location: '/linked' }, body: () => '' },
        '/gone': { status: 404, html: () => 'gone' },
        '/hidden': pageRoute('/hidden', { path: '/hidden', head: '<meta name="robots" content="noindex">' }),
        '/copy': pageRoute('/copy', { path: '/copy', canonical: '/linked' }),
        // Canonical to another site: the page's canonical_cross_domain says it, the sitemap entry adds nothing (one cause, one finding).
        '/elsewhere': pageRoute('/elsewhere', { path: '/elsewhere', canonical: 'https://mirror.example/elsewhere' }),
        '/private/x': pageRoute('/private/x'),
        '/sitemap.xml': { headers: { 'content-type': 'application/xml' }, body: sitemap },
      },
    });
    const r = await crawl(`${s.origin}/`);
    const flagged = (name: string) => r.issues.filter((i) => i.name === name).map((i) => `${i.url.replace(s.origin, '')} ${i.details}`).sort();
    expect(flagged('sitemap_redirect')).toEqual(['/moved listed in the sitemap: redirects (status 301)']);
    expect(flagged('sitemap_bad_url')).toEqual(['/gone listed in the sitemap: status 404']);
    expect(flagged('sitemap_noindex')).toEqual(['/hidden listed in the sitemap: noindex']);
    expect(flagged('sitemap_non_canonical')).toEqual(['/copy listed in the sitemap: not canonical']);
    expect(flagged('canonical_cross_domain')).toEqual(['/elsewhere canonical https://mirror.example/elsewhere is on another host']);
    expect(flagged('sitemap_blocked')).toEqual(['/private/x listed in the sitemap: blocked by robots.txt']);
    // Listed pages, noindex and non-canonical ones are not asked into the sitemap.
    expect(flagged('not_in_sitemap')).toEqual(['/twice indexable, not listed in the sitemap', '/unlisted indexable, not listed in the sitemap']);
    // /twice has two linking pages, the start has none to count; /copy and /hidden are not indexable.
    expect(flagged('single_inlink')).toEqual(['/linked a single internal page links here', '/unlisted a single internal page links here']);

    // Without a sitemap nothing is missing from one; a crawl cut by its budget judges no inlinks.
    await s.close();
    const none = await start({ routes: { '/': hub(['/a']), '/a': pageRoute('/a') } });
    const plain = await crawl(`${none.origin}/`);
    expect(plain.issues.filter((i) => i.name === 'not_in_sitemap')).toEqual([]);
    expect(plain.issues.filter((i) => i.name === 'single_inlink').map((i) => i.url)).toEqual([`${none.origin}/a`]);
    const cut = await crawl(`${none.origin}/`, { maxUrls: 1 });
    expect(cut.issues.filter((i) => i.name === 'single_inlink')).toEqual([]);
  });

  it('nofollow to indexable pages: on the page holding the links, once the targets are crawled, never with internal_nofollow', async () => {
    const nofollowTo = (path: string, target: string, o: Parameters<typeof pageHtml>[0] = { path }) =>
      pageRoute(path, { ...o, path, body: `<a href="${target}" rel="nofollow">${target}</a>` });
    const s = await start({
      robots: 'User-agent: *\nDisallow: /private/\n',
      routes: {
        // Breadth first, one at a time: /rel's /target is crawled before /rel, /late's /deeper after /late.
        '/': hub(['/target', '/rel', '/meta', '/header', '/to-noindex', '/to-moved', '/to-gone', '/to-copy', '/to-private', '/to-pdf', '/followed', '/hub2']),
        '/hub2': pageRoute('/hub2', { path: '/hub2', body: '<a href="/late">late</a>' }),
        '/late': nofollowTo('/late', '/deeper'),
        '/deeper': pageRoute('/deeper'),
        '/target': pageRoute('/target'),
        '/other': pageRoute('/other'),
        // Triggered: rel=nofollow, meta robots nofollow for the page, X-Robots-Tag nofollow.
        '/rel': pageRoute('/rel', { path: '/rel', body: '<a href="/target" rel="nofollow">t</a> <a href="/noindex" rel="nofollow">n</a> <a href="/other" rel="external nofollow">o</a>' }),
        '/meta': pageRoute('/meta', { path: '/meta', head: '<meta name="robots" content="index, nofollow">', body: '<a href="/target">t</a> <a href="/gone">g</a>' }),
        '/header': { headers: { 'x-robots-tag': 'nofollow' }, html: (o) => pageHtml({ path: '/header', nav: false, body: '<a href="/other">o</a>' }, o) },
        // Not triggered: the target is noindex, redirected, gone, canonicalised elsewhere, blocked, not HTML; or the link is followed.
        '/to-noindex': nofollowTo('/to-noindex', '/noindex'),
        '/to-moved': nofollowTo('/to-moved', '/moved'),
        '/to-gone': nofollowTo('/to-gone', '/gone'),
        '/to-copy': nofollowTo('/to-copy', '/copy'),
        '/to-private': nofollowTo('/to-private', '/private/x'),
        '/to-pdf': nofollowTo('/to-pdf', '/file.pdf'),
        '/followed': pageRoute('/followed', { path: '/followed', body: '<a href="/target">t</a>' }),
        '/noindex': pageRoute('/noindex', { path: '/noindex', head: '<meta name="robots" content="noindex">' }),
        '/moved': { status: 301, headers: { location: '/target' }, body: () => '' },
        '/gone': { status: 404, html: () => 'gone' },
        '/copy': pageRoute('/copy', { path: '/copy', canonical: '/target' }),
        '/private/x': pageRoute('/private/x'),
        '/file.pdf': { headers: { 'content-type': 'application/pdf' }, body: () => '%PDF-1.4' },
      },
    });
    const r = await crawl(`${s.origin}/`, { concurrency: 1 });
    const flagged = (name: string) => r.issues.filter((i) => i.name === name).map((i) => `${i.url.replace(s.origin, '')} ${i.details.replaceAll(s.origin, '')}`).sort();
    expect(flagged('internal_nofollow_to_indexable')).toEqual([
      '/header page-level nofollow on 1 link(s) to indexable pages: /other',
      '/late 1 nofollow link(s) to indexable pages: /deeper',
      '/meta page-level nofollow on 1 link(s) to indexable pages: /target',
      '/rel 2 nofollow link(s) to indexable pages: /target, /other',
    ]);
    expect(flagged('internal_nofollow')).toEqual([
      '/to-copy 1 nofollow internal link(s): /copy',
      '/to-gone 1 nofollow internal link(s): /gone',
      '/to-moved 1 nofollow internal link(s): /moved',
      '/to-noindex 1 nofollow internal link(s): /noindex',
      '/to-pdf 1 nofollow internal link(s): /file.pdf',
      '/to-private 1 nofollow internal link(s): /private/x',
    ]);
    expect(issuesOf(r.issues, `${s.origin}/followed`)).not.toContain('internal_nofollow_to_indexable');

    // A target the crawl never fetches (here beyond the depth limit) is not known to be indexable.
    const shallow = await crawl(`${s.origin}/`, { concurrency: 1, maxDepth: 2 });
    expect(shallow.issues.filter((i) => i.name.startsWith('internal_nofollow') && i.url === `${s.origin}/late`).map((i) => `${i.name} ${i.details.replaceAll(s.origin, '')}`)).toEqual([
      'internal_nofollow 1 nofollow internal link(s): /deeper',
    ]);
  });

  it('broken links are found whichever end is fetched first', async () => {
    // /a and /b both link to /gone; /gone is fetched between them (breadth first).
    const s = await start({
      routes: {
        '/': hub(['/a', '/gone']),
        '/a': pageRoute('/a', { path: '/a', body: '<a href="/deeper">d</a>' }),
        '/deeper': pageRoute('/deeper', { path: '/deeper', body: '<a href="/gone">g</a>' }),
        '/gone': { status: 410, html: () => 'gone' },
      },
    });
    const r = await crawl(`${s.origin}/`, { concurrency: 1 });
    expect(r.issues.filter((i) => i.name === 'broken_internal_link').map((i) => i.url.replace(s.origin, '')).sort()).toEqual(['/', '/deeper']);
    expect(issuesOf(r.issues, `${s.origin}/gone`)).toEqual(['http_4xx']);
  });
});

describe('near-duplicate search on large sites', () => {
  it('banded LSH finds the same pairs as the pairwise comparison (threshold ≥ 89.1%)', async () => {
    const { UrlRegistry, Flag, State } = await import('../../../src/crawler/run/url-registry.js');
    const { runSiteChecks } = await import('../../../src/crawler/site/site-checks.js');
    let seed = 42;
    const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
    const reg = new UrlRegistry();
    for (let i = 0; i < 400; i++) {
      const { id } = reg.add(`https://x.example/${i}`, 1, 'link');
      reg.state[id] = State.Done;
      reg.status[id] = 200;
      reg.set(id, Flag.Internal | Flag.Html | Flag.Indexable | Flag.NearDuplicateCandidate);
      reg.contentKey[id] = i;
      if (i % 4 === 1) {
        // A near copy of the previous page: flip up to 7 random bits.
        reg.simHi[id] = reg.simHi[id - 1];
        reg.simLo[id] = reg.simLo[id - 1];
        for (let f = Math.floor(rand() * 8); f > 0; f--) {
          const bit = Math.floor(rand() * 64);
          if (bit < 32) reg.simLo[id] = (reg.simLo[id] ^ (1 << bit)) >>> 0;
          else reg.simHi[id] = (reg.simHi[id] ^ (1 << (bit - 32))) >>> 0;
        }
      } else {
        reg.simHi[id] = Math.floor(rand() * 2 ** 32);
        reg.simLo[id] = Math.floor(rand() * 2 ** 32);
      }
    }
    const run = async (threshold: number, pairwiseLimit: number) => {
      const found: string[] = [];
      await runSiteChecks({
        registry: reg,
        hreflang: new Map(),
        duplicationThreshold: threshold,
        linkGraphComplete: true,
        pairwiseLimit,
        report: async (name, id, details) => {
          if (name === 'near_duplicate_content') found.push(`${id} ${details}`);
        },
      });
      return found.sort();
    };
    for (const threshold of [90, 95, 100]) {
      const exact = await run(threshold, Infinity);
      expect(exact.length).toBeGreaterThan(0);
      expect(await run(threshold, 0)).toEqual(exact);
    }
  });
});

describe('site-level resources', () => {
  it('reads sitemap indexes and gzipped sitemaps', async () => {
    const { gzipSync } = await import('node:zlib');
    const urlset = (o: string, paths: string[]) =>
      `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${paths.map((p) => `<url><loc>${o}${p}</loc></url>`).join('')}</urlset>`;
    const s = await start({
      robots: 'User-agent: *\nAllow: /\nSitemap: /sitemap-index.xml\n',
      routes: {
        '/': hub([]),
        '/one': pageRoute('/one'),
        '/two': pageRoute('/two'),
        '/sitemap-index.xml': {
          headers: { 'content-type': 'application/xml' },
          body: (o) => `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${o}/a.xml</loc></sitemap><sitemap><loc>${o}/b.xml.gz</loc></sitemap></sitemapindex>`,
        },
        '/a.xml': { headers: { 'content-type': 'application/xml' }, body: (o) => urlset(o, ['/one']) },
        '/b.xml.gz': { headers: { 'content-type': 'application/gzip' }, body: (o) => gzipSync(urlset(o, ['/two', '/not-found'])) },
      },
    });
    const r = await crawl(`${s.origin}/`);
    const fromSitemap = r.pages.filter((p) => p.discovered_via === 'sitemap').map((p) => p.url.replace(s.origin, '')).sort();
    expect(fromSitemap).toEqual(['/not-found', '/one', '/two']);
    // A listed URL that answers 404 is a bad sitemap entry; the others are fine.
    expect(r.issues.filter((i) => i.name.startsWith('sitemap_')).map((i) => [i.name, i.url.replace(s.origin, '')])).toEqual([['sitemap_bad_url', '/not-found']]);
  });

  it('llms.txt: missing, without H1, or fine; AI checks only when asked', async () => {
    const robots = 'User-agent: *\nAllow: /\nUser-agent: ClaudeBot\nDisallow: /\n';
    let s = await start({ robots, llms: null, routes: { '/': hub([]) } });
    const off = await crawl(`${s.origin}/`);
    expect(off.issues.some((i) => i.category === 'ai_reachability')).toBe(false);
    const missing = await crawl(`${s.origin}/`, { checkAiReachability: true });
    expect(missing.issues.filter((i) => i.category === 'ai_reachability').map((i) => [i.name, i.url.replace(s.origin, ''), i.details])).toEqual([
      ['ai_training_crawler_blocked', '/robots.txt', 'ClaudeBot is disallowed'],
      ['llms_txt_missing', '/llms.txt', 'llms.txt answers 404'],
    ]);
    await s.close();
    s = await start({ llms: '# Fixture\n\n> A site.\n', routes: { '/': hub([]) } });
    const fine = await crawl(`${s.origin}/`, { checkAiReachability: true });
    expect(fine.issues.some((i) => i.category === 'ai_reachability')).toBe(false);
  });

  it('caps the HTML read and says so', async () => {
    const s = await start({ routes: { '/': { html: (o) => pageHtml({ path: '/', body: `<p>${'word '.repeat(5000)}</p>` }, o) } } });
    const r = await crawl(`${s.origin}/`, {}, { tuning: { maxHtmlBytes: 4096 } });
    const home = r.pages[0];
    expect(home.body_truncated).toBe(true);
    expect(home.size_bytes).toBeGreaterThanOrEqual(4096);
    expect(home.title).toBe('Page / of the fixture site');
  });
});

describe('meta-refresh redirects', () => {
  const stub = (target: string, delay = 0) =>
    `<!DOCTYPE html><html lang="en"><head><meta http-equiv="refresh" content="${delay};URL=${target}"><title>Redirection</title></head>` +
    `<body><p>Redirecting to <a href="${target}">${target}</a>...</p></body></html>`;

  it('a stub refreshing within seconds is a redirect: its target followed at its depth, links to it reported, no content audit, no duplicates', async () => {
    const sitemap = (o: string) => `<?xml version="1.0"?><urlset><url><loc>${o}/</loc></url><url><loc>${o}/old-a</loc></url><url><loc>${o}/target-a</loc></url></urlset>`;
    const s = await start({
      robots: 'User-agent: *\nAllow: /\nSitemap: /sitemap.xml\n',
      routes: {
        '/': hub(['/old-a', '/old-b', '/slow', '/delayed']),
        // /slow links to a stub too.
        '/old-a': { html: () => stub('/target-a') },
        '/old-b': { html: () => stub('target-b') },
        '/delayed': { html: () => stub('/target-c', 3) },
        // A refresh after 30 s is a page that moves on, audited as a page.
        '/slow': pageRoute('/slow', { path: '/slow', head: '<meta http-equiv="refresh" content="30; url=/target-a">', body: '<a href="/old-b">old</a>' }),
        '/target-a': pageRoute('/target-a'),
        '/target-b': pageRoute('/target-b'),
        '/target-c': pageRoute('/target-c'),
        '/sitemap.xml': { headers: { 'content-type': 'application/xml' }, body: sitemap },
      },
    });
    const r = await crawl(`${s.origin}/`);
    const byStub = (path: string) => issuesOf(r.issues, `${s.origin}${path}`).sort();
    expect(byStub('/old-a')).toEqual(['meta_refresh', 'sitemap_redirect']);
    expect(byStub('/old-b')).toEqual(['meta_refresh']);
    expect(byStub('/delayed')).toEqual(['meta_refresh', 'temporary_redirect']);
    expect(issuesOf(r.issues, `${s.origin}/slow`)).toContain('meta_refresh');
    // Links to a stub read as links to a 301.
    const flagged = (name: string) => r.issues.filter((i) => i.name === name).map((i) => `${i.url.replace(s.origin, '')} ${i.details.replaceAll(s.origin, '')}`).sort();
    expect(flagged('link_to_redirect')).toEqual(['/ link to /delayed: redirects (meta refresh)', '/ link to /old-a: redirects (meta refresh)', '/ link to /old-b: redirects (meta refresh)', '/slow link to /old-b: redirects (meta refresh)']);
    expect(flagged('sitemap_redirect')).toEqual(['/old-a listed in the sitemap: redirects (meta refresh)']);
    // Three stubs titled "Redirection", none reported as a duplicate.
    expect(flagged('title_duplicate')).toEqual([]);
    const page = (path: string) => r.pages.find((p) => p.url === `${s.origin}${path}`)!;
    expect(page('/old-a')).toMatchObject({ status_code: 200, indexable: false, redirect_url: `${s.origin}/target-a`, depth: 1 });
    // The target of a stub is at the stub's click depth, reached by a redirect.
    expect(page('/target-b')).toMatchObject({ depth: 1, discovered_via: 'redirect' });
  });
});

describe('pages no link from the start reaches', () => {
  it('a translation only the sitemap lists is orphaned: no click depth, one orphan_page per page with the count per sitemap', async () => {
    const listed = ['/', '/fr/', '/fr/a'];
    const sitemap = (o: string) => `<?xml version="1.0"?><urlset>${listed.map((p) => `<url><loc>${o}${p}</loc></url>`).join('')}</urlset>`;
    const s = await start({
      robots: 'User-agent: *\nAllow: /\nSitemap: /sitemap.xml\n',
      routes: {
        '/': hub(['/en']),
        '/en': pageRoute('/en'),
        // The French pages link to each other, never to the start, and none of the start's pages link to them.
        '/fr/': pageRoute('/fr/', { path: '/fr/', body: '<a href="/fr/a">a</a> <a href="/fr/b">b</a>' }),
        '/fr/a': pageRoute('/fr/a', { path: '/fr/a', body: '<a href="/fr/">fr</a> <a href="/fr/b">b</a>' }),
        '/fr/b': pageRoute('/fr/b', { path: '/fr/b', body: '<a href="/fr/c">c</a>' }),
        '/fr/c': pageRoute('/fr/c', { path: '/fr/c', body: '<a href="/fr/d">d</a>' }),
        '/fr/d': pageRoute('/fr/d', { path: '/fr/d', body: '<a href="/fr/e">e</a>' }),
        '/fr/e': pageRoute('/fr/e', { path: '/fr/e', body: '<a href="/fr/f">f</a>' }),
        '/fr/f': pageRoute('/fr/f'),
        '/sitemap.xml': { headers: { 'content-type': 'application/xml' }, body: sitemap },
      },
    });
    const r = await crawl(`${s.origin}/`);
    const depth = (path: string) => r.pages.find((p) => p.url === `${s.origin}${path}`)?.depth;
    expect([depth('/'), depth('/en')]).toEqual([0, 1]);
    for (const path of ['/fr/', '/fr/a', '/fr/b', '/fr/f']) expect(depth(path), path).toBeNull();
    const orphans = r.issues.filter((i) => i.name === 'orphan_page').map((i) => `${i.url.replace(s.origin, '')} ${i.details.replaceAll(s.origin, '')}`).sort();
    expect(orphans).toEqual([
      '/fr/ listed in /sitemap.xml, linked only from pages no link from the start reaches (2 such page(s) in that sitemap)',
      '/fr/a listed in /sitemap.xml, linked only from pages no link from the start reaches (2 such page(s) in that sitemap)',
      ...['/fr/b', '/fr/c', '/fr/d', '/fr/e', '/fr/f'].map((p) => `${p} not in a sitemap, linked only from pages no link from the start reaches (5 such page(s))`),
    ]);
    // Six links away from /fr/ is no click depth: deep_page judges only pages reached by clicks.
    expect(r.issues.filter((i) => i.name === 'deep_page')).toEqual([]);
  });
});

describe('language versions (hreflang_missing, lang_mismatch)', () => {
  const JA = 'このページでは、サイトの使い方と設定の方法を説明します。メニューから項目を選んで、画面の指示に従ってください。'.repeat(6);
  /** `hreflang`: every page lists the three versions; `annotated`: only these languages' pages, listing each other. */
  const routes = (o: { hreflang?: boolean; annotated?: string[]; lang?: (path: string) => string | null } = {}) => {
    const paths = ['/', '/a', '/fr/', '/fr/a', '/ja/', '/ja/a'];
    const langOf = (path: string) => /^\/(fr|ja)\//.exec(path)?.[1] ?? 'en';
    const set = o.annotated ?? (o.hreflang ? ['en', 'fr', 'ja'] : []);
    const alternates = (path: string) => {
      if (!set.includes(langOf(path))) return '';
      const tail = path.replace(/^\/(fr|ja)\//, '/');
      return set.map((l) => `<link rel="alternate" hreflang="${l}" href="${l === 'en' ? tail : `/${l}${tail}`}">`).join('');
    };
    return Object.fromEntries(
      paths.map((path) => [
        path,
        pageRoute(path, {
          path,
          lang: o.lang ? o.lang(path) : null,
          head: alternates(path),
          text: path.startsWith('/ja/') ? JA : undefined,
          body: paths.map((p) => `<a href="${p}">${p}</a>`).join(' '),
        }),
      ]),
    );
  };
  const langOf = (path: string) => /^\/(fr|ja)\//.exec(path)?.[1] ?? 'en';
  const found = (r: Awaited<ReturnType<typeof crawl>>, name: string) => r.issues.filter((i) => i.name === name).map((i) => `${i.url.replace(site!.origin, '')} ${i.details.replaceAll(site!.origin, '')}`);

  it('names the language versions found by URL when no page has hreflang, once for the site', async () => {
    const s = await start({ routes: routes() });
    const r = await crawl(`${s.origin}/`);
    // /, /a: no language said anywhere; /fr/… and /ja/… named by their folder.
    expect(found(r, 'hreflang_missing')).toEqual(['/ 2 language versions, no hreflang: fr (2 page(s), e.g. /fr/), ja (2 page(s), e.g. /ja/)']);
    expect(found(r, 'lang_mismatch')).toEqual([]);
  });

  it('reads the declared language before the URL, and flags a page whose text is not in it', async () => {
    // The Japanese version keeps the template's lang="en".
    const s = await start({ routes: routes({ lang: (p) => (p.startsWith('/fr/') ? 'fr' : 'en') }) });
    const r = await crawl(`${s.origin}/`);
    expect(found(r, 'hreflang_missing')).toEqual(['/ 2 language versions, no hreflang: en (4 page(s), e.g. /), fr (2 page(s), e.g. /fr/)']);
    const mismatches = found(r, 'lang_mismatch').sort();
    expect(mismatches.map((m) => m.split(' ')[0])).toEqual(['/ja/', '/ja/a']);
    for (const m of mismatches) expect(m).toMatch(/ lang="en" but \d+% of the text's letters are Japanese kana$/);
  });

  it('keeps a version only URLs name when URLs name others, though a page of another declares its language', async () => {
    // The English pages declare it; /fr/… say nothing; /ja/ and /ja/a say nothing and /ja/b got its
    // lang="ja" (as ch01.ja.html of a Debian Reference being fixed): the URLs still name fr and ja,
    // two languages, so the French version counts (it vanished from the report, as built first).
    const base = routes({ lang: (p) => (p === '/' || p === '/a' ? 'en' : null) });
    const all = ['/', '/a', '/fr/', '/fr/a', '/ja/', '/ja/a', '/ja/b'].map((p) => `<a href="${p}">${p}</a>`).join(' ');
    const s = await start({
      routes: {
        ...base,
        '/': pageRoute('/', { path: '/', lang: 'en', body: all }),
        '/ja/b': pageRoute('/ja/b', { path: '/ja/b', lang: 'ja', text: JA, body: all }),
      },
    });
    const r = await crawl(`${s.origin}/`);
    expect(found(r, 'hreflang_missing')).toEqual(['/ 3 language versions, no hreflang: ja (3 page(s), e.g. /ja/), en (2 page(s), e.g. /), fr (2 page(s), e.g. /fr/)']);
  });

  it('says nothing when the pages carry hreflang, or when the sitemap does (xhtml:link), or on a one-language site', async () => {
    const withHtml = await start({ routes: routes({ hreflang: true, lang: (p) => (p.startsWith('/fr/') ? 'fr' : p.startsWith('/ja/') ? 'ja' : 'en') }) });
    let r = await crawl(`${withHtml.origin}/`);
    expect(found(r, 'hreflang_missing')).toEqual([]);
    expect(found(r, 'lang_mismatch')).toEqual([]);
    await withHtml.close();
    site = undefined;

    const entry = (o: string, path: string) => {
      const tail = path.replace(/^\/(fr|ja)\//, '/');
      const links = ['en', 'fr', 'ja'].map((l) => `<xhtml:link rel="alternate" hreflang="${l}" href="${o}${l === 'en' ? tail : `/${l}${tail}`}"/>`).join('');
      return `<url><loc>${o}${path}</loc>${links}</url>`;
    };
    const paths = ['/', '/a', '/fr/', '/fr/a', '/ja/', '/ja/a'];
    const sitemap = (o: string) => `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">${paths.map((p) => entry(o, p)).join('')}</urlset>`;
    const withSitemap = await start({ robots: 'User-agent: *\nAllow: /\nSitemap: /sitemap.xml\n', routes: { ...routes(), '/sitemap.xml': { headers: { 'content-type': 'application/xml' }, body: sitemap } } });
    r = await crawl(`${withSitemap.origin}/`);
    expect(found(r, 'hreflang_missing')).toEqual([]);
    // The sitemap's annotations are checked as the HTML's are: every version lists the others, so no missing return link.
    expect(found(r, 'hreflang_no_return')).toEqual([]);
    await withSitemap.close();
    site = undefined;

    const oneLanguage = await start({ routes: routes({ lang: () => 'en' }) });
    r = await crawl(`${oneLanguage.origin}/`);
    expect(found(r, 'hreflang_missing')).toEqual([]);
  });

  it('names the language versions a partly annotated site leaves out, and only those no annotation reaches', async () => {
    const lang = (p: string) => (p.startsWith('/fr/') ? 'fr' : p.startsWith('/ja/') ? 'ja' : 'en');
    // The English and French pages list each other; the Japanese version was added after.
    const s = await start({ routes: routes({ annotated: ['en', 'fr'], lang }) });
    let r = await crawl(`${s.origin}/`);
    expect(found(r, 'hreflang_missing')).toEqual(['/ 1 of 3 language versions without hreflang (annotated: en, fr): ja (2 page(s), e.g. /ja/)']);
    expect(found(r, 'hreflang_no_return')).toEqual([]);
    await s.close();
    site = undefined;

    // Only the English pages are annotated, listing the other two: the French and Japanese pages are
    // reached by annotations (and lack their return links, which hreflang_no_return says), so no
    // version is left out.
    const oneWay = await start({
      routes: Object.fromEntries(
        Object.entries(routes({ lang })).map(([path, route]) => [path, langOf(path) === 'en' ? routes({ hreflang: true, lang })[path] : route]),
      ),
    });
    r = await crawl(`${oneWay.origin}/`);
    expect(found(r, 'hreflang_missing')).toEqual([]);
    expect(found(r, 'hreflang_no_return').length).toBe(4);
  });

  it('reads an hreflang to a meta-refresh stub as a target that redirects, not as a missing return link', async () => {
    // The English pages name /ja.html and /ja-a.html, stubs a move left behind that send to /ja/ and /ja/a.
    const base = routes({ hreflang: true, lang: (p) => langOf(p) });
    const stub = (to: string): Route => ({ html: () => `<!DOCTYPE html><html><head><meta http-equiv="refresh" content="0;URL=${to}"><title>Redirection</title></head><body></body></html>` });
    const renamed = (path: string): Route => {
      const route = base[path];
      return { ...route, html: (origin) => route.html!(origin).replace('hreflang="ja" href="/ja/a"', 'hreflang="ja" href="/ja-a.html"').replace('hreflang="ja" href="/ja/"', 'hreflang="ja" href="/ja.html"') };
    };
    const s = await start({ routes: { ...base, '/': renamed('/'), '/a': renamed('/a'), '/ja.html': stub('/ja/'), '/ja-a.html': stub('/ja/a') } });
    const r = await crawl(`${s.origin}/`);
    expect(found(r, 'hreflang_bad_target').sort()).toEqual(['/ hreflang ja → /ja.html redirects (meta refresh)', '/a hreflang ja → /ja-a.html redirects (meta refresh)']);
    expect(found(r, 'hreflang_no_return').filter((f) => f.includes('.html'))).toEqual([]);
  });

  it('a lone folder that happens to be a language code is no language version', async () => {
    const paths = ['/', '/a', '/id/1', '/id/2'];
    const s = await start({
      routes: Object.fromEntries(paths.map((path) => [path, pageRoute(path, { path, lang: path.startsWith('/id/') ? null : 'en', body: paths.map((p) => `<a href="${p}">${p}</a>`).join(' ') })])),
    });
    const r = await crawl(`${s.origin}/`);
    expect(found(r, 'hreflang_missing')).toEqual([]);
  });

  it('reads the language versions a Link header declares as the head’s: checked for return links, codes and x-default', async () => {
    const paths = ['/', '/a', '/fr/', '/fr/a', '/ja/', '/ja/a'];
    const lang = (p: string) => (p.startsWith('/fr/') ? 'fr' : p.startsWith('/ja/') ? 'ja' : 'en');
    // Each version names the others in its Link header, relative to itself, beside a preload.
    const link = (path: string, codes = ['en', 'fr', 'ja']) => {
      const tail = path.replace(/^\/(fr|ja)\//, '/');
      const versions = codes.map((l) => `<${l === 'en' || l === 'x-default' ? tail : `/${l}${tail}`}>; rel="alternate"; hreflang="${l}"`);
      return ['</style.css>; rel=preload; as=style', ...versions].join(', ');
    };
    const route = (path: string, header: string | null): Route => ({
      ...pageRoute(path, { path, lang: lang(path), text: path.startsWith('/ja/') ? JA : undefined, body: paths.map((p) => `<a href="${p}">${p}</a>`).join(' ') }),
      ...(header ? { headers: { link: header } } : {}),
    });
    let s = await start({ routes: Object.fromEntries(paths.map((p) => [p, route(p, link(p, ['en', 'fr', 'ja', 'x-default']))])) });
    let r = await crawl(`${s.origin}/`);
    for (const name of ['hreflang_missing', 'hreflang_no_return', 'hreflang_no_x_default', 'hreflang_no_self', 'hreflang_invalid_code']) expect(found(r, name), name).toEqual([]);
    await s.close();
    site = undefined;

    // /a names /fr/a, which names nothing back; /ja/a writes a code that is none.
    const headers: Record<string, string | null> = { '/a': link('/a', ['en', 'fr']), '/ja/a': '</ja/a>; rel="alternate"; hreflang="japanese"' };
    s = await start({ routes: Object.fromEntries(paths.map((p) => [p, route(p, headers[p] ?? null)])) });
    r = await crawl(`${s.origin}/`);
    expect(found(r, 'hreflang_no_return')).toEqual(['/a hreflang fr → /fr/a does not link back']);
    expect(found(r, 'hreflang_no_x_default').map((f) => f.split(' ')[0]).sort()).toEqual(['/a', '/ja/a']);
    expect(found(r, 'hreflang_invalid_code').map((f) => f.split(' ')[0])).toEqual(['/ja/a']);
    expect(found(r, 'hreflang_missing')).toEqual([]);
  });

  it('a sitemap annotation without its return link is reported like an HTML one', async () => {
    const sitemap = (o: string) =>
      `<?xml version="1.0"?><urlset xmlns:xhtml="http://www.w3.org/1999/xhtml"><url><loc>${o}/a</loc><xhtml:link rel="alternate" hreflang="fr" href="${o}/fr/a"/></url><url><loc>${o}/fr/a</loc></url></urlset>`;
    const s = await start({
      robots: 'User-agent: *\nAllow: /\nSitemap: /sitemap.xml\n',
      routes: { '/': hub(['/a', '/fr/a']), '/a': pageRoute('/a'), '/fr/a': pageRoute('/fr/a'), '/sitemap.xml': { headers: { 'content-type': 'application/xml' }, body: sitemap } },
    });
    const r = await crawl(`${s.origin}/`);
    expect(found(r, 'hreflang_no_return')).toEqual(['/a hreflang fr → /fr/a does not link back']);
  });
});
