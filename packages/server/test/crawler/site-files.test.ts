import { describe, expect, it } from 'vitest';
import { Flag, State } from '../../src/crawler/frontier.js';
import type { HttpClient } from '../../src/crawler/http.js';
import { parseRobots, type RobotsPolicy } from '../../src/crawler/robots.js';
import { SiteFiles } from '../../src/crawler/site-files.js';
import { parts, START } from './parts.js';

type File = { status: number; body?: string; type?: string };

/** getResource from a table of URL → file; anything else answers 404. */
function files(table: Record<string, File>): HttpClient {
  return {
    async getResource(url: string, opts: { onChunk?: (chunk: Buffer) => void }) {
      const file = table[url] ?? { status: 404 };
      const body = file.status < 300 && file.body !== undefined ? Buffer.from(file.body) : null;
      if (body && opts.onChunk) opts.onChunk(body);
      const headers = { 'content-type': file.type ?? 'text/plain' };
      return { status: file.status, finalUrl: url, body: opts.onChunk ? Buffer.alloc(0) : body, headers, error: null, truncated: false };
    },
  } as unknown as HttpClient;
}

const urlset = (...paths: string[]) => `<?xml version="1.0"?><urlset>${paths.map((p) => `<url><loc>${START}${p}</loc></url>`).join('')}</urlset>`;
const robots = (text: string): RobotsPolicy => parseRobots(`${START}robots.txt`, text, 'siteauditbot');

async function check(policy: RobotsPolicy, table: Record<string, File>, options = { maxUrls: 100, checkAiReachability: false }) {
  const p = parts();
  const site = new SiteFiles(p.reg, files(table), p.scope, p.scheduler, p.output, options);
  await site.check(policy);
  await site.sitemapsRead;
  return p;
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
