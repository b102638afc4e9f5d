/**
 * Page-analysis threads (crawl-threads/analysis-ports.ts, analysis-thread.ts): a page analysed
 * there is analysed exactly as in the crawl thread; the crawl thread hands pages over until the
 * analysis thread has two waiting, then analyses them itself; a thread that ends fails only the
 * pages it held.
 */
import { MessageChannel, type Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { analyseHtml, type AnalysisRequest } from '../../src/crawler/page/page-analysis.js';
import { AnalysisPorts } from '../../src/crawl-threads/analysis-ports.js';
import { spawnCrawlerThread } from '../../src/crawl-threads/pool.js';
import { prose } from './fixture-site.js';

const html = (n: number) => `<!doctype html><html lang="fr"><head><title>Page ${n} – Boutique</title><meta name="description" content="Une page, numéro ${n}.">
<link rel="canonical" href="/p/${n}"></head><body><nav><a href="/">Accueil</a></nav><main><h1>Produit ${n}</h1><h3>Saut</h3><p>${prose(`p${n}`)}</p>
<img src="/img/${n}.jpg"><a href="/p/${n + 1}">suivant</a><a href="https://ailleurs.example/x" rel="nofollow">ailleurs</a></main></body></html>`;

function request(n: number): AnalysisRequest {
  return {
    url: `https://shop.example/p/${n}`,
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    ttfbMs: 12,
    depth: 2,
    discoveredVia: 'link',
    contentType: 'text/html; charset=utf-8',
    body: new Uint8Array(Buffer.from(html(n))),
    sizeBytes: Buffer.byteLength(html(n)),
    truncated: false,
    sites: ['shop.example'],
    robotsToken: 'siteauditbot',
  };
}

let worker: Worker | undefined;
afterEach(async () => {
  await worker?.terminate();
  worker = undefined;
});

function connected(): AnalysisPorts {
  worker = spawnCrawlerThread('analysis-thread', 'test-analysis');
  const { port1, port2 } = new MessageChannel();
  worker.postMessage({ type: 'port', port: port2 }, [port2]);
  const ports = new AnalysisPorts();
  ports.add(port1);
  return ports;
}

describe('page-analysis threads', () => {
  it('analyse a page exactly as the crawl thread does, and take its body without a copy', { timeout: 60_000 }, async () => {
    const ports = connected();
    const sent = request(7);
    const there = await ports.analyse(sent);
    // Moved, not copied: the crawl thread's buffer is empty once handed over.
    expect(sent.body.byteLength).toBe(0);
    const here = analyseHtml(request(7));
    expect(there).toEqual(here);
    expect(there.summary.internalLinks.map((l) => l.url)).toEqual(['https://shop.example/', 'https://shop.example/p/8']);
    expect(there.findings.map((f) => f.name)).toContain('heading_skip');
  });

  it('get pages until two wait there, then the crawl thread analyses the next ones itself', { timeout: 60_000 }, async () => {
    const ports = connected();
    const sent = [1, 2, 3, 4].map(request);
    const results = await Promise.all(sent.map((r) => ports.analyse(r)));
    expect(sent.map((r) => r.body.byteLength === 0)).toEqual([true, true, false, false]);
    expect(results.map((r) => r.summary.title)).toEqual(['Page 1 – Boutique', 'Page 2 – Boutique', 'Page 3 – Boutique', 'Page 4 – Boutique']);
  });

  it('fail only the pages a thread held when it ends; later pages are analysed here', { timeout: 60_000 }, async () => {
    const ports = connected();
    const held = ports.analyse(request(1)).catch((e: unknown) => e);
    await worker!.terminate();
    worker = undefined;
    expect(await held).toBeInstanceOf(Error);
    const later = request(2);
    expect((await ports.analyse(later)).summary.title).toBe('Page 2 – Boutique');
    expect(later.body.byteLength).toBeGreaterThan(0);
  });
});
