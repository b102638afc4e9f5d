/**
 * `npm run bench`: runs every benchmark that exists as bench/<name>/run.ts, one after the other,
 * each in its own process (with this process's tsx loader), and puts each result in
 * docs/benchmarks.md.
 *
 *   npm run bench                 every bench/<name>/run.ts, in name order
 *   npm run bench -- api crawl    only those
 *
 * Each benchmark prints one JSON document on stdout (progress goes to stderr). Its `markdown`
 * field, or else the JSON itself, goes between the markers `<!-- bench/<name>:result -->` and
 * `<!-- /bench/<name>:result -->`, in place, so the notes written around them are kept (a new
 * `## bench/<name>` section at the end when the markers are missing). A benchmark without
 * `markdown` that writes its own section of docs/benchmarks.md while it runs (bench/crawl does)
 * is left to it. A benchmark that fails leaves its previous result untouched, and
 * the run exits non-zero once every benchmark has had its turn.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const benchDir = path.join(root, 'bench');
const docsFile = path.join(root, 'docs/benchmarks.md');

function discover(only: string[]): string[] {
  const names = readdirSync(benchDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(benchDir, entry.name, 'run.ts')))
    .map((entry) => entry.name)
    .sort();
  const unknown = only.filter((name) => !names.includes(name));
  if (unknown.length) throw new Error(`No bench/<name>/run.ts for: ${unknown.join(', ')} (found: ${names.join(', ')})`);
  return only.length ? names.filter((name) => only.includes(name)) : names;
}

function runBench(name: string): Promise<string> {
  const script = path.join(benchDir, name, 'run.ts');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, script], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => (code === 0 ? resolve(out) : reject(new Error(`bench/${name} exited with ${signal ?? code}`))));
  });
}

/** The JSON document a benchmark printed: the whole output, else its last JSON line. */
function parseOutput(out: string): Record<string, unknown> {
  const text = out.trim();
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    for (const line of text.split('\n').reverse()) {
      try {
        const value = JSON.parse(line) as unknown;
        if (value && typeof value === 'object') return value as Record<string, unknown>;
      } catch {
        // not this line
      }
    }
    const start = text.indexOf('\n{');
    if (start !== -1) return JSON.parse(text.slice(start + 1)) as Record<string, unknown>;
    throw new Error('no JSON document on stdout');
  }
}

async function readDocs(): Promise<string> {
  return existsSync(docsFile) ? readFile(docsFile, 'utf8') : '# Benchmarks\n';
}

function machine(): string {
  const cpus = os.cpus();
  return `${cpus.length} × ${cpus[0]?.model?.trim() ?? 'CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GB, ${os.platform()} ${os.release()}, Node ${process.version}`;
}

function section(result: Record<string, unknown>): string {
  const date = typeof result.date === 'string' ? result.date : new Date().toISOString();
  const body =
    typeof result.markdown === 'string'
      ? result.markdown
      : `\`\`\`json\n${JSON.stringify(result, null, 2)}\n\`\`\``;
  return `Last run: ${date.slice(0, 16).replace('T', ' ')} UTC, ${machine()}.\n\n${body}`;
}

async function writeSection(name: string, markdown: string): Promise<void> {
  const start = `<!-- bench/${name}:result -->`;
  const end = `<!-- /bench/${name}:result -->`;
  const block = `${start}\n${markdown.trim()}\n${end}`;
  let doc = await readDocs();
  const at = doc.indexOf(start);
  const stop = at === -1 ? -1 : doc.indexOf(end, at);
  if (at !== -1 && stop !== -1) doc = doc.slice(0, at) + block + doc.slice(stop + end.length);
  else doc = `${doc.trimEnd()}\n\n## bench/${name}\n\n${block}\n`;
  await writeFile(docsFile, doc.endsWith('\n') ? doc : `${doc}\n`);
}

async function main(): Promise<void> {
  const names = discover(process.argv.slice(2));
  const failed: string[] = [];
  for (const name of names) {
    process.stderr.write(`\n== bench/${name}\n`);
    try {
      const before = await readDocs();
      const result = parseOutput(await runBench(name));
      const after = await readDocs();
      // A result without `markdown` whose run put its own markers in the file wrote its section.
      const ownSection = typeof result.markdown !== 'string' && after !== before && after.includes(`<!-- bench/${name}:`);
      if (ownSection) {
        process.stderr.write(`bench/${name} wrote its own section of docs/benchmarks.md\n`);
      } else {
        await writeSection(name, section(result));
        process.stderr.write(`bench/${name}: result written to docs/benchmarks.md\n`);
      }
    } catch (error) {
      failed.push(name);
      process.stderr.write(`bench/${name} failed: ${error instanceof Error ? error.message : String(error)}\n`);
    }
  }
  if (failed.length) {
    process.stderr.write(`\nFailed: ${failed.join(', ')}\n`);
    process.exitCode = 1;
  }
}

await main();
