/**
 * Crawl benchmark (the crawl issue): one generated site (bench/crawl/site.ts, N pages of a few KB
 * with ~20 internal links each, served on 127.0.0.1 with keep-alive, from this process) crawled
 * three ways, each in its own child process (bench/crawl/child.ts, bundled to plain JavaScript
 * and run on `node`) so one variant's memory does not hide another's:
 *
 *   (a) ceiling: a bare loop fetching the same N URLs with undici at concurrency 8, reading each
 *       body and nothing more;
 *   (p) reference: the loop of (a), each body gunzipped and tokenised by htmlparser2 with
 *       no-op handlers: what reading the HTML at all costs on this machine;
 *   (b) peer: crawlee's CheerioCrawler at concurrency 8 (a devDependency, measured only when
 *       installed), extracting title, description, h1, images and links with cheerio;
 *   (c) ours: the crawl through the HTTP API on SQLite, every HTML check on (external links and AI
 *       reachability included), concurrency 8 with 4 per host (CRAWL_DEFAULTS), from the launch
 *       request until the crawl reads `settled`.
 *
 *   npx tsx bench/crawl/run.ts [--pages 5000] [--only a,p,b,c] [--big] [--big-pages 50000]
 *                              [--node-defaults true|false] [--database file|memory] [--cpu-prof]
 *                              [--no-write] [--tsx] [--threads 0,1,2] [--site shop|dense]
 *                              [--analysis-threads 0,1] [--serve stored|rendered]
 *
 * `--threads 0,1,2` runs (a) once, then (c) once per crawl thread count (0: the crawl on the thread
 * that answers HTTP, the baseline), and reports beside pages/s, its ratio to (a)'s and RSS what
 * another team sees of the API meanwhile: the API thread's event-loop delay and the latency of its
 * `GET /v1/me`. `--analysis-threads 0,1` runs each thread count once per number of page-analysis
 * threads (the pool's default when not given).
 *
 * `--site dense` crawls the dense, templated site of the crawl CPU issue instead of the shop
 * (bench/crawl/site.ts `densePageHtml`: 2 KB pages whose text is drawn from 14 words).
 * `--serve rendered` renders and compresses each page per request instead of once up front (a
 * site without a page cache; the ceiling (a) then includes the site's own work on the same cores).
 *
 * (c) runs under the heap policy of `siteaudit-server` (`limitHeapGrowth()`, packages/server/src/
 * heap.ts). `--big` runs only (c), on a 50,000-page site, and reports its peak RSS against the
 * 300 MB target twice: under that policy, and embedded in a process that keeps Node's defaults
 * (`--node-defaults false` skips it): the crawl's live heap stays near 50 MB, and what V8 lets
 * pile up above it decides the peak.
 * Results are printed as JSON and written to docs/benchmarks.md (this benchmark's own
 * section only) unless `--no-write`. RSS is sampled every 50 ms in the child; the kernel's
 * high-water mark (VmHWM) is reported beside it, since a 50 ms sampler can miss a short peak.
 * `--cpu-prof` writes a V8 CPU profile of (c) to a temporary directory and prints its path;
 * `--tsx` runs the children from the TypeScript sources through tsx instead of the bundle (RSS
 * then includes the loader, about 75 MB more).
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire, isBuiltin } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { startBenchSite, type BenchSite, type ServeMode, type ServedCounts, type SiteKind } from './site.js';
import { CONCURRENCY, HEAP_LABELS, LABELS, SAMPLE_MS, type HeapPolicy, type Variant } from './variants.js';

const RSS_TARGET_MB = 300;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '5000' },
    big: { type: 'boolean', default: false },
    'big-pages': { type: 'string', default: '50000' },
    only: { type: 'string', default: 'a,p,b,c' },
    database: { type: 'string', default: 'file' },
    'cpu-prof': { type: 'boolean', default: false },
    'no-write': { type: 'boolean', default: false },
    tsx: { type: 'boolean', default: false },
    'node-defaults': { type: 'string', default: 'true' },
    threads: { type: 'string' },
    'analysis-threads': { type: 'string' },
    site: { type: 'string', default: 'shop' },
    serve: { type: 'string', default: 'stored' },
  },
});
const siteKind = values.site as SiteKind;
if (siteKind !== 'shop' && siteKind !== 'dense') throw new Error('--site is shop or dense');
const serveMode = values.serve as ServeMode;
if (!['stored', 'rendered', 'nginx', 'python'].includes(serveMode)) throw new Error('--serve is stored, rendered, nginx or python');

interface ChildResult {
  variant: Variant;
  pages: number;
  ms: number;
  pages_per_s: number;
  rss_baseline_mb: number;
  rss_peak_mb: number;
  rss_hwm_mb: number | null;
  served?: ServedCounts;
  [key: string]: unknown;
}

/** Where crawlee would be imported from, or null when it is not installed. */
function crawleeModule(): string | null {
  if (existsSync(path.join(root, 'node_modules/@crawlee/cheerio/package.json'))) return '@crawlee/cheerio';
  if (existsSync(path.join(root, 'node_modules/crawlee/package.json'))) return 'crawlee';
  return null;
}

/**
 * Bundles child.ts (and the server's sources it imports) into plain ES modules, so a child runs
 * on `node` alone, as the published server does, without the TypeScript loader's thread and
 * caches (about 75 MB of RSS) counted against the crawl. Packages stay external, imported from
 * the exact file the sources resolve to (the server's own undici and htmlparser2 copies), and
 * each source keeps its own `import.meta.url`, so `createRequire(import.meta.url)` in it still
 * resolves from where the file lives, not from the temporary directory.
 */
async function bundleChild(dir: string): Promise<string> {
  const esbuild = createRequire(path.join(root, 'package.json'))('esbuild') as typeof import('esbuild');
  await esbuild.build({
    // The threads' modules too: the pool loads them by path, beside its own (see onLoad).
    entryPoints: {
      child: path.join(root, 'bench/crawl/child.ts'),
      'crawl-thread': path.join(root, 'packages/server/src/crawl-threads/crawl-thread.ts'),
      'analysis-thread': path.join(root, 'packages/server/src/crawl-threads/analysis-thread.ts'),
    },
    outdir: dir,
    // Chunks: the server (and the packages it imports) load only in the child that runs it.
    splitting: true,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    tsconfig: path.join(root, 'tsconfig.json'),
    logLevel: 'warning',
    plugins: [
      {
        name: 'external-by-path',
        setup(build) {
          build.onResolve({ filter: /^[^./]/ }, async (args) => {
            if (args.pluginData === 'resolving' || args.path.startsWith('@siteaudit/')) return undefined;
            if (isBuiltin(args.path)) return { path: args.path, external: true };
            const found = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: 'resolving' });
            if (found.errors.length) return { errors: found.errors };
            return { path: pathToFileURL(found.path).href, external: true };
          });
          build.onLoad({ filter: /\.[cm]?ts$/ }, async (args) => {
            if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
            const source = await readFile(args.path, 'utf8');
            // The pool finds its threads' modules beside itself: here, the bundled ones in `dir`.
            const self = args.path.endsWith(path.join('crawl-threads', 'pool.ts')) ? path.join(dir, 'pool.js') : args.path;
            const url = JSON.stringify(pathToFileURL(self).href);
            return { contents: source.replace(/\bimport\.meta\.url\b/g, url), loader: 'ts' };
          });
        },
      },
    ],
  });
  await writeFile(path.join(dir, 'package.json'), '{ "type": "module" }\n');
  await writeFile(path.join(dir, 'crawl-thread.js'), "import './crawl-thread.mjs';\n");
  await writeFile(path.join(dir, 'analysis-thread.js'), "import './analysis-thread.mjs';\n");
  return path.join(dir, 'child.mjs');
}

function runChild(child: string, variant: Variant, site: string, pages: number, dir: string, flags: string[], heap: HeapPolicy, childArgs: string[] = []): Promise<ChildResult> {
  // --tsx runs the sources through the parent's loader instead of the bundle.
  const loader = values.tsx ? process.execArgv : [];
  const args = [...loader, ...flags, child, '--variant', variant, '--site', site, '--pages', String(pages), '--root', root, '--dir', dir, '--database', values.database!, '--heap', heap, ...childArgs];
  const peer = crawleeModule();
  if (peer) args.push('--crawlee', peer);
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    proc.on('error', reject);
    proc.on('close', (code) => {
      if (code !== 0) reject(new Error(`variant ${variant} exited with ${code}`));
      else resolve(JSON.parse(out.trim().split('\n').pop()!));
    });
  });
}

function machine(): string {
  const cpus = os.cpus();
  return `${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${cpus.length} cores, ${round(os.totalmem() / 1024 ** 3)} GB RAM, ${os.type()} ${os.release()}, Node ${process.version}`;
}

const load = () => os.loadavg().map((n) => round(n, 2));

const SECTION = '## Crawl (`bench/crawl`)';
const INTRO = `${SECTION}

\`npx tsx bench/crawl/run.ts [--pages 5000]\`, and \`--big\` for the 50,000-page memory run.
A generated shop of N URLs (about 5.7 KB of HTML and 20 internal links per page, titles,
descriptions, h1, images, JSON-LD, and the usual defects: 404s, 301s, duplicate titles and text,
missing alt…) is served by node:http on 127.0.0.1 from the parent process (keep-alive, gzip from
a cache filled before any measurement). Each variant runs in its own child process, bundled to
plain JavaScript with esbuild and run on \`node\` (as the published server runs; under tsx the
loader adds about 75 MB of RSS). RSS is sampled every 50 ms; the kernel's peak (VmHWM) is kept too.

- (a) ceiling: a bare undici loop (the crawler's own undici copy) fetching the same N URLs at
  concurrency 8, body read, nothing parsed;
- (p) reference: the same loop, each body gunzipped and tokenised by htmlparser2 (the crawler's
  parser) with handlers that only count tags: what reading the HTML at all costs here;
- (b) peer: crawlee's \`CheerioCrawler\` pinned at concurrency 8 (min = max = 8), in-memory storage,
  title/description/h1/images/links read with cheerio and \`enqueueLinks\`;
- (c) ours: a campaign created and launched through the HTTP API on SQLite (a WAL file),
  \`max_urls\` N, \`max_depth\` 100, every HTML check plus \`check_external_links\` and
  \`check_ai_reachability\`, concurrency 8 with 4 per host (\`CRAWL_DEFAULTS\`: a single-host site
  gets 4 requests in flight); timed from the launch request to
  the crawl reading \`settled\` (polled every 100 ms), so robots.txt, sitemaps, llms.txt, image and
  external checks, the cross-page checks and post-processing are all inside the time.
  JavaScript rendering and the axe-core accessibility checks stay off: they need Chromium, they
  are not HTML checks. The child applies the heap policy of \`siteaudit-server\`
  (\`limitHeapGrowth()\`, \`packages/server/src/heap.ts\`).

Targets (crawl issue): (c) ≥ 2 × (b) pages/s and ≥ 40 % of (a); a 50,000-page crawl under 300 MB RSS.
The machine is shared: the load average at the start and end of each run is recorded, and figures
taken under load (another build or test suite running) move by ± 40 %.
`;

/** Replaces the block between this benchmark's markers; the other sections are untouched. */
async function writeDocs(block: 'result' | 'big' | 'threads' | 'dense-threads', markdown: string): Promise<string> {
  const file = path.join(root, 'docs/benchmarks.md');
  const start = `<!-- bench/crawl:${block} -->`;
  const end = `<!-- /bench/crawl:${block} -->`;
  const content = `${start}\n${markdown.trim()}\n${end}`;
  let doc = existsSync(file) ? await readFile(file, 'utf8') : '# Benchmarks\n';
  if (!doc.includes(SECTION)) doc = `${doc.trimEnd()}\n\n${INTRO}`;
  const at = doc.indexOf(start);
  if (at !== -1) {
    const stop = doc.indexOf(end, at);
    doc = doc.slice(0, at) + content + doc.slice(stop + end.length);
  } else {
    // At the end of this section: before the next `## ` heading, or at the end of the file.
    const sectionAt = doc.indexOf(SECTION);
    const next = doc.indexOf('\n## ', sectionAt + SECTION.length);
    const insertAt = next === -1 ? doc.length : next + 1;
    const rest = next === -1 ? '' : `\n${doc.slice(insertAt)}`;
    doc = `${doc.slice(0, insertAt).trimEnd()}\n\n${content}\n${rest}`;
  }
  await writeFile(file, `${doc.trimEnd()}\n`);
  return file;
}

const fmt = (n: unknown) => (n === null || n === undefined ? '–' : String(n));
const pct = (n: number) => `${Math.round(n * 100)} %`;
const verdict = (ok: boolean) => (ok ? 'met' : '**missed**');

function runLine(when: string, loadStart: number[], loadEnd: number[]): string {
  return `Last run: ${when} UTC, ${machine()}; load average ${loadStart.join(' / ')} at the start, ${loadEnd.join(' / ')} at the end.`;
}

function mainMarkdown(pages: number, results: ChildResult[], when: string, loadStart: number[], loadEnd: number[]): string {
  const by = (v: Variant) => results.find((r) => r.variant === v);
  const a = by('a');
  const b = by('b');
  const c = by('c');
  const row = (v: Variant) => {
    const r = by(v);
    if (!r) return `| (${v}) ${LABELS[v]} | ${v === 'b' ? 'not installed' : 'not run'} | – | – | – | – | – |`;
    return `| (${v}) ${LABELS[v]} | ${r.pages} | ${(r.ms / 1000).toFixed(2)} | **${r.pages_per_s}** | ${fmt(r.cpu_ms)} | ${r.rss_peak_mb} | ${fmt(r.rss_hwm_mb)} |`;
  };
  const lines = [
    `### ${pages.toLocaleString('en')} pages`,
    '',
    runLine(when, loadStart, loadEnd),
    '',
    '| variant | pages | seconds | pages/s | CPU ms | peak RSS MB (50 ms samples) | peak RSS MB (VmHWM) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    row('a'),
    row('p'),
    row('b'),
    row('c'),
    '',
  ];
  if (!b) lines.push('(b) peer not installed: add `@crawlee/cheerio` as a devDependency to measure it.', '');
  if (c && a) lines.push(`- (c)/(a) pages/s: **${pct(c.pages_per_s / a.pages_per_s)}** — target ≥ 40 %: ${verdict(c.pages_per_s / a.pages_per_s >= 0.4)}.`);
  const p = by('p');
  if (p && a) lines.push(`- (p)/(a) pages/s: ${pct(p.pages_per_s / a.pages_per_s)}: gunzipping and tokenising the HTML alone, with nothing audited or stored${c ? `; (c)/(p): ${pct(c.pages_per_s / p.pages_per_s)}` : ''}.`);
  if (c && b) lines.push(`- (c)/(b) pages/s: **${round(c.pages_per_s / b.pages_per_s, 2)}×** — target ≥ 2×: ${verdict(c.pages_per_s / b.pages_per_s >= 2)} (peer ${b.crawlee}).`);
  else if (c) lines.push('- (c)/(b): not measured, the peer is not installed.');
  if (c) {
    const served = c.served;
    lines.push(
      `- (c) first seen past the fetch stage at ${fmt(c.fetch_stage_ms)} ms, settled at ${Math.round(c.ms)} ms (100 ms polls); ${fmt(c.discovered)} URLs discovered; besides the ${pages} pages it sent ${served ? served.images + served.other : '–'} image and resource requests and ${served?.external ?? '–'} external checks; ${fmt(c.checks_fired)} checks fired, issues ${JSON.stringify(c.issue_counts)}.`,
    );
  }
  return lines.join('\n');
}

function bigMarkdown(pages: number, runs: { flags: string; result: ChildResult }[], when: string, loadStart: number[], loadEnd: number[]): string {
  const lines = [
    `### ${pages.toLocaleString('en')}-page crawl (variant c), memory`,
    '',
    runLine(when, loadStart, loadEnd),
    '',
    '| heap policy | pages | seconds | pages/s | peak RSS MB (50 ms samples) | peak RSS MB (VmHWM) | peak V8 heap used / total MB | < 300 MB |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const { flags, result: c } of runs) {
    const peak = Math.max(c.rss_peak_mb, c.rss_hwm_mb ?? 0);
    lines.push(
      `| ${flags} | ${c.pages} | ${(c.ms / 1000).toFixed(1)} | ${c.pages_per_s} | ${c.rss_peak_mb} | ${fmt(c.rss_hwm_mb)} | ${fmt(c.heap_used_peak_mb)} / ${fmt(c.heap_total_peak_mb)} | ${verdict(peak < RSS_TARGET_MB)} |`,
    );
  }
  lines.push(
    '',
    `RSS before the launch (server started, modules loaded): ${runs[0].result.rss_baseline_mb} MB, of which ${fmt(runs[0].result.heap_used_baseline_mb)} MB of V8 heap.`,
  );
  return lines.join('\n');
}

function threadsMarkdown(pages: number, runs: { threads: number; analysis?: number; result: ChildResult }[], ceiling: ChildResult | undefined, when: string, loadStart: number[], loadEnd: number[]): string {
  const base = runs.find((r) => r.threads === 0)?.result;
  const lines = [
    `### ${pages.toLocaleString('en')}-page crawl (variant c${siteKind === 'dense' ? ', dense site' : ''}) by crawl threads: speed, memory, and the API meanwhile`,
    '',
    runLine(when, loadStart, loadEnd),
    '',
    ceiling ? `(a) bare fetch loop, the ceiling in the same run: ${ceiling.pages_per_s} pages/s.` : '',
    '',
    '| crawl threads | analysis threads | pages | seconds | pages/s | × ceiling | × in process | peak RSS MB (VmHWM) | API thread stall max / p99 ms | an idle process meanwhile, stall max / p99 ms | other team `GET /v1/me` p50 / p99 / max ms (reads) |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const { threads, analysis, result: c } of runs) {
    const ratio = base ? `${round(c.pages_per_s / base.pages_per_s, 2)}×` : '–';
    const toCeiling = ceiling ? `${round(c.pages_per_s / ceiling.pages_per_s, 2)}×` : '–';
    lines.push(
      `| ${threads === 0 ? '0 (in process)' : threads} | ${analysis ?? 'default'} | ${c.pages} | ${(c.ms / 1000).toFixed(1)} | ${c.pages_per_s} | ${toCeiling} | ${ratio} | ${fmt(c.rss_hwm_mb)} | ${fmt(c.api_stall_max_ms)} / ${fmt(c.api_stall_p99_ms)} | ${fmt(c.idle_stall_max_ms)} / ${fmt(c.idle_stall_p99_ms)} | ${fmt(c.other_team_p50_ms)} / ${fmt(c.other_team_p99_ms)} / ${fmt(c.other_team_max_ms)} (${fmt(c.other_team_reads)}) |`,
    );
  }
  lines.push('', 'Targets (crawl engine issue): API thread stall max ≤ 100 ms; another team\'s read p99 ≤ 50 ms during the crawl.');
  return lines.join('\n');
}

/**
 * A control for the API thread's stall: a node process that does nothing, measuring its own
 * event-loop delay the same way for the time of the crawl. What it shows is the machine's (other
 * processes, the scheduler), not the server's.
 */
function idleControl(): { stop(): Promise<{ idle_stall_max_ms: number; idle_stall_p99_ms: number }> } {
  const script = `const h = require('node:perf_hooks').monitorEventLoopDelay({ resolution: ${SAMPLE_MS / 5} }); h.enable();
setInterval(() => {}, 1000);
process.on('SIGTERM', () => { h.disable(); process.stdout.write(JSON.stringify({ idle_stall_max_ms: Math.round(h.max / 1e5) / 10, idle_stall_p99_ms: Math.round(h.percentile(99) / 1e5) / 10 })); process.exit(0); });`;
  const proc = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  proc.stdout.on('data', (chunk) => (out += chunk));
  return {
    stop: () =>
      new Promise((resolve) => {
        proc.on('exit', () => resolve(JSON.parse(out || '{"idle_stall_max_ms":null,"idle_stall_p99_ms":null}')));
        proc.kill('SIGTERM');
      }),
  };
}

async function parent(): Promise<void> {
  const big = values.big;
  const pages = Number(big ? values['big-pages'] : values.pages);
  if (!Number.isInteger(pages) || pages < 2) throw new Error('--pages must be an integer ≥ 2');
  const threadCounts = values.threads === undefined ? null : values.threads.split(',').map((s) => Number(s.trim()));
  if (threadCounts?.some((n) => !Number.isInteger(n) || n < 0)) throw new Error('--threads takes whole numbers, e.g. 0,1,2');
  const wanted = (big || threadCounts ? ['c'] : values.only!.split(',').map((s) => s.trim())) as Variant[];
  const peer = crawleeModule();
  const loadStart = load();
  if (loadStart[0] > os.cpus().length / 2) process.stderr.write(`warning: load average ${loadStart[0]} — other work is running, figures will be low\n`);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'siteaudit-crawl-bench-'));
  const profileDir = values['cpu-prof'] ? await mkdtemp(path.join(os.tmpdir(), 'siteaudit-crawl-prof-')) : null;
  const results: ChildResult[] = [];
  const bigRuns: { flags: string; result: ChildResult }[] = [];
  const threadRuns: { threads: number; analysis?: number; result: ChildResult }[] = [];
  let ceiling: ChildResult | undefined;
  const notes: string[] = [];
  let site: BenchSite | null = null;
  try {
    const child = values.tsx ? path.join(root, 'bench/crawl/child.ts') : await bundleChild(dir);
    process.stderr.write(`generating and serving ${pages} pages…\n`);
    site = await startBenchSite(pages, siteKind, serveMode);
    const run = async (variant: Variant, flags: string[], heap: HeapPolicy = 'cli', childArgs: string[] = []) => {
      process.stderr.write(`(${variant}) ${LABELS[variant]}${flags.length ? ` with ${flags.join(' ')}` : ''}${heap === 'node' ? ", Node's heap defaults" : ''}…\n`);
      site!.reset();
      const profile = profileDir && variant === 'c' ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
      const result = await runChild(child, variant, site!.url, pages, dir, [...flags, ...profile], heap, childArgs);
      result.served = site!.reset();
      process.stderr.write(`(${variant}) ${result.pages} pages in ${result.ms} ms: ${result.pages_per_s} pages/s, peak RSS ${result.rss_peak_mb} MB\n`);
      return result;
    };
    if (threadCounts) {
      ceiling = await run('a', []);
      const analysisCounts = values['analysis-threads'] === undefined ? [undefined] : values['analysis-threads'].split(',').map((s) => Number(s.trim()));
      for (const threads of threadCounts) {
        for (const analysis of threads === 0 ? [undefined] : analysisCounts) {
          const control = idleControl();
          const result = await run('c', [], 'cli', ['--threads', String(threads), ...(analysis === undefined ? [] : ['--analysis-threads', String(analysis)])]);
          Object.assign(result, await control.stop());
          if (analysis !== undefined) result.analysis_threads = analysis;
          result.ceiling_ratio = round(result.pages_per_s / ceiling.pages_per_s, 3);
          threadRuns.push({ threads, analysis, result });
        }
      }
      results.push(ceiling, ...threadRuns.map((r) => r.result));
    } else if (big) {
      bigRuns.push({ flags: HEAP_LABELS.cli, result: await run('c', []) });
      // The same crawl in a process that keeps Node's defaults: its live heap is as small, but
      // V8 lets garbage pile up to 4× the live size when the heap limit is high.
      if (values['node-defaults'] !== 'false') bigRuns.push({ flags: HEAP_LABELS.node, result: await run('c', [], 'node') });
      results.push(...bigRuns.map((r) => r.result));
    } else {
      for (const variant of wanted) {
        if (variant === 'b' && !peer) {
          notes.push('peer not installed: add `@crawlee/cheerio` as a devDependency to measure it');
          process.stderr.write('(b) skipped: peer not installed: add `@crawlee/cheerio` as a devDependency to measure it\n');
          continue;
        }
        results.push(await run(variant, []));
      }
    }
  } finally {
    await site?.close();
    if (!process.env.KEEP_BUNDLE) await rm(dir, { recursive: true, force: true });
  }
  const loadEnd = load();

  const by = (v: Variant) => results.find((r) => r.variant === v);
  const a = by('a');
  const b = by('b');
  const c = by('c');
  const ratios = big || threadCounts
    ? undefined
    : {
        c_over_a: a && c ? round(c.pages_per_s / a.pages_per_s, 3) : null,
        p_over_a: a && by('p') ? round(by('p')!.pages_per_s / a.pages_per_s, 3) : null,
        c_over_p: c && by('p') ? round(c.pages_per_s / by('p')!.pages_per_s, 3) : null,
        c_over_b: b && c ? round(c.pages_per_s / b.pages_per_s, 3) : null,
      };
  const targets = threadCounts
    ? Object.fromEntries(threadRuns.filter((r) => r.threads > 0).flatMap(({ threads, result }) => [[`api_stall_max_at_most_100_ms (${threads} threads)`, Number(result.api_stall_max_ms) <= 100], [`other_team_p99_at_most_50_ms (${threads} threads)`, Number(result.other_team_p99_ms) <= 50]]))
    : big
    ? Object.fromEntries(bigRuns.map(({ flags, result }) => [`rss_under_300_mb (${flags})`, Math.max(result.rss_peak_mb, result.rss_hwm_mb ?? 0) < RSS_TARGET_MB]))
    : {
        c_at_least_40_percent_of_a: ratios!.c_over_a === null ? null : ratios!.c_over_a >= 0.4,
        c_at_least_2x_b: ratios!.c_over_b === null ? null : ratios!.c_over_b >= 2,
      };
  const now = new Date().toISOString();
  const date = now.slice(0, 10);
  const when = now.slice(0, 16).replace('T', ' ');
  let docs: string | null = null;
  if (!values['no-write'] && c) {
    docs = threadCounts
      ? await writeDocs(siteKind === 'dense' ? 'dense-threads' : 'threads', threadsMarkdown(pages, threadRuns, ceiling, when, loadStart, loadEnd))
      : big
      ? await writeDocs('big', bigMarkdown(pages, bigRuns, when, loadStart, loadEnd))
      : await writeDocs('result', mainMarkdown(pages, results, when, loadStart, loadEnd));
  }
  const profiles = profileDir ? readdirSync(profileDir).map((f) => path.join(profileDir, f)) : undefined;
  process.stdout.write(
    `${JSON.stringify(
      { date, machine: machine(), site: siteKind, serve: serveMode, load_average: { start: loadStart, end: loadEnd }, pages, concurrency: CONCURRENCY, sample_interval_ms: SAMPLE_MS, results, ratios, targets, notes, docs, profiles },
      null,
      2,
    )}\n`,
  );
}

await parent();
