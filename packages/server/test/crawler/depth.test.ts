/**
 * Depth is the shortest click path from the start URL whatever the fetch order: a page first
 * reached through a fast deep branch gets the depth of the slower short path.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { pageHtml, startFixtureSite, type FixtureSite, type Route } from './fixture-site.js';
import { crawl } from '../../../../tests/support/crawler.js';

let site: FixtureSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

function linking(path: string, links: string[], delayMs?: number): Route {
  return { delayMs, html: (o) => pageHtml({ path, nav: false, body: links.map((l) => `<a href="${l}">${l}</a>`).join(' ') }, o) };
}

describe('click depth', () => {
  it('is the shortest path when a fast deep branch finds a page before a slow short one', async () => {
    // / → /slow (answers late) → /target: depth 2.
    // / → /fast → /fast/a → /fast/b → /fast/c → /target: depth 5, all answering at once.
    const routes: Record<string, Route> = {
      '/': linking('/', ['/fast', '/slow']),
      '/fast': linking('/fast', ['/fast/a']),
      '/fast/a': linking('/fast/a', ['/fast/b']),
      '/fast/b': linking('/fast/b', ['/fast/c']),
      '/fast/c': linking('/fast/c', ['/target']),
      '/slow': linking('/slow', ['/target'], 400),
      '/target': linking('/target', ['/target/child']),
      '/target/child': linking('/target/child', []),
    };
    site = await startFixtureSite({ robots: 'User-agent: *\nAllow: /\n', sitemap: false, only: [], routes });
    for (const concurrency of [1, 8]) {
      const r = await crawl(`${site.origin}/`, { concurrency, perHostConcurrency: concurrency });
      const depth = Object.fromEntries(r.pages.map((p) => [new URL(p.url).pathname, p.depth]));
      expect(depth).toEqual({ '/': 0, '/fast': 1, '/slow': 1, '/fast/a': 2, '/fast/b': 3, '/fast/c': 4, '/target': 2, '/target/child': 3 });
    }
  });

  it('holds with max_depth: a page beyond the limit by the deep branch is crawled through the short one', async () => {
    const routes: Record<string, Route> = {
      '/': linking('/', ['/fast', '/slow']),
      '/fast': linking('/fast', ['/fast/a']),
      '/fast/a': linking('/fast/a', ['/target']),
      '/slow': linking('/slow', ['/target'], 300),
      '/target': linking('/target', []),
    };
    site = await startFixtureSite({ robots: 'User-agent: *\nAllow: /\n', sitemap: false, only: [], routes });
    const r = await crawl(`${site.origin}/`, { maxDepth: 2 });
    expect(r.pages.find((p) => p.url.endsWith('/target'))?.depth).toBe(2);
  });
});
