import { describe, expect, it } from 'vitest';
import { Flag, State } from '../../../src/crawler/run/url-registry.js';
import type { HttpClient } from '../../../src/crawler/fetch/http-client.js';
import { parseRobots, type RobotsPolicy } from '../../../src/crawler/fetch/robots-policy.js';
import { THRESHOLDS } from '../../../src/crawler/checks.js';
import { SiteFiles } from '../../../src/crawler/site/site-files.js';
import { parts, START } from '../parts.js';

/** A file as served; `finalUrl` where redirects led (getResource follows them). */
type File = { status: number; body?: string; type?: string; finalUrl?: string };

/** getResource from a table of URL → file; anything else answers 404. */
function files(table: Record<string, File>): HttpClient {
  return {
    async getResource(url: string, opts: { onChunk?: (chunk: Buffer) => void }) {
      const file = table[url] ?? { status: 404 };
      const body = file.status < 300 && file.body !== undefined ? Buffer.from(file.body) : null;
      if (body && opts.onChunk) opts.onChunk(body);
      const headers = { 'content-type': file.type ?? 'text/plain' };
      return { status: file.status, finalUrl: file.finalUrl ?? url, body: opts.onChunk ? Buffer.alloc(0) : body, headers, error: null, truncated: false };
    },
  } as unknown as HttpClient;
}

const urlset = (...paths: string[]) => `<?xml version="1.0"?><urlset>${paths.map((p) => `<url><loc>${START}${p}</loc></url>`).join('')}</urlset>`;
const robots = (text: string): RobotsPolicy => parseRobots(`${START}robots.txt`, text, 'siteauditbot');

async function checkFiles(policy: RobotsPolicy, table: Record<string, File>, options = { maxUrls: 100, checkAiReachability: false }) {
  const p = parts();
  const site = new SiteFiles(p.ctx(files(table)), options);
  await site.check(policy);
  await site.sitemapsRead;
  return { p, site };
}

async function check(policy: RobotsPolicy, table: Record<string, File>, options = { maxUrls: 100, checkAiReachability: false }) {
  return (await checkFiles(policy, table, options)).p;
}

const issues = (p: ReturnType<typeof parts>) => p.store.issues.map((i) => [i.name, i.url]);

describe('site files', () => {
  it('reports a missing robots.txt', async () => {
    const missing: RobotsPolicy = { ...robots(''), state: 'missing', status: 404 };
    const p = await check(missing, { [`${START}sitemap.xml`]: { status: 200, body: urlset() } });
    expect(issues(p)).toContainEqual(['robots_txt_missing', `${START}robots.txt`]);
  });

  it('registers the sitemap URLs in scope as known, flagged InSitemap, up to the budget', async () => {
    const p = await check(robots(`Sitemap: ${START}map.xml`), { [`${START}map.xml`]: { status: 200, body: urlset('a', 'b', 'c') } }, { maxUrls: 2, checkAiReachability: false });
    const a = p.reg.get(`${START}a`)!;
    expect([p.reg.state[a], p.reg.has(a, Flag.InSitemap), p.reg.has(a, Flag.Internal)]).toEqual([State.Known, true, true]);
    expect(p.reg.get(`${START}c`)).toBeUndefined();
    expect(p.reg.has(p.startId, Flag.InSitemap)).toBe(false);
    expect(p.store.issues).toEqual([]);
  });

  it('reports listed sitemaps that cannot be read, and a sitemap robots.txt does not list', async () => {
    const unreadable = await check(robots(`Sitemap: ${START}gone.xml`), {});
    expect(unreadable.store.issues.map((i) => i.details)).toEqual([`robots.txt lists sitemaps that cannot be read: ${START}gone.xml (404)`]);
    const unlisted = await check(robots(''), { [`${START}sitemap.xml`]: { status: 200, body: urlset('a') } });
    expect(issues(unlisted)).toEqual([['sitemap_not_in_robots', `${START}robots.txt`]]);
    const none = await check(robots(''), {});
    expect(issues(none)).toEqual([['sitemap_missing', `${START}sitemap.xml`]]);
  });

  it('reports sitemaps past the limits, that are not sitemaps, or that list other hosts; a fine one completely read says so', async () => {
    const big = Array.from({ length: THRESHOLDS.sitemapMaxUrls + 1 }, (_, i) => `p${i}`);
    const large = await check(robots(`Sitemap: ${START}big.xml`), { [`${START}big.xml`]: { status: 200, body: urlset(...big) } }, { maxUrls: 10, checkAiReachability: false });
    expect(large.store.issues.map((i) => [i.name, i.details])).toEqual([['sitemap_too_large', `${START}big.xml: ${THRESHOLDS.sitemapMaxUrls + 1} URLs`]]);
    const html = await check(robots(`Sitemap: ${START}map.xml`), { [`${START}map.xml`]: { status: 200, body: '<!doctype html><html><body>Home</body></html>', type: 'text/html' } });
    expect(html.store.issues.map((i) => [i.name, i.details])).toEqual([
      ['sitemap_invalid', `${START}map.xml answers 200 but is not a sitemap document`],
      ['sitemap_missing', `robots.txt lists sitemaps that cannot be read: ${START}map.xml (200)`],
    ]);
    const foreign = `<?xml version="1.0"?><urlset><url><loc>${START}a</loc></url><url><loc>https://cdn.example/b</loc></url></urlset>`;
    const other = await check(robots(`Sitemap: ${START}map.xml`), { [`${START}map.xml`]: { status: 200, body: foreign } });
    expect(other.store.issues.map((i) => [i.name, i.details])).toEqual([['sitemap_foreign_url', '1 URL(s) of another host, e.g. https://cdn.example/b']]);
    const fine = await checkFiles(robots(`Sitemap: ${START}map.xml`), { [`${START}map.xml`]: { status: 200, body: urlset('a', 'b') } });
    expect([fine.p.store.issues, fine.site.sitemapsComplete]).toEqual([[], true]);
    // Cut at the crawl's budget: not complete, so no page can be said missing from it.
    const cut = await checkFiles(robots(`Sitemap: ${START}map.xml`), { [`${START}map.xml`]: { status: 200, body: urlset('a', 'b', 'c') } }, { maxUrls: 1, checkAiReachability: false });
    expect(cut.site.sitemapsComplete).toBe(false);
  });

  it('reports the HTTP version of an HTTPS site answering pages of its own, not one redirecting to HTTPS', async () => {
    const served = await check(robots(''), { 'http://shop.example/': { status: 200, body: '<html></html>', type: 'text/html' } });
    expect(served.store.issues.filter((i) => i.name === 'http_not_redirected').map((i) => [i.url, i.details])).toEqual([
      ['http://shop.example/', 'http://shop.example/ answers 200 without redirecting to HTTPS'],
    ]);
    const redirected = await check(robots(''), { 'http://shop.example/': { status: 200, body: '<html></html>', type: 'text/html', finalUrl: START } });
    expect(redirected.store.issues.map((i) => i.name)).not.toContain('http_not_redirected');
    // An HTTP port that answers an error is no second copy of the site.
    const closed = await check(robots(''), {});
    expect(closed.store.issues.map((i) => i.name)).not.toContain('http_not_redirected');
  });

  it('checks AI agents and llms.txt when asked', async () => {
    const ai = { maxUrls: 100, checkAiReachability: true };
    const blocked = await check(robots('User-agent: GPTBot\nDisallow: /\n\nUser-agent: PerplexityBot\nDisallow: /'), { [`${START}llms.txt`]: { status: 200, body: 'no title' } }, ai);
    // The sitemaps are read beside these checks: their issue comes whenever they are read.
    expect(blocked.store.issues.filter((i) => i.name !== 'sitemap_missing').map((i) => [i.name, i.details])).toEqual([
      ['ai_search_agent_blocked', 'PerplexityBot is disallowed'],
      ['ai_training_crawler_blocked', 'GPTBot is disallowed'],
      ['llms_txt_no_h1', 'the file does not start with a "# Title" line'],
    ]);
    const shell = await check(robots(''), { [`${START}llms.txt`]: { status: 200, body: '<!doctype html><html></html>', type: 'text/html' } }, ai);
    expect(shell.store.issues.map((i) => [i.name, i.details])).toContainEqual(['llms_txt_missing', 'llms.txt answers an HTML page']);
    const fine = await check(robots(''), { [`${START}llms.txt`]: { status: 200, body: '# Shop\n' } }, ai);
    expect(fine.store.issues.map((i) => i.name)).not.toContain('llms_txt_no_h1');
  });
});
