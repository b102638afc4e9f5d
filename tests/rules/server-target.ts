/** The reference server as a rules target: a fresh server (and database) per test, a local site to crawl. */
import { afterAll } from 'vitest';
import { startHarness } from '../../packages/server/test/db/harness.js';
import { startSite, type Site } from '../../packages/server/test/db/support/site.js';
import type { RulesTarget } from './target.js';

export function serverTarget(): RulesTarget {
  let site: Promise<Site> | null = null;
  afterAll(async () => (await site)?.close());
  return {
    name: 'server',
    open: (options = {}) => startHarness(options),
    async siteUrl() {
      site ??= startSite();
      return `${(await site).url}/`;
    },
  };
}
