/**
 * What bench/logs/run.ts and cpu.ts share: the server child (serve.mjs: a team, a token and a
 * project, its figures asked by message) and one import of a gzip log through its API, from the
 * upload until the import reads `completed` or `failed`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createReadStream, statSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface Ready {
  url: string;
  token: string;
  project: string;
}

/**
 * Starts serve.mjs on `database` (`{dir}` in it names `dir`) with `mode` (built, source or the
 * path of a built index.js), under plain Node as in production unless `execArgv` says otherwise.
 */
export function startServer(database: string, dir: string, mode: string, execArgv: string[] = []): Promise<{ proc: ChildProcess; ready: Ready }> {
  const script = path.join(root, 'bench/logs/serve.mjs');
  const env = { ...process.env, NODE_ENV: 'production' };
  const proc = spawn(process.execPath, [...execArgv, script, database.replace('{dir}', dir), dir, mode], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'], env });
  return new Promise((resolve, reject) => {
    createInterface({ input: proc.stdout! }).once('line', (line) => resolve({ proc, ready: JSON.parse(line) as Ready }));
    proc.once('exit', (code) => reject(new Error(`server exited with ${code} before it was ready`)));
    proc.once('error', reject);
  });
}

/** Sends `message` (`start` or `stop`) and, for `stop`, resolves with the figures the server answers. */
export function ask<T>(proc: ChildProcess, message: 'stop'): Promise<T> {
  return new Promise((resolve) => {
    proc.once('message', (figures: T) => resolve(figures));
    proc.send(message);
  });
}

export async function stopServer(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null) return;
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  proc.kill('SIGTERM');
  await exited;
}

export interface ImportRow {
  status: string;
  lines: { read: number; kept: number };
  bot_hits: number;
  error: string | null;
}

/** Uploads `file` (streamed) and polls every `pollMs` until the import ends: its row and timings. */
export async function importFile(ready: Ready, file: string, pollMs: number): Promise<{ row: ImportRow; seconds: number; uploadSeconds: number }> {
  const auth = { authorization: `Bearer ${ready.token}` };
  const started = performance.now();
  const res = await fetch(`${ready.url}/v1/projects/${ready.project}/log-imports`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/gzip', 'content-length': String(statSync(file).size) },
    body: Readable.toWeb(createReadStream(file)) as ReadableStream,
    duplex: 'half',
  } as RequestInit);
  if (res.status !== 202) throw new Error(`upload: ${res.status} ${await res.text()}`);
  const uploaded = performance.now();
  const id = ((await res.json()) as { data: { id: string } }).data.id;
  let row: ImportRow;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    const got = await fetch(`${ready.url}/v1/projects/${ready.project}/log-imports/${id}`, { headers: auth });
    row = ((await got.json()) as { data: ImportRow }).data;
    if (row.status === 'completed' || row.status === 'failed') break;
  }
  return { row, seconds: (performance.now() - started) / 1000, uploadSeconds: (uploaded - started) / 1000 };
}
