/** The reference server as a rules target: a fresh server (and database) per test, local sites to crawl. */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll } from 'vitest';
import { startHarness } from '../support/harness.js';
import { startSite, type Site } from '../support/site.js';
import type { RulesTarget } from './target.js';

/** A site that takes every page request and answers none until the end of the file: its crawl stays running. */
async function startHeldSite(): Promise<{ url: string; close(): Promise<void> }> {
  const held: ServerResponse[] = [];
  const server = createServer((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    held.push(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function serverTarget(): RulesTarget {
  let site: Promise<Site> | null = null;
  let held: ReturnType<typeof startHeldSite> | null = null;
  afterAll(async () => {
    await (await site)?.close();
    await (await held)?.close();
  });
  return {
    name: 'server',
    open: (options = {}) => startHarness(options),
    async siteUrl() {
      site ??= startSite();
      return `${(await site).url}/`;
    },
    async busySiteUrl() {
      held ??= startHeldSite();
      return (await held).url;
    },
  };
}
