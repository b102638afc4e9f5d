/**
 * API read benchmark: the authenticated, rate-limited, ETagged reads of the reference server on
 * SQLite, against a bare Express app answering a constant JSON body, in the same run and on the
 * same machine. Each server runs in its own child process; autocannon (programmatic API) drives
 * it from this one, so the load generator and the server do not share an event loop.
 *
 *   npx tsx bench/api/run.ts [--rounds 3] [--duration 5] [--warmup 3] [--connections 10]
 *                            [--database sqlite-file|memory] [--cpu-prof <dir>] [--observability]
 *
 * Both servers run for the whole benchmark and the scenarios are measured in interleaved rounds
 * (bare, project, list100, bare, …); each figure is the median of its rounds, so a burst of load
 * from something else on the machine does not land on one side of the comparison only.
 * `--cpu-prof <dir>` writes a V8 CPU profile of the API server process there (node --cpu-prof).
 *
 * Scenarios:
 *   bare      GET /project on a bare Express app: res.json() of a constant project-sized body
 *   project   GET /v1/projects/{id} with a valid token (auth, plan, rate limit, scope, ETag)
 *   list100   GET /v1/projects?limit=100 with 100 projects in the team
 *
 * `--observability` (bench/api-logs) measures instead the cost of the request log and metrics:
 * `project` on three API servers, each in its own process and on its own database file —
 * silent (logger false), the request log at info to a file (the CLI's logger, buffered writes,
 * as `siteaudit-server start > file` does), and that log plus Prometheus metrics — each figure a
 * ratio to the silent one. Target: the read with the log at ≥ 90 % of its silent figure.
 *
 * The plan's rate limits are raised (not removed) so every call still goes through the limiter
 * and gets its headers, but nothing is refused: the run measures the server, not 429s.
 * Prints one JSON document on stdout; `npm run bench` writes it into docs/benchmarks.md.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

const { values } = parseArgs({
  options: {
    serve: { type: 'string' },
    dir: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '3' },
    'cpu-prof': { type: 'string' },
    connections: { type: 'string', default: '10' },
    database: { type: 'string', default: 'sqlite-file' },
    observability: { type: 'boolean', default: false },
    variant: { type: 'string', default: 'silent' },
  },
});

/** A project resource as the API returns it: the bare app answers a body of the same size. */
const CONSTANT_BODY = {
  data: {
    id: '0b5e3a4c-7f0e-4d5a-9a57-3f1e2d6c8b90',
    name: 'www.example-shop.com',
    slug: 'www-example-shop-com',
    url: 'https://www.example-shop.com/',
    domain: 'www.example-shop.com',
    locked: false,
    created_at: '2025-03-12T10:30:00.000Z',
    latest_completed_crawl: null,
  },
};

interface Ready {
  port: number;
  token?: string;
  project?: string;
}

async function serveBare(): Promise<Ready> {
  const { default: express } = await import('express');
  const app = express();
  app.disable('x-powered-by');
  app.get('/project', (_req, res) => {
    res.json(CONSTANT_BODY);
  });
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve({ port: (server.address() as { port: number }).port }));
  });
}

/** How the API server logs: `silent` (logger false), `log` (info to a file), `log+metrics`. */
type Variant = 'silent' | 'log' | 'log+metrics';
const VARIANTS: Variant[] = ['silent', 'log', 'log+metrics'];

async function benchLogger(variant: Variant, dir: string) {
  if (variant === 'silent') return { logger: false as const };
  const { createLogger, logDestination } = await import('../../packages/server/src/observability/logger.js');
  // What `siteaudit-server start > file` does: the CLI's logger, its stdout being the file.
  const file = logDestination(path.join(dir, `${variant}.log`));
  return { logger: await createLogger({ level: 'info', destination: file }), metrics: variant === 'log+metrics' };
}

async function serveApi(dir: string, variant: Variant | null): Promise<Ready> {
  const { createSiteAuditServer } = await import('../../packages/server/src/index.js');
  const { SCOPES } = await import('@siteaudit/schema');
  const database = values.database === 'memory' ? 'sqlite::memory:' : `sqlite:${path.join(dir, variant ? `bench-${variant}.db` : 'bench.db')}`;
  const server = await createSiteAuditServer({
    ...(variant ? await benchLogger(variant, dir) : { logger: { error: (message: string, error?: unknown) => console.error(message, error) } }),
    database,
    secretKey: 'bench-secret-key-0123456789abcdef0123',
    network: { allowPrivateAddresses: true },
    validateResponses: false,
    plans: { agency: { rateLimits: { minute: 1_000_000_000, day: 1_000_000_000 } } },
  });
  const { port, url } = await server.listen(0);
  await server.admin.createTeam({ slug: 'bench', name: 'Bench', plan: 'agency' });
  await server.admin.addMember({ team: 'bench', email: 'bench@bench.test', name: 'Bench', role: 'owner' });
  const { token } = await server.admin.createToken({ team: 'bench', member: 'bench@bench.test', name: 'bench', scopes: [...SCOPES] });
  let project = '';
  for (let i = 0; i < 100; i++) {
    const res = await fetch(`${url}/v1/projects`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `https://www.site-${i}.example/` }),
    });
    if (res.status !== 201) throw new Error(`seeding failed: ${res.status} ${await res.text()}`);
    project = ((await res.json()) as { data: { id: string } }).data.id;
  }
  return { port, token, project };
}

/** Child mode: start one server, print where it listens, run until killed. */
async function child(kind: string, dir: string): Promise<void> {
  const ready = kind === 'bare' ? await serveBare() : await serveApi(dir, values.observability ? (values.variant as Variant) : null);
  process.stdout.write(`${JSON.stringify(ready)}\n`);
  // The parent asks for the CPU time this process (every thread of it) has used so far.
  process.on('message', () => process.send?.(process.cpuUsage()));
  process.on('SIGTERM', () => process.exit(0));
}

function startChild(kind: 'bare' | 'api', dir: string, variant?: Variant): Promise<{ proc: ChildProcess; ready: Ready }> {
  const script = fileURLToPath(import.meta.url);
  const profile = kind === 'api' && values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(values['cpu-prof'])}`] : [];
  const observed = variant ? ['--observability', '--variant', variant] : [];
  const args = [...profile, ...process.execArgv, script, '--serve', kind, '--dir', dir, '--database', values.database!, ...observed];
  const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit', 'ipc'], env: { ...process.env, NODE_ENV: 'production' } });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: proc.stdout! });
    lines.once('line', (line) => resolve({ proc, ready: JSON.parse(line) as Ready }));
    proc.once('exit', (code) => reject(new Error(`${kind} server exited with ${code} before it was ready`)));
    proc.once('error', reject);
  });
}

async function stopChild(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null) return;
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  proc.kill('SIGTERM');
  await exited;
}

/** CPU microseconds (user + system) the child has used so far. */
function cpuOf(proc: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    proc.once('message', (usage: { user: number; system: number }) => resolve(usage.user + usage.system));
    proc.send('cpu');
  });
}

interface Measure {
  scenario: string;
  path: string;
  requests_per_second: number;
  latency_p50_ms: number;
  latency_p99_ms: number;
  latency_avg_ms: number;
  requests: number;
  non_2xx: number;
  errors: number;
  timeouts: number;
  /** Server CPU time per answered request, all threads: what the server spends, whatever the load around it. */
  server_cpu_us_per_request: number;
}

async function measure(scenario: string, url: string, headers: Record<string, string>, duration: number, server: ChildProcess): Promise<Measure> {
  const cpuBefore = await cpuOf(server);
  const r = await autocannon({ url, headers, connections: Number(values.connections), duration });
  const cpu = (await cpuOf(server)) - cpuBefore;
  return {
    scenario,
    path: new URL(url).pathname + new URL(url).search,
    requests_per_second: Math.round(r.requests.average),
    latency_p50_ms: r.latency.p50,
    latency_p99_ms: r.latency.p99,
    latency_avg_ms: Math.round(r.latency.average * 100) / 100,
    requests: r.requests.total,
    non_2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    server_cpu_us_per_request: Math.round(cpu / Math.max(1, r.requests.total)),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** One figure per scenario: the median of its rounds; counts of failures are summed. */
function combine(rounds: Measure[]): Measure & { rounds_rps: number[] } {
  const sum = (k: 'requests' | 'non_2xx' | 'errors' | 'timeouts') => rounds.reduce((n, r) => n + r[k], 0);
  return {
    scenario: rounds[0].scenario,
    path: rounds[0].path,
    requests_per_second: Math.round(median(rounds.map((r) => r.requests_per_second))),
    latency_p50_ms: median(rounds.map((r) => r.latency_p50_ms)),
    latency_p99_ms: median(rounds.map((r) => r.latency_p99_ms)),
    latency_avg_ms: median(rounds.map((r) => r.latency_avg_ms)),
    requests: sum('requests'),
    non_2xx: sum('non_2xx'),
    errors: sum('errors'),
    timeouts: sum('timeouts'),
    server_cpu_us_per_request: median(rounds.map((r) => r.server_cpu_us_per_request)),
    rounds_rps: rounds.map((r) => r.requests_per_second),
  };
}

function cpuModel(): string {
  const cpus = os.cpus();
  return `${cpus.length} × ${cpus[0]?.model?.trim() ?? 'unknown CPU'}`;
}

/** `--observability`: the read on a silent server, with the request log, and with log and metrics. */
async function observability(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'siteaudit-api-logs-bench-'));
  const measured = new Map<string, Measure[]>();
  const servers: { variant: Variant; proc: ChildProcess; ready: Ready }[] = [];
  try {
    for (const variant of VARIANTS) servers.push({ variant, ...(await startChild('api', dir, variant)) });
    const scenario = (s: (typeof servers)[number]): [string, string, Record<string, string>, ChildProcess] => [
      s.variant,
      `http://127.0.0.1:${s.ready.port}/v1/projects/${s.ready.project}`,
      { authorization: `Bearer ${s.ready.token}` },
      s.proc,
    ];
    const warmup = Number(values.warmup);
    if (warmup > 0) {
      for (const s of servers) {
        const [name, url, headers] = scenario(s);
        await measure(name, url, headers, warmup, s.proc);
      }
    }
    for (let round = 1; round <= Number(values.rounds); round++) {
      // Each round in a different order, so no variant always runs right after the same one.
      const order = servers.map((_, i) => servers[(i + round) % servers.length]);
      for (const s of order) {
        const [name, url, headers, proc] = scenario(s);
        const m = await measure(name, url, headers, Number(values.duration), proc);
        process.stderr.write(`round ${round} ${name}: ${m.requests_per_second} req/s, ${m.server_cpu_us_per_request} µs CPU/request\n`);
        measured.set(name, [...(measured.get(name) ?? []), m]);
      }
    }
  } finally {
    for (const s of servers) await stopChild(s.proc);
    await rm(dir, { recursive: true, force: true });
  }
  const results = VARIANTS.map((v) => combine(measured.get(v)!));
  const silent = results[0];
  const ratio = (a: number, b: number) => Math.round((a / b) * 1000) / 1000;
  const rows = results.map((r) => ({ ...r, rps_vs_silent: ratio(r.requests_per_second, silent.requests_per_second), cpu_vs_silent: ratio(r.server_cpu_us_per_request, silent.server_cpu_us_per_request) }));
  // Per round too: the three servers of a round ran within seconds of each other.
  const roundRatios = (v: number) => rows[v].rounds_rps.map((rps, i) => Math.round((rps / silent.rounds_rps[i]) * 100));
  const logged = rows[1];
  const met = logged.rps_vs_silent >= 0.9;
  const label: Record<Variant, string> = { silent: 'silent (`logger: false`)', log: 'request log, info, to a file', 'log+metrics': 'request log + metrics' };
  const table = [
    '| `GET /v1/projects/{id}` on | req/s (median) | vs silent | server CPU per request | CPU vs silent | rounds (req/s) | per round vs silent | non-2xx / errors |',
    '|---|---:|---:|---:|---:|---|---|---:|',
    ...rows.map(
      (r, i) =>
        `| ${label[VARIANTS[i]]} | ${r.requests_per_second} | ${Math.round(r.rps_vs_silent * 100)} % | ${r.server_cpu_us_per_request} µs | ${Math.round(r.cpu_vs_silent * 100)} % | ${r.rounds_rps.join(', ')} | ${roundRatios(i).map((p) => `${p} %`).join(', ')} | ${r.non_2xx} / ${r.errors} |`,
    ),
  ].join('\n');
  const clean = rows.every((r) => r.non_2xx === 0 && r.errors === 0 && r.timeouts === 0);
  const verdict = `Target: the read with the request log at info to a file at ≥ 90 % of its silent figure: ${Math.round(logged.rps_vs_silent * 100)} % — ${met ? 'met' : 'missed'}.`;
  process.stdout.write(
    `${JSON.stringify(
      {
        bench: 'api-logs',
        date: new Date().toISOString(),
        node: process.version,
        settings: { rounds: Number(values.rounds), duration_s: Number(values.duration), warmup_s: Number(values.warmup), connections: Number(values.connections), database: values.database },
        target_met: met,
        clean,
        results: rows,
        markdown: `${table}\n\n${verdict}${clean ? '' : '\n\n**Some answers were not 2xx or failed: the figures are not valid.**'}`,
      },
      null,
      2,
    )}\n`,
  );
}

async function main(): Promise<void> {
  if (values.serve) {
    await child(values.serve, values.dir!);
    return;
  }
  if (values.observability) return observability();
  const dir = await mkdtemp(path.join(tmpdir(), 'siteaudit-api-bench-'));
  const measured = new Map<string, Measure[]>();
  try {
    const bare = await startChild('bare', dir);
    try {
      const api = await startChild('api', dir);
      try {
        const auth = { authorization: `Bearer ${api.ready.token}` };
        const base = `http://127.0.0.1:${api.ready.port}`;
        const scenarios: [string, string, Record<string, string>, ChildProcess][] = [
          ['bare', `http://127.0.0.1:${bare.ready.port}/project`, {}, bare.proc],
          ['project', `${base}/v1/projects/${api.ready.project}`, auth, api.proc],
          ['list100', `${base}/v1/projects?limit=100`, auth, api.proc],
        ];
        const warmup = Number(values.warmup);
        if (warmup > 0) for (const [name, url, headers, proc] of scenarios) await measure(name, url, headers, warmup, proc);
        for (let round = 1; round <= Number(values.rounds); round++) {
          for (const [name, url, headers, proc] of scenarios) {
            const m = await measure(name, url, headers, Number(values.duration), proc);
            process.stderr.write(
              `round ${round} ${name}: ${m.requests_per_second} req/s, p50 ${m.latency_p50_ms} ms, p99 ${m.latency_p99_ms} ms, ${m.server_cpu_us_per_request} µs CPU/request\n`,
            );
            measured.set(name, [...(measured.get(name) ?? []), m]);
          }
        }
      } finally {
        await stopChild(api.proc);
      }
    } finally {
      await stopChild(bare.proc);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const results = [...measured.values()].map(combine);

  const bareRps = results[0].requests_per_second;
  const rows = results.map((r) => ({ ...r, ratio_to_bare: Math.round((r.requests_per_second / bareRps) * 1000) / 1000 }));
  const project = rows.find((r) => r.scenario === 'project')!;
  const clean = rows.every((r) => r.non_2xx === 0 && r.errors === 0 && r.timeouts === 0);
  const table = [
    '| Scenario | Path | req/s (median) | p50 (ms) | p99 (ms) | vs bare Express | server CPU per request | rounds (req/s) | non-2xx / errors |',
    '|---|---|---:|---:|---:|---:|---:|---|---:|',
    ...rows.map(
      (r) =>
        `| ${r.scenario} | \`${r.scenario === 'bare' ? 'GET /project (bare Express)' : `GET ${r.path.replace(/[0-9a-f-]{36}/, '{id}')}`}\` | ${r.requests_per_second} | ${r.latency_p50_ms} | ${r.latency_p99_ms} | ${Math.round(r.ratio_to_bare * 100)} % | ${r.server_cpu_us_per_request} µs | ${r.rounds_rps.join(', ')} | ${r.non_2xx} / ${r.errors} |`,
    ),
  ].join('\n');
  const verdict = `Target: the authenticated, rate-limited, ETagged read (\`project\`) at ≥ 50 % of bare Express: ${Math.round(project.ratio_to_bare * 100)} % — ${project.ratio_to_bare >= 0.5 ? 'met' : 'missed'}.`;
  process.stdout.write(
    `${JSON.stringify(
      {
        bench: 'api',
        date: new Date().toISOString(),
        node: process.version,
        machine: { cpus: cpuModel(), memory_gb: Math.round(os.totalmem() / 2 ** 30), platform: `${os.platform()} ${os.release()}` },
        settings: {
          rounds: Number(values.rounds),
          duration_s: Number(values.duration),
          warmup_s: Number(values.warmup),
          connections: Number(values.connections),
          database: values.database,
        },
        target_met: project.ratio_to_bare >= 0.5,
        clean,
        results: rows,
        markdown: `${table}\n\n${verdict}${clean ? '' : '\n\n**Some answers were not 2xx or failed: the figures are not valid.**'}`,
      },
      null,
      2,
    )}\n`,
  );
}

await main();
