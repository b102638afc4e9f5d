/**
 * Log import benchmark (issue #29): a generated Combined log of 5,000,000 lines (gzip, four weeks,
 * humans and bots: bench/logs/generate.ts) imported through the API of a real server, side by
 * side with GoAccess parsing the same file in the same run. Prints one JSON document on stdout
 * (its `markdown` goes into docs/benchmarks.md).
 *
 *   npm run build && npx tsx bench/logs/run.ts [--lines 5000000] [--postgres postgres://…/db] [--server built|source] [--skip-goaccess]
 *
 * - Import: upload (POST /log-imports, the file streamed) until the import reads `completed`,
 *   wall clock; the server runs in a child process (serve.mjs) so its peak RSS (the kernel's VmHWM, every
 *   thread included) and its API thread's event-loop delay (monitorEventLoopDelay, 10 ms
 *   resolution, as bench/crawl) are its own. SQLite always; PostgreSQL when --postgres (or
 *   BENCH_LOGS_DATABASE_URL) names an empty database.
 * - Reverse DNS is replaced by a stand-in that finds no name at once (the fake Googlebots would
 *   otherwise wait on the network); everything else is the product's path.
 * - GoAccess: `zcat file | goaccess - --log-format=COMBINED -o report.json` (Debian's build reads
 *   no gzip itself), wall clock of the pipeline, CPU of both processes.
 * - The generated file is kept in the system's temporary directory between runs.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generateLog } from './generate.js';
import { ask, importFile, startServer, stopServer } from './import-server.js';

const MB = 1024 * 1024;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const RSS_TARGET_MB = 300;
const STALL_TARGET_MS = 100;

const { values } = parseArgs({
  options: {
    lines: { type: 'string', default: '5000000' },
    postgres: { type: 'string', default: process.env.BENCH_LOGS_DATABASE_URL },
    'skip-goaccess': { type: 'boolean', default: false },
    /** `built` (default): the server as it ships, packages/server/dist (run `npm run build` first); `source`: through tsx. */
    server: { type: 'string', default: 'built' },
  },
});

interface ServerFigures {
  rss_baseline_mb: number;
  stall_max_ms: number;
  stall_p99_ms: number;
  stall_mean_ms: number;
  rss_peak_mb: number;
  rss_hwm_mb: number | null;
  cpu_ms: number;
  /** The ten longest pauses of the API thread (over 50 ms), in ms since the measure started. */
  longest_stalls: { at_ms: number; late_ms: number }[];
}

interface ImportRun {
  database: string;
  lines_read: number;
  lines_kept: number;
  bot_hits: number;
  seconds: number;
  lines_per_s: number;
  upload_seconds: number;
  server: ServerFigures;
  /** The same measures over 5 s of the idle server just before. */
  idle: ServerFigures;
  /** Reads after the import: the first page of each list, the insights. */
  reads_ms: Record<string, number>;
}

async function importThrough(label: string, database: string, file: string, dir: string): Promise<ImportRun> {
  // The built server runs under plain Node, as in production (tsx's loader alone adds tens of MB).
  const { proc, ready } = await startServer(database, dir, values.server!, values.server === 'source' ? process.execArgv : []);
  try {
    const auth = { authorization: `Bearer ${ready.token}` };
    // A control: the same measure on the idle server, so what the machine's load alone does to
    // the event loop is told apart from what the import does.
    proc.send('start');
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const idle = await ask<ServerFigures>(proc, 'stop');
    proc.send('start');
    const { row, seconds, uploadSeconds } = await importFile(ready, file, 100);
    const server = await ask<ServerFigures>(proc, 'stop');
    if (row.status !== 'completed') throw new Error(`import ${row.status}: ${row.error}`);
    const reads_ms: Record<string, number> = {};
    for (const read of ['logs/insights', 'logs/urls?limit=100', 'logs/days?limit=100', 'logs/findings?kind=not_in_crawl&limit=100']) {
      const t = performance.now();
      const answer = await fetch(`${ready.url}/v1/projects/${ready.project}/${read}`, { headers: auth });
      if (answer.status !== 200) throw new Error(`${read}: ${answer.status} ${await answer.text()}`);
      await answer.arrayBuffer();
      reads_ms[read.split('?')[0]] = Math.round(performance.now() - t);
    }
    process.stderr.write(`(${label}) ${row.lines.read} lines in ${seconds.toFixed(1)} s: ${Math.round(row.lines.read / seconds)} lines/s, RSS peak ${server.rss_hwm_mb ?? server.rss_peak_mb} MB, stall max ${server.stall_max_ms} ms\n`);
    return {
      database: label,
      lines_read: row.lines.read,
      lines_kept: row.lines.kept,
      bot_hits: row.bot_hits,
      seconds: round(seconds, 2),
      lines_per_s: Math.round(row.lines.read / seconds),
      upload_seconds: round(uploadSeconds, 2),
      server,
      idle,
      reads_ms,
    };
  } finally {
    await stopServer(proc);
  }
}

interface GoAccessRun {
  version: string;
  lines: number;
  seconds: number;
  lines_per_s: number;
  cpu_ms: number;
}

function goaccess(file: string, dir: string, lines: number): GoAccessRun {
  const out = path.join(dir, 'goaccess.json');
  const command = `zcat '${file}' | goaccess - --log-format=COMBINED --no-global-config --no-progress --no-parsing-spinner -o '${out}'`;
  const started = performance.now();
  // bash's `time` gives the pipeline's CPU (both processes); the wall clock is ours.
  const run = spawnSync('bash', ['-c', `TIMEFORMAT='%U %S'; time (${command})`], { encoding: 'utf8', maxBuffer: 16 * MB });
  const seconds = (performance.now() - started) / 1000;
  if (run.status !== 0) throw new Error(`goaccess failed: ${run.stderr}`);
  const [user, system] = run.stderr.trim().split('\n').pop()!.split(' ').map(Number);
  const report = JSON.parse(readFileSync(out, 'utf8')) as { general?: { total_requests?: number; valid_requests?: number } };
  const parsed = report.general?.total_requests ?? lines;
  const version = spawnSync('goaccess', ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0].trim();
  process.stderr.write(`(goaccess) ${parsed} lines in ${seconds.toFixed(1)} s: ${Math.round(parsed / seconds)} lines/s\n`);
  return { version, lines: parsed, seconds: round(seconds, 2), lines_per_s: Math.round(parsed / seconds), cpu_ms: Math.round((user + system) * 1000) };
}

const verdict = (ok: boolean) => (ok ? 'met' : '**not met**');

function markdown(result: { lines: number; file_mb: number; uncompressed_mb: number; goaccess: GoAccessRun | null; imports: ImportRun[]; load_before: number[]; load_after: number[]; cpus: number; server: string | undefined }): string {
  const ga = result.goaccess;
  const rows = result.imports.map((run) => {
    const peak = run.server.rss_hwm_mb ?? run.server.rss_peak_mb;
    const ratio = ga ? round(run.lines_per_s / ga.lines_per_s, 2) : null;
    return `| import through the API, ${run.database} | ${run.lines_read.toLocaleString('en')} | ${run.seconds} | **${run.lines_per_s.toLocaleString('en')}** | ${ratio ?? '–'} | ${peak} | ${run.server.stall_max_ms} / ${run.server.stall_p99_ms} | ${run.server.cpu_ms.toLocaleString('en')} |`;
  });
  const targets = result.imports.map((run) => {
    const peak = run.server.rss_hwm_mb ?? run.server.rss_peak_mb;
    const half = ga ? run.lines_per_s >= ga.lines_per_s / 2 : null;
    return `- ${run.database}: half GoAccess's lines/s ${half === null ? 'not measured' : verdict(half)}; peak RSS under ${RSS_TARGET_MB} MB ${verdict(peak < RSS_TARGET_MB)} (${peak} MB); API thread never stalled over ${STALL_TARGET_MS} ms ${verdict(run.server.stall_max_ms <= STALL_TARGET_MS)} (${run.server.stall_max_ms} ms; the idle server over 5 s just before: max ${run.idle.stall_max_ms} / p99 ${run.idle.stall_p99_ms} ms). Reads after it: ${Object.entries(run.reads_ms).map(([read, ms]) => `${read} ${ms} ms`).join(', ')}.`;
  });
  return [
    `Generated file: ${result.lines.toLocaleString('en')} lines, ${result.file_mb} MB gzip (${result.uncompressed_mb} MB plain). ${result.cpus} cores; server ${result.server === 'source' ? 'from the sources (tsx)' : 'as built (packages/server/dist)'}, one parse thread per import. Load average before ${result.load_before.join(' ')}, after ${result.load_after.join(' ')}.`,
    '',
    '| Run | Lines | Seconds | Lines/s | × GoAccess | Peak RSS MB | API stall max / p99 ms | CPU ms |',
    '|---|---|---|---|---|---|---|---|',
    ...(ga ? [`| GoAccess (${ga.version}, zcat piped) | ${ga.lines.toLocaleString('en')} | ${ga.seconds} | **${ga.lines_per_s.toLocaleString('en')}** | 1 | – | – | ${ga.cpu_ms.toLocaleString('en')} |`] : []),
    ...rows,
    '',
    'Targets (issue #29):',
    ...targets,
  ].join('\n');
}

async function main(): Promise<void> {
  const lines = Number(values.lines);
  if (values.server !== 'source' && !existsSync(path.join(root, 'packages/server/dist/index.js'))) throw new Error('No packages/server/dist: run `npm run build` first, or pass --server source');
  const cache = path.join(os.tmpdir(), 'siteaudit-bench-logs');
  await mkdir(cache, { recursive: true });
  const file = path.join(cache, `access-${lines}-v1.log.gz`);
  let uncompressed: number;
  const sizeFile = `${file}.size`;
  if (existsSync(file) && existsSync(sizeFile)) uncompressed = Number(readFileSync(sizeFile, 'utf8'));
  else {
    process.stderr.write(`generating ${lines} lines into ${file}…\n`);
    uncompressed = (await generateLog({ lines, file })).bytes_uncompressed;
    await import('node:fs/promises').then((fs) => fs.writeFile(sizeFile, String(uncompressed)));
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'siteaudit-bench-logs-run-'));
  try {
    const load_before = os.loadavg().map((n) => round(n, 2));
    const goaccessRun = values['skip-goaccess'] ? null : goaccess(file, dir, lines);
    const imports: ImportRun[] = [];
    imports.push(await importThrough('SQLite', `sqlite:${path.join(dir, 'bench.db')}`, file, dir));
    if (values.postgres) imports.push(await importThrough('PostgreSQL', values.postgres, file, dir));
    const load_after = os.loadavg().map((n) => round(n, 2));
    const result = {
      date: new Date().toISOString(),
      node: process.version,
      lines,
      file_mb: round(statSync(file).size / MB),
      uncompressed_mb: round(uncompressed / MB),
      cpus: os.availableParallelism(),
      server: values.server,
      load_before,
      load_after,
      goaccess: goaccessRun,
      imports,
    };
    const targets = Object.fromEntries(
      imports.flatMap((run) => [
        [`half_goaccess (${run.database})`, goaccessRun ? run.lines_per_s >= goaccessRun.lines_per_s / 2 : null],
        [`rss_under_300_mb (${run.database})`, (run.server.rss_hwm_mb ?? run.server.rss_peak_mb) < RSS_TARGET_MB],
        [`stall_under_100_ms (${run.database})`, run.server.stall_max_ms <= STALL_TARGET_MS],
      ]),
    );
    process.stdout.write(`${JSON.stringify({ ...result, targets, markdown: markdown(result) }, null, 2)}\n`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
