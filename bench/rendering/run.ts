/**
 * Browser benchmark: a 20-page crawl of a local site whose titles and links are written by
 * script, rendered in headless Chromium (2 pages at a time), with and without the accessibility
 * rules; then Lighthouse on a 5-page PageSpeed sample (home and 4 category pages), mobile and
 * desktop, one page at a time. Prints one JSON document on stdout (progress on stderr).
 *
 *   npx tsx bench/rendering/run.ts [--concurrency 2]
 *
 * Needs Chromium (CHROME_PATH, else /usr/bin/chromium); exits non-zero without it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { crawlSite, resolveCrawlConfig, type CrawlConfig, type IssueRecord, type PageRecord } from '../../packages/server/src/crawler/index.js';
import { chooseSample, clickDepthOrder } from '../../packages/server/src/modules/crawls/pagespeed-step.js';
import { createLighthousePageSpeed } from '../../packages/server/src/providers/index.js';
import { chromiumAvailable, createRenderer, resolveChromePath } from '../../packages/server/src/rendering/index.js';

const { values } = parseArgs({ options: { concurrency: { type: 'string', default: '2' } } });
const concurrency = Number(values.concurrency);
const log = (message: string) => process.stderr.write(`${message}\n`);

// ------------------------------------------------------------------------------------- the site

/** 20 URLs: home, 4 sections of 4 pages (index + 3 items), about, contact, legal. */
const SECTIONS = ['shoes', 'bags', 'coats', 'hats'];
const PATHS = ['/', ...SECTIONS.flatMap((s) => [`/${s}/`, `/${s}/item-1`, `/${s}/item-2`, `/${s}/item-3`]), '/about', '/contact', '/legal'];

function childrenOf(path: string): string[] {
  if (path === '/') return [...SECTIONS.map((s) => `/${s}/`), '/about', '/contact', '/legal'];
  const section = SECTIONS.find((s) => path === `/${s}/`);
  return section ? [1, 2, 3].map((i) => `/${section}/item-${i}`) : ['/'];
}

/** The HTML shell: the title, the h1 and every link are written by script after a data fetch. */
function shell(path: string): string {
  const words = 'Soft leather and recycled fabric, made to last, shipped within two days from our workshop. '.repeat(30);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<meta name="description" content="A page of the rendering benchmark shop, written by script after a small data request.">
<link rel="stylesheet" href="/style.css"></head>
<body><header><nav id="nav"></nav></header><main id="app"><p>${words}</p><img src="/photo.svg" width="120" height="80"></main>
<script>
fetch('/api/page?path=' + encodeURIComponent(location.pathname)).then((r) => r.json()).then((d) => {
  document.title = d.title;
  const h1 = document.createElement('h1');
  h1.textContent = d.title;
  document.getElementById('app').prepend(h1);
  for (const href of d.links) {
    const a = document.createElement('a');
    a.href = href;
    a.textContent = 'Go to ' + href;
    document.getElementById('nav').append(a);
  }
});
</script></body></html>`;
}

async function startSite(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
    if (url.pathname === '/style.css') return void res.writeHead(200, { 'content-type': 'text/css' }).end('body{font-family:sans-serif;margin:2rem}nav a{margin-right:1rem}');
    if (url.pathname === '/photo.svg') return void res.writeHead(200, { 'content-type': 'image/svg+xml' }).end('<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80"><rect width="120" height="80" fill="#ccc"/></svg>');
    if (url.pathname === '/api/page') {
      const path = url.searchParams.get('path') ?? '/';
      const title = path === '/' ? 'Rendering benchmark shop, home page' : `Rendering benchmark shop, ${path.replace(/\//g, ' ').trim()}`;
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ title, links: childrenOf(path) }));
    }
    if (!PATHS.includes(url.pathname)) return void res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>not found</body></html>');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(shell(url.pathname));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

// ------------------------------------------------------------------------------------ measuring

async function timedCrawl(config: CrawlConfig, label: string, withBrowser: boolean) {
  const pages: PageRecord[] = [];
  const issues: IssueRecord[] = [];
  const renderer = withBrowser ? createRenderer({ allowPrivateAddresses: true, concurrency }) : undefined;
  log(`crawl: ${label}`);
  const start = performance.now();
  try {
    const outcome = await crawlSite(config, { pages: async (b) => void pages.push(...b), issues: async (b) => void issues.push(...b), progress: () => undefined }, { renderer });
    const ms = performance.now() - start;
    const html = pages.filter((p) => p.is_internal && p.status_code === 200);
    return {
      result: {
        label,
        ms: Math.round(ms),
        pages: html.length,
        msPerPage: Math.round(ms / Math.max(1, html.length)),
        accessibilityIssues: issues.filter((i) => i.category === 'accessibility').length,
        renderFailures: issues.filter((i) => i.name === 'render_failed').length,
        healthScore: outcome.healthScore,
      },
      pages,
    };
  } finally {
    await renderer?.close();
  }
}

async function main() {
  const chrome = resolveChromePath();
  if (!chromiumAvailable(chrome)) {
    log(`no Chromium at ${chrome}: install it or set CHROME_PATH`);
    process.exit(1);
  }
  const site = await startSite();
  const base = resolveCrawlConfig({ start_url: `${site.url}/`, max_depth: 5, max_urls: 100 }, { allowPrivateAddresses: true });
  try {
    const plain = await timedCrawl(base, 'fetched HTML (no browser)', false);
    const rendered = await timedCrawl({ ...base, javascriptRendering: true }, 'rendered', true);
    const renderedA11y = await timedCrawl({ ...base, javascriptRendering: true, checkAccessibilityRendered: true }, 'rendered + full axe rules', true);
    const staticA11y = await timedCrawl({ ...base, javascriptRendering: true, checkAccessibility: true }, 'rendered + layout-free axe rules', true);

    const sample = chooseSample(
      rendered.pages
        .filter((p) => p.is_internal && p.status_code === 200)
        .map((p, seq) => ({ url: p.url, depth: clickDepthOrder(p.depth), seq })),
    );
    log(`lighthouse: ${sample.length} pages × 2 strategies`);
    const lighthouse = createLighthousePageSpeed({ allowPrivateAddresses: true });
    const requests = sample.flatMap((s) => (['mobile', 'desktop'] as const).map((strategy) => ({ url: s.url, strategy })));
    const start = performance.now();
    const measured = await lighthouse.measure(requests);
    const lighthouseMs = performance.now() - start;

    const crawls = [plain.result, rendered.result, renderedA11y.result, staticA11y.result];
    const result = {
      machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model ?? 'unknown', memoryGb: Math.round(os.totalmem() / 2 ** 30), node: process.version },
      chromium: chrome,
      concurrency,
      crawls,
      lighthouse: {
        pages: sample.length,
        runs: measured.length,
        ms: Math.round(lighthouseMs),
        msPerRun: Math.round(lighthouseMs / Math.max(1, measured.length)),
        refused: measured.filter((m) => m.score === null).length,
        scores: measured.map((m) => ({ path: new URL(m.url).pathname, strategy: m.strategy, score: m.score, error: m.error })),
      },
    };
    const markdown = [
      `Machine: ${result.machine.cpus} × ${result.machine.cpu}, ${result.machine.memoryGb} GB, Node ${result.machine.node}; Chromium at ${chrome}; ${concurrency} pages rendered at a time.`,
      '',
      '| Crawl of the 20-page script-built site | Pages found | Time | Per page |',
      '|---|---|---|---|',
      ...crawls.map((c) => `| ${c.label} | ${c.pages} | ${(c.ms / 1000).toFixed(1)} s | ${c.msPerPage} ms |`),
      '',
      `Lighthouse, ${result.lighthouse.pages} pages × mobile and desktop, one at a time: ${(result.lighthouse.ms / 1000).toFixed(1)} s (${(result.lighthouse.msPerRun / 1000).toFixed(1)} s per run, ${result.lighthouse.refused} refused).`,
    ].join('\n');
    process.stdout.write(`${JSON.stringify({ ...result, markdown }, null, 2)}\n`);
  } finally {
    site.server.closeAllConnections();
    site.server.close();
  }
}

main().catch((error) => {
  log(String(error?.stack ?? error));
  process.exit(1);
});
