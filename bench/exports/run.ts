/**
 * Export rendering benchmark: a synthetic crawl (N pages, ~5 issues per page) rendered to PDF and to
 * XLSX through the directory blob store, each format in its own child process so one format's peak
 * RSS does not hide the other's. Prints one JSON document on stdout.
 *
 *   npx tsx bench/exports/run.ts [--pages 10000] [--issues-per-page 5] [--keep]
 *
 * RSS is sampled every 50 ms (process.memoryUsage().rss); the baseline is taken after the modules are
 * loaded and the source is built, just before rendering starts.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createDirectoryBlobStore } from '../../packages/server/src/modules/exports/blob-store.js';
import { EXPORT_CONTENT_TYPES, type ExportFileFormat, renderExport } from '../../packages/server/src/reports/index.js';
import { syntheticSource } from '../../tests/support/report-fixtures.js';

const MB = 1024 * 1024;
const round = (n: number) => Math.round(n * 10) / 10;

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '10000' },
    'issues-per-page': { type: 'string', default: '5' },
    child: { type: 'string' },
    dir: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});
const pages = Number(values.pages);
const issuesPerPage = Number(values['issues-per-page']);

async function child(format: ExportFileFormat, dir: string): Promise<void> {
  const { source } = syntheticSource({ pages, issuesPerPage, language: 'fr', labels: true });
  const store = createDirectoryBlobStore(dir);
  globalThis.gc?.();
  const baseline = process.memoryUsage();
  let peakRss = baseline.rss;
  let peakHeap = baseline.heapUsed;
  let peakExternal = baseline.external;
  const sample = () => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
    peakExternal = Math.max(peakExternal, m.external);
  };
  const sampler = setInterval(sample, 50);

  const started = performance.now();
  const { size } = await store.put(`bench.${format}`, renderExport(format, source), EXPORT_CONTENT_TYPES[format]);
  const ms = performance.now() - started;
  sample();
  clearInterval(sampler);

  process.stdout.write(
    `${JSON.stringify({
      format,
      ms: Math.round(ms),
      bytes: size,
      file: path.join(dir, `bench.${format}`),
      rss_baseline_mb: round(baseline.rss / MB),
      rss_peak_mb: round(peakRss / MB),
      rss_growth_mb: round((peakRss - baseline.rss) / MB),
      heap_used_peak_mb: round(peakHeap / MB),
      external_peak_mb: round(peakExternal / MB),
    })}\n`,
  );
}

function runChild(format: ExportFileFormat, dir: string): Promise<Record<string, unknown>> {
  const script = fileURLToPath(import.meta.url);
  const args = [...process.execArgv, script, '--child', format, '--dir', dir, '--pages', String(pages), '--issues-per-page', String(issuesPerPage)];
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    proc.on('error', reject);
    proc.on('close', (code) => {
      if (code !== 0) reject(new Error(`${format} run exited with ${code}`));
      else resolve(JSON.parse(out.trim().split('\n').pop()!));
    });
  });
}

async function main(): Promise<void> {
  if (values.child) {
    await child(values.child as ExportFileFormat, values.dir!);
    return;
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'siteaudit-export-bench-'));
  try {
    const results = [];
    for (const format of ['pdf', 'xlsx'] as const) {
      const result = await runChild(format, dir);
      // The files go away with the directory unless --keep.
      if (!values.keep) delete result.file;
      results.push(result);
    }
    process.stdout.write(
      `${JSON.stringify(
        {
          node: process.version,
          pages,
          issues: pages * issuesPerPage,
          sample_interval_ms: 50,
          dir: values.keep ? dir : undefined,
          results,
        },
        null,
        2,
      )}\n`,
    );
  } finally {
    if (!values.keep) await rm(dir, { recursive: true, force: true });
  }
}

await main();
