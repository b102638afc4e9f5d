/**
 * One variant of the crawl benchmark, run in its own process by bench/crawl/run.ts (bundled to
 * plain JavaScript first, so the TypeScript loader's own memory is not counted). Prints one JSON
 * line: pages, time, CPU time, and RSS sampled every 50 ms beside the kernel's peak (VmHWM).
 *
 *   node child.mjs --variant a|b|c --site http://127.0.0.1:PORT --pages N --root <repo> --dir <tmp>
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { allPaths } from './site.js';
import { CONCURRENCY, LABELS, SAMPLE_MS, type HeapPolicy, type Variant } from './variants.js';

const MB = 1024 * 1024;
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

interface Measured {
  ms: number;
  pages: number;
  [key: string]: unknown;
}

/** VmHWM of this process: the kernel's exact peak RSS (Linux only). */
function kernelPeakRss(): number | null {
  try {
    const m = /VmHWM:\s+(\d+)\s+kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/**
 * CPU time of this process's main thread (the one that answers HTTP in (c)) in ms, from
 * /proc/self/task/<pid>/stat (Linux only; 10 ms ticks): the rest of the process's CPU is its
 * crawl and analysis threads, libuv's and the store's.
 */
function mainThreadCpuMs(): number | null {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

/** CPU ms of every thread of this process, by thread id (Linux only; empty elsewhere). */
function threadCpuMs(): Map<string, number> {
  const threads = new Map<string, number>();
  try {
    for (const tid of readdirSync('/proc/self/task')) {
      try {
        const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        threads.set(tid, ((Number(fields[11]) + Number(fields[12])) * 1000) / 100);
      } catch {
        // The thread ended meanwhile.
      }
    }
  } catch {
    // No /proc.
  }
  return threads;
}

/** The peaks of the measurement under way (the crawl reads the RSS peak when its fetch stage ends). */
let peak = { rss: 0, heapUsed: 0, heapTotal: 0, external: 0 };

/** Runs `work` with memory sampled every 50 ms; prints one JSON line for the parent. */
async function measure(variant: Variant, work: () => Promise<Measured>): Promise<void> {
  const baseline = process.memoryUsage();
  peak = { rss: baseline.rss, heapUsed: baseline.heapUsed, heapTotal: baseline.heapTotal, external: baseline.external };
  const sample = () => {
    const m = process.memoryUsage();
    peak.rss = Math.max(peak.rss, m.rss);
    peak.heapUsed = Math.max(peak.heapUsed, m.heapUsed);
    peak.heapTotal = Math.max(peak.heapTotal, m.heapTotal);
    peak.external = Math.max(peak.external, m.external);
  };
  const sampler = setInterval(sample, SAMPLE_MS);
  const cpu = process.cpuUsage();
  const mainCpu = mainThreadCpuMs();
  const threadsBefore = threadCpuMs();
  const result = await work();
  const mainCpuEnd = mainThreadCpuMs();
  // The busiest threads besides the main one (crawl, page-analysis, the store's and libuv's), ms a page.
  const busiest = [...threadCpuMs()]
    .filter(([tid]) => tid !== String(process.pid))
    .map(([tid, ms]) => ms - (threadsBefore.get(tid) ?? 0))
    .sort((x, y) => y - x)
    .slice(0, 5)
    .map((ms) => round(ms / result.pages, 3));
  sample();
  clearInterval(sampler);
  const used = process.cpuUsage(cpu);
  const hwm = kernelPeakRss();
  const { ms, pages, ...extra } = result;
  process.stdout.write(
    `${JSON.stringify({
      variant,
      label: LABELS[variant],
      pages,
      ms: Math.round(ms),
      pages_per_s: round(pages / (ms / 1000)),
      cpu_ms: Math.round((used.user + used.system) / 1000),
      cpu_ms_per_page: round((used.user + used.system) / 1000 / pages, 3),
      main_thread_cpu_ms: mainCpu === null || mainCpuEnd === null ? null : Math.round(mainCpuEnd - mainCpu),
      main_thread_cpu_ms_per_page: mainCpu === null || mainCpuEnd === null ? null : round((mainCpuEnd - mainCpu) / pages, 3),
      other_threads_cpu_ms_per_page: busiest,
      rss_baseline_mb: round(baseline.rss / MB),
      rss_peak_mb: round(peak.rss / MB),
      heap_used_baseline_mb: round(baseline.heapUsed / MB),
      rss_hwm_mb: hwm === null ? null : round(hwm / MB),
      heap_used_peak_mb: round(peak.heapUsed / MB),
      heap_total_peak_mb: round(peak.heapTotal / MB),
      external_peak_mb: round(peak.external / MB),
      ...extra,
    })}\n`,
  );
}

/**
 * Fetches every path at concurrency 8 with the crawler's own undici (packages/server's copy, not
 * the root one), handing each response's status, encoding and body to `onBody`; returns the time.
 */
async function fetchLoop(root: string, site: string, pages: number, userAgent: string, onBody: (status: number, encoding: unknown, body: Buffer) => void): Promise<number> {
  const { Agent, request } = createRequire(path.join(root, 'packages/server/package.json'))('undici') as typeof import('undici');
  const agent = new Agent({ connections: CONCURRENCY, keepAliveTimeout: 60_000 });
  const paths = allPaths(pages);
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const res = await request(site + paths[next++], { dispatcher: agent, headers: { 'accept-encoding': 'gzip', 'user-agent': userAgent } });
      onBody(res.statusCode, res.headers['content-encoding'], Buffer.from(await res.body.arrayBuffer()));
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const ms = performance.now() - started;
  await agent.close();
  return ms;
}

/** (a) The ceiling: every URL fetched, its body read, nothing parsed. */
async function bareLoop(root: string, site: string, pages: number): Promise<void> {
  await measure('a', async () => {
    const statuses: Record<number, number> = {};
    let bytes = 0;
    const ms = await fetchLoop(root, site, pages, 'bench-bare-loop', (status, _encoding, body) => {
      bytes += body.byteLength;
      statuses[status] = (statuses[status] ?? 0) + 1;
    });
    return { ms, pages, statuses, body_mb: round(bytes / MB) };
  });
}

/**
 * (p) What reading the HTML at all costs: the loop of (a), each body gunzipped and fed to
 * htmlparser2 (the crawler's parser, its own copy) with handlers that only count tags. No crawler
 * that audits HTML can go faster than this on the same machine.
 */
async function parseLoop(root: string, site: string, pages: number): Promise<void> {
  const { Parser } = createRequire(path.join(root, 'packages/server/package.json'))('htmlparser2') as typeof import('htmlparser2');
  const { gunzipSync } = await import('node:zlib');
  await measure('p', async () => {
    let tags = 0;
    const ms = await fetchLoop(root, site, pages, 'bench-parse-loop', (_status, encoding, raw) => {
      const body = encoding === 'gzip' ? gunzipSync(raw) : raw;
      const parser = new Parser({ onopentag: () => void tags++ }, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
      parser.end(body.toString('utf8'));
    });
    return { ms, pages, tags };
  });
}

/** (b) The peer: CheerioCrawler pinned at concurrency 8, in-memory storage, a small audit per page. */
async function cheerioCrawler(root: string, name: string, site: string, pages: number): Promise<void> {
  const require = createRequire(path.join(root, 'package.json'));
  // Required from the repository: crawlee is an optional devDependency, absent from the type
  // check and from the bundle.
  const { CheerioCrawler, Configuration, RequestQueue, log } = require(name);
  log.setLevel(log.LEVELS.WARNING);
  const version = (require(`${name}/package.json`) as { version: string }).version;
  await measure('b', async () => {
    let handled = 0;
    let failed = 0;
    let links = 0;
    let noTitle = 0;
    let noAlt = 0;
    const config = new Configuration({ persistStorage: false });
    // crawlee's default request queue (in memory here), without its pause between batches of added
    // requests. With `maxRequestsPerCrawl` set, crawlee 3.18's `enqueueLinks` adds a page's links in
    // chunks no larger than the remaining budget (`maxRequestsPerCrawl` − handled − pending), awaits
    // every chunk and sleeps `waitBetweenBatchesMillis` (default 1 s, there to spare the Apify
    // platform's API) after each (`RequestProvider.addRequestsBatched`). Once most of the site is
    // queued the budget is a few URLs while a page still carries ~20 links, already queued, so
    // `enqueueLinks` slept up to ~20 s per page, all 8 slots at once: ~5 pages/s on 10 s of CPU.
    // `enqueueLinks` does not pass that option through, so the queue defaults it to 0; the budget
    // and the deduplication work as before.
    const requestQueue = await RequestQueue.open(null, { config });
    const addRequestsBatched = requestQueue.addRequestsBatched.bind(requestQueue);
    requestQueue.addRequestsBatched = (requests: unknown, options: object = {}) => addRequestsBatched(requests, { waitBetweenBatchesMillis: 0, ...options });
    const crawler = new CheerioCrawler(
      {
        minConcurrency: CONCURRENCY,
        maxConcurrency: CONCURRENCY,
        maxRequestsPerCrawl: pages,
        requestQueue,
        maxRequestRetries: 2,
        async requestHandler({ $, enqueueLinks }: { $: any; enqueueLinks: (options: object) => Promise<unknown> }) {
          handled++;
          if (!$('title').first().text().trim()) noTitle++;
          $('meta[name="description"]').attr('content');
          $('h1').length;
          noAlt += $('img:not([alt])').length;
          links += $('a[href]').length;
          await enqueueLinks({ strategy: 'same-hostname' });
        },
        failedRequestHandler() {
          failed++;
        },
      },
      config,
    );
    const started = performance.now();
    await crawler.run([`${site}/`]);
    const ms = performance.now() - started;
    return { ms, pages: handled + failed, handled, failed, links, no_title: noTitle, images_without_alt: noAlt, crawlee: `${name}@${version}` };
  });
}

/** Stalls of the thread that answers HTTP at least this long are listed, with the crawl's stage then. */
const STALL_NOTED_MS = 50;
/** The crawl's status and stage as last polled. */
let crawlStage = 'queued';

/**
 * What another team sees of the API while the crawl runs: the event-loop delay of the thread that
 * answers HTTP (max and p99, 10 ms resolution), and the latency of `GET /v1/me` sent every 100 ms
 * with another team's token.
 */
function watchResponsiveness(api: string, token: string): () => Record<string, unknown> {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  // The longest stalls, each with when it came and the crawl's stage then: what held the thread.
  const since = performance.now();
  const stalls: { ms: number; at_s: number; stage: string }[] = [];
  let tick = performance.now();
  const ticker = setInterval(() => {
    const now = performance.now();
    if (now - tick >= STALL_NOTED_MS + 10) stalls.push({ ms: round(now - tick - 10, 1), at_s: round((now - since) / 1000, 1), stage: crawlStage });
    tick = now;
  }, 10);
  const latencies: number[] = [];
  let stopped = false;
  const poll = async () => {
    while (!stopped) {
      const started = performance.now();
      const res = await fetch(`${api}/v1/me`, { headers: { authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`GET /v1/me answered ${res.status}`);
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const polling = poll();
  return () => {
    stopped = true;
    delay.disable();
    clearInterval(ticker);
    void polling;
    const sorted = [...latencies].sort((x, y) => x - y);
    const at = (q: number) => (sorted.length ? round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))], 1) : null);
    return {
      api_stall_max_ms: round(delay.max / 1e6, 1),
      api_stall_p99_ms: round(delay.percentile(99) / 1e6, 1),
      [`api_stalls_over_${STALL_NOTED_MS}_ms`]: stalls.sort((x, y) => y.ms - x.ms).slice(0, 10),
      other_team_reads: sorted.length,
      other_team_p50_ms: at(0.5),
      other_team_p99_ms: at(0.99),
      other_team_max_ms: sorted.length ? round(sorted[sorted.length - 1], 1) : null,
    };
  };
}

/** (c) Ours: the API on SQLite, a campaign with every HTML check on, launch → settled. */
async function apiCrawl(site: string, pages: number, dir: string, memory: boolean, heap: HeapPolicy, threads: number | undefined, analysisThreads: number | undefined): Promise<void> {
  // Loaded here, not at the top, so variants (a) and (b) do not carry the server in their RSS.
  const { createSiteAuditServer, limitHeapGrowth } = await import('../../packages/server/src/index.js');
  if (heap === 'cli') limitHeapGrowth();
  const { SCOPES } = await import('@siteaudit/schema');
  const server = await createSiteAuditServer({
    database: memory ? 'sqlite::memory:' : path.join(dir, `bench-${process.pid}.db`),
    network: { allowPrivateAddresses: true },
    // Polling every 100 ms for minutes would otherwise spend the agency plan's minute budget; an
    // operator's plan with a larger URL budget than the agency's 100,000 for the large runs.
    plans: { agency: { rateLimits: { minute: null, day: null }, limits: { 'crawls.max_urls': null } } },
    exports: { directory: path.join(dir, 'exports') },
    secretKey: 'crawl-benchmark-secret-key-0123456789abcdef',
    crawlThreads: threads,
    crawlAnalysisThreads: analysisThreads,
  });
  const { url: api } = await server.listen(0);
  await server.admin.createTeam({ slug: 'bench', name: 'Bench', plan: 'agency' });
  await server.admin.addMember({ team: 'bench', email: 'owner@bench.test', name: 'Owner', role: 'owner' });
  const { token } = await server.admin.createToken({ team: 'bench', member: 'owner@bench.test', name: 'bench', scopes: [...SCOPES] });
  await server.admin.createTeam({ slug: 'other', name: 'Other', plan: 'agency' });
  await server.admin.addMember({ team: 'other', email: 'owner@other.test', name: 'Other', role: 'owner' });
  const other = await server.admin.createToken({ team: 'other', member: 'owner@other.test', name: 'other', scopes: [...SCOPES] });
  const call = async (method: string, route: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(api + route, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = res.status === 204 ? null : await res.json();
    if (res.status >= 400) throw new Error(`${method} ${route} answered ${res.status}: ${JSON.stringify(json)}`);
    return json.data;
  };
  const project = await call('POST', '/v1/projects', { url: `${site}/` });
  const campaignBody = {
    name: 'Benchmark',
    start_url: `${site}/`,
    max_depth: 100,
    max_urls: pages,
    check_external_links: true,
    check_ai_reachability: true,
  };
  const campaign = await call('POST', `/v1/projects/${project.id}/campaigns`, campaignBody);

  await measure('c', async () => {
    const watched = watchResponsiveness(api, other.token);
    const started = performance.now();
    const queued = await call('POST', `/v1/campaigns/${campaign.id}/crawls`, undefined, { 'idempotency-key': crypto.randomUUID() });
    let crawl = queued;
    let fetchedMs: number | null = null;
    // The RSS peak when the fetch stage ended: whether the peak is the crawl's or the settlement's.
    let fetchStagePeakRss: number | null = null;
    let polls = 0;
    while (!crawl.stage_plan.settled) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      crawl = await call('GET', `/v1/crawls/${queued.id}`);
      crawlStage = `${crawl.status}/${crawl.stage}`;
      polls++;
      if (fetchedMs === null && crawl.status !== 'queued' && crawl.status !== 'running') {
        fetchedMs = performance.now() - started;
        fetchStagePeakRss = Math.max(peak.rss, process.memoryUsage().rss);
      }
    }
    const ms = performance.now() - started;
    const responsiveness = watched();
    if (crawl.status !== 'completed') throw new Error(`crawl ended ${crawl.status}: ${JSON.stringify(crawl.error)}`);
    const summary = await call('GET', `/v1/crawls/${queued.id}/issues/summary`);
    const groups = (summary.groups as { name: string; occurrences: number }[]).sort((x, y) => y.occurrences - x.occurrences);
    return {
      ms,
      pages: crawl.pages.crawled,
      fetch_stage_ms: fetchedMs === null ? null : Math.round(fetchedMs),
      rss_peak_fetch_stage_mb: fetchStagePeakRss === null ? null : round(fetchStagePeakRss / MB),
      discovered: crawl.pages.discovered,
      truncated: crawl.truncated,
      issue_counts: crawl.issue_counts,
      checks_fired: groups.length,
      top_issues: Object.fromEntries(groups.slice(0, 10).map((g) => [g.name, g.occurrences])),
      polls,
      database: memory ? 'sqlite::memory:' : 'SQLite file (WAL)',
      options: Object.keys(campaignBody).filter((k) => k.startsWith('check_')),
      crawl_threads: threads ?? 'default (one per core)',
      ...responsiveness,
    };
  });
  await server.close();
}

const { values } = parseArgs({
  options: {
    variant: { type: 'string' },
    site: { type: 'string' },
    pages: { type: 'string' },
    root: { type: 'string' },
    dir: { type: 'string' },
    database: { type: 'string', default: 'file' },
    crawlee: { type: 'string' },
    heap: { type: 'string', default: 'cli' },
    threads: { type: 'string' },
    'analysis-threads': { type: 'string' },
  },
});

if (values.variant) {
  const pages = Number(values.pages);
  const root = values.root!;
  if (values.variant === 'a') await bareLoop(root, values.site!, pages);
  else if (values.variant === 'p') await parseLoop(root, values.site!, pages);
  else if (values.variant === 'b') await cheerioCrawler(root, values.crawlee!, values.site!, pages);
  else await apiCrawl(values.site!, pages, values.dir!, values.database === 'memory', values.heap as HeapPolicy, values.threads === undefined ? undefined : Number(values.threads), values['analysis-threads'] === undefined ? undefined : Number(values['analysis-threads']));
}
