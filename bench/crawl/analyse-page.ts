/**
 * The analysis of one HTML page alone (crawler/page/page-analysis.ts `analyseHtml`: decode, parse,
 * the page's own checks, its digest), on the dense site's pages (site.ts `densePageHtml`) or the
 * shop's, with no fetch, store or thread around it: the CPU a page costs the thread that analyses
 * it, repeatable to a few per cent on a quiet or busy machine alike (one thread, no I/O).
 *
 *   npx tsx bench/crawl/analyse-page.ts [--site dense|shop] [--pages 5000] [--rounds 5]
 *
 * Prints the median of the rounds' µs a page (each round analyses every page once, after one
 * warm-up round). Run it with `node --cpu-prof` through tsx to see where the time goes.
 */
import { parseArgs } from 'node:util';
import { analyseHtml } from '../../packages/server/src/crawler/page/page-analysis.js';
import { densePageHtml, pageHtml, type SiteShape } from './site.js';

const { values } = parseArgs({ options: { site: { type: 'string', default: 'dense' }, pages: { type: 'string', default: '5000' }, rounds: { type: 'string', default: '5' } } });
const pages = Number(values.pages);
const shape: SiteShape = { pages, origin: 'http://127.0.0.1:40123', external: 'http://127.0.0.2:40124' };
const render = values.site === 'shop' ? pageHtml : densePageHtml;
const bodies = Array.from({ length: pages }, (_, id) => new TextEncoder().encode(render(id, shape)));
const path = (id: number) => (id === 0 ? '/' : `/p/${id}`);

function round(): number {
  const started = process.cpuUsage();
  for (let id = 0; id < pages; id++) {
    const body = bodies[id];
    analyseHtml({
      url: `${shape.origin}${path(id)}`,
      status: 200,
      headers: { 'content-type': 'text/html; charset=utf-8' },
      ttfbMs: 3,
      depth: 2,
      discoveredVia: 'link',
      contentType: 'text/html; charset=utf-8',
      body,
      sizeBytes: body.length,
      truncated: false,
      sites: ['127.0.0.1:40123'],
      robotsToken: 'siteaudit',
    });
  }
  const used = process.cpuUsage(started);
  return (used.user + used.system) / pages;
}

round();
const results = Array.from({ length: Number(values.rounds) }, round).sort((a, b) => a - b);
process.stdout.write(`${JSON.stringify({ site: values.site, pages, us_per_page: Math.round(results[Math.floor(results.length / 2)]), rounds: results.map(Math.round) })}\n`);
