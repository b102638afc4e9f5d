/**
 * Cross-page checks, each with pages built to trigger it and pages built not to (the full set is
 * also covered by the labelled fixture crawl).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { pageHtml, prose, startFixtureSite, type FixtureOptions, type FixtureSite, type Route } from './fixture-site.js';
import { crawl, issuesOf } from './helpers.js';

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
