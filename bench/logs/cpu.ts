/**
 * CPU time of one log import, two builds of the server compared (issue #35): on a shared machine
 * wall-clock figures say more about the load than about the code, CPU time much less so. Each
 * round imports the same file through the API of each build in turn (alternating which goes
 * first), on a fresh SQLite file and, with `--postgres`, a fresh PostgreSQL database; the server
 * process's user + system CPU from the upload to `completed` (bench/logs/serve.mjs, every thread)
 * and the rows the import left are printed as JSON lines on stderr and a summary on stdout.
 *
 *   npx tsx bench/logs/cpu.ts --file access.log.gz --build before=packages/server/dist-base/index.js \
 *     --build after=packages/server/dist/index.js [--rounds 3] [--postgres postgres://…/postgres]
 *
 * `--postgres` names a server's maintenance database: each run creates and drops its own.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import knexFactory from 'knex';
import { ask, importFile, startServer, stopServer } from './import-server.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { values } = parseArgs({
  options: {
    file: { type: 'string' },
    build: { type: 'string', multiple: true },
    rounds: { type: 'string', default: '3' },
    postgres: { type: 'string' },
    sqlite: { type: 'boolean', default: true },
    'no-sqlite': { type: 'boolean', default: false },
  },
});

interface Figures {
  cpu_ms: number;
  threads_cpu_ms?: Record<string, number>;
  rss_hwm_mb: number | null;
}

async function importOnce(entry: string, database: string, file: string): Promise<{ cpu_ms: number; threads_cpu_ms?: Record<string, number>; rss_mb: number | null; lines: number; seconds: number }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'siteaudit-bench-cpu-'));
  // BENCH_CPU_PROF=dir: a V8 CPU profile of each server (every thread) written there.
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const { proc, ready } = await startServer(database, dir, path.resolve(root, entry), profile);
  try {
    proc.send('start');
    const { row, seconds } = await importFile(ready, file, 200);
    const used = await ask<Figures>(proc, 'stop');
    if (row.status !== 'completed') throw new Error(`import ${row.status}: ${row.error}`);
    return { cpu_ms: used.cpu_ms, threads_cpu_ms: used.threads_cpu_ms, rss_mb: used.rss_hwm_mb, lines: row.lines.read, seconds: Math.round(seconds * 10) / 10 };
  } finally {
    await stopServer(proc);
    await rm(dir, { recursive: true, force: true });
  }
}

async function main() {
  const file = values.file!;
  const builds = (values.build ?? []).map((b) => {
    const at = b.indexOf('=');
    return { name: b.slice(0, at), entry: b.slice(at + 1) };
  });
  const rounds = Number(values.rounds);
  const databases: { label: string; make: (n: number) => Promise<{ url: string; drop: () => Promise<void> }> }[] = [];
  if (!values['no-sqlite']) databases.push({ label: 'sqlite', make: async () => ({ url: '{dir}/bench.sqlite', drop: async () => {} }) });
  if (values.postgres) {
    const admin = knexFactory({ client: 'pg', connection: values.postgres, pool: { min: 0, max: 1 } });
    process.on('exit', () => void admin.destroy());
    databases.push({
      label: 'postgres',
      make: async (n) => {
        const name = `bench_cpu_${process.pid}_${n}`;
        await admin.raw(`drop database if exists ${name}`);
        await admin.raw(`create database ${name}`);
        const url = new URL(values.postgres!);
        url.pathname = `/${name}`;
        return { url: url.href, drop: () => admin.raw(`drop database if exists ${name}`).then(() => undefined) };
      },
    });
  }
  const results: Record<string, Record<string, number[]>> = {};
  let n = 0;
  for (let round = 0; round < rounds; round++) {
    for (const db of databases) {
      const order = round % 2 === 0 ? builds : [...builds].reverse();
      for (const build of order) {
        const { url, drop } = await db.make(n++);
        try {
          const run = await importOnce(build.entry, url, file);
          process.stderr.write(`${JSON.stringify({ round, database: db.label, build: build.name, ...run, load: os.loadavg().map((l) => Math.round(l * 100) / 100) })}\n`);
          ((results[db.label] ??= {})[build.name] ??= []).push(run.cpu_ms);
        } finally {
          await drop();
        }
      }
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  process.stdout.write(`${JSON.stringify({ results, medians: Object.fromEntries(Object.entries(results).map(([db, r]) => [db, Object.fromEntries(Object.entries(r).map(([b, xs]) => [b, median(xs)]))])) }, null, 2)}\n`);
  process.exit(0);
}

await main();
