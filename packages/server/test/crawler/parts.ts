/**
 * The crawler's parts wired the way crawl-site.ts wires them, with a fake HTTP client: unit tests of
 * one part drive it directly and read the registry, the records and the issues it produced.
 */
import { compilePatterns } from '@siteaudit/schema/rules';
import type { CrawlContext } from '../../src/crawler/run/crawl-context.js';
import { EarlyEnd } from '../../src/crawler/run/early-end.js';
import { Emitter } from '../../src/crawler/run/emitter.js';
import { Flag, UrlRegistry } from '../../src/crawler/run/url-registry.js';
import type { HttpClient, HttpResponse } from '../../src/crawler/fetch/http-client.js';
import { LinkGraph } from '../../src/crawler/site/link-graph.js';
import { CrawlOutput } from '../../src/crawler/run/crawl-output.js';
import { parseRobots, type RobotsPolicy } from '../../src/crawler/fetch/robots-policy.js';
import type { RobotsCache } from '../../src/crawler/fetch/robots-cache.js';
import { FetchScheduler, type SchedulerOptions } from '../../src/crawler/run/fetch-scheduler.js';
import { CrawlScope } from '../../src/crawler/run/crawl-scope.js';
import { memorySink } from '../../../../tests/support/crawler.js';

export const START = 'https://shop.example/';

/** A response as the HTTP client returns it; `body` is read by the fake client's `stream`. */
export function response(status: number, headers: Record<string, string> = {}, body = ''): HttpResponse & { text: string } {
  return { url: '', status, headers, ttfbMs: 12, prefetched: null, protection: null, body: null, text: body };
}

/** An HttpClient answering from a table of URL → response (a function for a sequence). */
export function fakeClient(answers: Record<string, HttpResponse | Error | (() => HttpResponse | Error)>) {
  const requested: string[] = [];
  const client = {
    requested,
    discarded: 0,
    pacer: { delay: () => 0, setDelay: () => undefined },
    async exchange(url: string): Promise<HttpResponse> {
      requested.push(url);
      const entry = answers[url];
      const answer = typeof entry === 'function' ? entry() : entry;
      if (!answer) throw new Error(`unexpected request ${url}`);
      if (answer instanceof Error) throw answer;
      return { ...answer, url };
    },
    discard() {
      client.discarded++;
    },
    async stream(r: HttpResponse & { text?: string }, maxBytes: number, onChunk: (chunk: Buffer) => void) {
      const data = Buffer.from(r.text ?? '').subarray(0, maxBytes);
      if (data.length) onChunk(data);
      return { bytes: data.length, truncated: Buffer.byteLength(r.text ?? '') > maxBytes };
    },
    async addressRefusal() {
      return null;
    },
  };
  return client as typeof client & HttpClient;
}

/** A robots cache with one policy for every origin (default: everything allowed). */
export function fixedRobots(policy: RobotsPolicy = parseRobots(`${START}robots.txt`, '', 'siteauditbot')): RobotsCache {
  return { for: async () => policy } as unknown as RobotsCache;
}

export interface PartsOptions {
  scheduler?: Partial<SchedulerOptions>;
  include?: string | null;
  exclude?: string | null;
  signal?: AbortSignal;
}

/** Registry, scope, control, scheduler, output and link graph, with the start URL registered as id 0. */
export function parts(options: PartsOptions = {}) {
  const { store, sink } = memorySink();
  const reg = new UrlRegistry();
  const scope = new CrawlScope(START, compilePatterns(options.include ?? null), compilePatterns(options.exclude ?? null));
  const control = new EarlyEnd(options.signal, 3);
  const emitter = new Emitter(sink, 1, compilePatterns(null));
  const scheduler = new FetchScheduler(reg, {
    concurrency: 4,
    perHostConcurrency: 2,
    maxDepth: 5,
    maxUrls: 100,
    hostDelay: () => 0,
    inScope: (url) => scope.inScope(url),
    signal: control.signal,
    ...options.scheduler,
  });
  // eslint-disable-next-line prefer-const
  let links: LinkGraph;
  const output = new CrawlOutput(reg, emitter, sink, (id) => links.resolveLinksTo(id));
  const startId = reg.add(START, 0, 'start').id;
  reg.set(startId, Flag.Internal | Flag.Start);
  /** The crawl's context with this client and robots cache, as crawl-site.ts builds it. */
  const ctx = (client: HttpClient = fakeClient({}), robots: RobotsCache = fixedRobots()): CrawlContext => ({
    reg,
    scope,
    client,
    scheduler,
    robots,
    output,
    control,
    startId,
    token: 'siteauditbot',
  });
  links = new LinkGraph(ctx());
  return { store, reg, scope, control, emitter, scheduler, output, links, startId, ctx };
}
