/**
 * The parse session (parse-session.ts) spills the aggregate to the store in parts as it reads:
 * the rows it hands out, added up as the store adds them, are what parsing the whole file at once
 * gives, in a thread or not, with reverse-DNS answers arriving while the parse goes on.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { statusRecord } from '@siteaudit/schema/rules';
import { parseLogFile } from '../../src/modules/logs/parse-file.js';
import { startParse } from '../../src/modules/logs/parse-runner.js';
import type { LogSummary, RowBatch } from '../../src/modules/logs/store.js';
import { accessLine, USER_AGENTS } from '../../../../tests/support/access-log.js';

const { googlebot, bingbot, gptbot, browser } = USER_AGENTS;
const dir = mkdtempSync(join(tmpdir(), 'logs-session-'));

/** 3,000 lines over two weeks: humans, bots inside the ranges, AI agents, and Google and Bing claims from 40 addresses outside them. */
function logFile(): string {
  const lines: string[] = [];
  for (let i = 0; i < 3000; i++) {
    const day = 1 + (i % 14);
    const path = `/p/${(i * 7) % 150}${i % 5 === 0 ? '?page=2' : ''}`;
    const status = [200, 200, 200, 301, 404, 503][i % 6];
    if (i % 4 === 0) lines.push(accessLine('192.0.2.1', day, path, status, browser));
    else if (i % 4 === 1) lines.push(accessLine('66.249.66.1', day, path, status, googlebot));
    else if (i % 4 === 2) lines.push(accessLine(`203.0.113.${(i >> 2) % 40}`, day, path, status, i % 8 === 2 ? googlebot : bingbot));
    else lines.push(accessLine('20.171.207.1', day, path, status, gptbot));
  }
  const file = join(dir, 'access.log.gz');
  writeFileSync(file, gzipSync(lines.join('\n')));
  return file;
}

/** Addresses ending in 3 or 4 pass reverse DNS; answers come a few turns later, out of order. */
const passes = (ip: string) => ip.endsWith('3') || ip.endsWith('4');
const asked: string[] = [];
const lookup = async (ip: string) => {
  asked.push(ip);
  for (let turns = Number(ip.split('.').pop()) % 5; turns > 0; turns--) await new Promise((resolve) => setImmediate(resolve));
  return passes(ip);
};

/** Rows as the store keeps them: URL statistics added up by key (log_url_stats's upsert), day rows as written. */
function store(batches: RowBatch[]) {
  const urls = new Map<string, { hits: number; last: string; statuses: Record<string, number>; bytes: number }>();
  const days = new Map<string, number>();
  for (const batch of batches) {
    const width = batch.values.length / batch.rows;
    for (let r = 0; r < batch.rows; r++) {
      const v = batch.values.slice(r * width, (r + 1) * width);
      if (batch.table === 'log_day_stats') {
        const key = v.slice(2, 6).join('\t');
        expect(days.has(key)).toBe(false);
        days.set(key, Number(v[6]));
        continue;
      }
      const [, , path, family, verification, hits, last, codes, bytes] = v as [string, string, string, string, string, number, string, string, number];
      const key = `${family}\t${verification}\t${path}`;
      const prior = urls.get(key) ?? { hits: 0, last: '', statuses: {}, bytes: 0 };
      prior.hits += hits;
      prior.bytes += bytes;
      if (last > prior.last) prior.last = last;
      for (const [code, n] of Object.entries(JSON.parse(codes) as Record<string, number>)) prior.statuses[code] = (prior.statuses[code] ?? 0) + n;
      urls.set(key, prior);
    }
  }
  return { urls: Object.fromEntries(urls), days: Object.fromEntries(days) };
}

/** The whole file in one aggregate, settled at the end: what the import gave before it spilled. */
async function wholeFile(file: string) {
  const aggregator = await parseLogFile(file);
  aggregator.settle(new Set(aggregator.claims(Infinity).map(([ip]) => ip).filter(passes)));
  const urls = Object.fromEntries([...aggregator.aggregate.urls].map(([key, v]) => [key, { hits: v.hits, last: new Date(v.last).toISOString(), statuses: statusRecord(v.statuses), bytes: v.bytes }]));
  return { urls, days: Object.fromEntries(aggregator.aggregate.days), linesRead: aggregator.aggregate.linesRead, botHits: aggregator.aggregate.botHits };
}

describe('parse session', () => {
  const file = logFile();

  for (const thread of [false, true]) {
    it(`spills every few statistics${thread ? ' (in a parse thread)' : ''}, and the parts added up are the whole file's aggregate`, async () => {
      asked.length = 0;
      const run = startParse({ file, importId: 'i', projectId: 'p', spillAt: 25 }, thread, lookup);
      const batches: RowBatch[] = [];
      let summary: LogSummary;
      try {
        for (;;) {
          const step = await run.next();
          if ('done' in step) {
            summary = step.done;
            break;
          }
          batches.push(step.batch);
        }
      } finally {
        await run.close();
      }
      const expected = await wholeFile(file);
      expect(summary).toMatchObject({ linesRead: 3000, kept: 3000, botHits: expected.botHits });
      // Far more statements than one part of the 600-odd statistics needs: it was stored in parts.
      const urlBatches = batches.filter((b) => b.table === 'log_url_stats');
      expect(urlBatches.length).toBeGreaterThan(20);
      // A part is about `spillAt` statistics (answers arriving meanwhile can add as many again).
      expect(Math.max(...urlBatches.map((b) => b.rows))).toBeLessThan(50);
      // Each address outside the ranges asked about once.
      expect([...asked].sort()).toEqual([...new Set(asked)].sort());
      expect(asked).toHaveLength(40);
      expect(store(batches)).toEqual({ urls: expected.urls, days: expected.days });
      expect(Object.keys(expected.urls).some((k) => k.startsWith('googlebot\tverified\t'))).toBe(true);
      // Failed claims are counted per day only: no URL statistic names one of their paths.
      expect(Object.keys(expected.urls).some((k) => k.includes('\tunverified\t'))).toBe(false);
      expect(Object.keys(expected.days).some((k) => k.includes('\tgooglebot\tunverified\t'))).toBe(true);
    });
  }

  it('fails with the file when it cannot be read (corrupt gzip data; a cut one is read as far as it goes), in a thread', async () => {
    const broken = join(dir, 'broken.log.gz');
    const whole = gzipSync(Array.from({ length: 2000 }, (_, i) => accessLine('192.0.2.1', 1, `/p/${i * 7919}`, 200, browser)).join('\n'));
    // Bytes overwritten in the middle: the deflate data or its checksum no longer holds.
    whole.fill(0xa5, whole.length >> 1, (whole.length >> 1) + 64);
    writeFileSync(broken, whole);
    const run = startParse({ file: broken, importId: 'i', projectId: 'p' }, true, lookup);
    try {
      await expect(run.next()).rejects.toThrow();
    } finally {
      await run.close();
    }
  });
});

describe('a gzip file cut short, read by a slow reader', () => {
  it('keeps every line zcat recovers, even when the parse pauses (nothing buffered is dropped at the cut)', async () => {
    const { constants, gunzipSync } = await import('node:zlib');
    const lines: string[] = [];
    for (let i = 0; i < 30_000; i++) lines.push(accessLine('192.0.2.1', 1 + (i % 28), `/p/${i}-${(i * 2654435761) % 1e9}`, 200, browser));
    const full = gzipSync(lines.join('\n'));
    const cut = full.subarray(0, Math.floor(full.length * 0.6));
    const file = join(dir, 'cut.log.gz');
    writeFileSync(file, cut);
    const recovered = gunzipSync(cut, { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8').split('\n');
    const partial = recovered.pop()!;
    let n = 0;
    // Pauses often and long enough for gunzip to run ahead: what it has inflated when the cut is met must still be read.
    const pause = { due: () => ++n % 500 === 0, run: () => new Promise<void>((resolve) => setTimeout(resolve, 2)) };
    const { aggregate } = await parseLogFile(file, undefined, pause);
    expect(aggregate.kept).toBe(recovered.length);
    expect(aggregate.linesRead).toBe(recovered.length + (partial ? 1 : 0));
    expect(aggregate.truncation).toEqual({ inflated_bytes: Buffer.byteLength(recovered.join('\n')) + 1 + Buffer.byteLength(partial), partial_line: partial.length > 0 });
  });
});
