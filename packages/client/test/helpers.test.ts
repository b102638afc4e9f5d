import { describe, expect, it } from 'vitest';
import { ConflictError, GoneError, SiteAuditError, createClient } from '../src/index.js';
import { fakeFetch, ids, json, problem } from './fake-fetch.js';

const crawlState = (stage: string, active: boolean, settled: boolean, crawled: number) => ({
  id: ids.crawl,
  status: active ? 'running' : 'completed',
  stage,
  active,
  stage_plan: { current_step: 0, step_count: 5, settled, steps: [] },
  pages: { crawled, discovered: 100, budget: 100 },
});

const exportState = (status: string, error: string | null = null) => ({ id: ids.export, status, error, download_url: null });

const clientWith = (fake: ReturnType<typeof fakeFetch>) => createClient({ baseUrl: 'https://api.test', token: 't', fetch: fake.fetch, retries: 0 });

describe('waitForCrawl', () => {
  it('polls until the crawl is inactive and settled, reporting each state', async () => {
    const fake = fakeFetch(
      json(200, { data: crawlState('fetching', true, false, 10) }),
      json(200, { data: crawlState('analysing', true, false, 100) }),
      // completed but still post-processing: reports are not ready yet
      json(200, { data: crawlState('scoring', false, false, 100) }),
      json(200, { data: crawlState('done', false, true, 100) }),
    );
    const progress: string[] = [];
    const crawl = await clientWith(fake).waitForCrawl(ids.crawl, { intervalMs: 1, onProgress: (c) => progress.push(`${c.stage} ${c.pages.crawled}`) });
    expect(crawl).toMatchObject({ stage: 'done', active: false, stage_plan: { settled: true } });
    expect(progress).toEqual(['fetching 10', 'analysing 100', 'scoring 100', 'done 100']);
    expect(fake.requests.map((r) => `${r.method} ${r.url.pathname}`)).toEqual(Array(4).fill(`GET /v1/crawls/${ids.crawl}`));
  });

  it('stops when its signal aborts, during the wait between polls', async () => {
    const fake = fakeFetch(json(200, { data: crawlState('fetching', true, false, 1) }));
    const controller = new AbortController();
    const waiting = clientWith(fake).waitForCrawl(ids.crawl, {
      intervalMs: 60_000,
      signal: controller.signal,
      onProgress: () => controller.abort(),
    });
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    expect(fake.requests).toHaveLength(1);
  });

  it('does not start when the signal has already aborted', async () => {
    const fake = fakeFetch(json(200, { data: crawlState('done', false, true, 1) }));
    await expect(clientWith(fake).waitForCrawl(ids.crawl, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
    expect(fake.requests).toHaveLength(0);
  });

  it('passes API errors through', async () => {
    const fake = fakeFetch(problem(404, 'not_found'));
    await expect(clientWith(fake).waitForCrawl(ids.crawl)).rejects.toMatchObject({ status: 404 });
  });
});

describe('waitForExport', () => {
  it('polls until the export is ready', async () => {
    const fake = fakeFetch(json(200, { data: exportState('queued') }), json(200, { data: exportState('generating') }), json(200, { data: exportState('ready') }));
    const seen: string[] = [];
    const ready = await clientWith(fake).waitForExport(ids.export, { intervalMs: 1, onProgress: (e) => seen.push(e.status) });
    expect(ready.status).toBe('ready');
    expect(seen).toEqual(['queued', 'generating', 'ready']);
    expect(fake.requests[0]!.url.pathname).toBe(`/v1/exports/${ids.export}`);
  });

  it('rejects when the export failed or expired', async () => {
    const failed = await clientWith(fakeFetch(json(200, { data: exportState('failed', 'renderer crashed') })))
      .waitForExport(ids.export)
      .catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(SiteAuditError);
    expect(failed).toMatchObject({ code: 'export.failed', detail: 'renderer crashed' });
    const expired = await clientWith(fakeFetch(json(200, { data: exportState('expired') })))
      .waitForExport(ids.export)
      .catch((e: unknown) => e);
    expect(expired).toBeInstanceOf(GoneError);
    expect(expired).toMatchObject({ code: 'export.expired' });
  });
});

describe('exports.download', () => {
  it('returns the file with its name, type, size and body', async () => {
    const bytes = new TextEncoder().encode('%PDF-1.7 fake');
    const fake = fakeFetch(
      new Response(bytes, {
        status: 200,
        headers: {
          'content-type': 'application/pdf',
          'content-length': String(bytes.length),
          'content-disposition': `attachment; filename="rapport.pdf"; filename*=UTF-8''rapport%20d%C3%A9taill%C3%A9.pdf`,
        },
      }),
    );
    const file = await clientWith(fake).exports.download({ export: ids.export });
    expect(file).toMatchObject({ filename: 'rapport détaillé.pdf', contentType: 'application/pdf', size: bytes.length });
    expect(file.body).toBeInstanceOf(ReadableStream);
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(bytes);
    expect(file.response.status).toBe(200);
    expect(fake.requests[0]!.url.pathname).toBe(`/v1/exports/${ids.export}/download`);
  });

  it('reads a plain quoted filename, or none', async () => {
    const named = fakeFetch(new Response('x', { headers: { 'content-disposition': 'attachment; filename="crawl \\"A\\".xlsx"' } }));
    expect((await clientWith(named).exports.download({ export: ids.export })).filename).toBe('crawl "A".xlsx');
    const bare = fakeFetch(new Response('x', { headers: { 'content-disposition': 'attachment; filename=report.pdf' } }));
    expect((await clientWith(bare).exports.download({ export: ids.export })).filename).toBe('report.pdf');
    const none = fakeFetch(new Response('x'));
    const file = await clientWith(none).exports.download({ export: ids.export });
    expect(file.filename).toBeNull();
    await expect(file.text()).resolves.toBe('x');
  });

  it('throws ConflictError while the export is generating and GoneError once removed', async () => {
    await expect(clientWith(fakeFetch(problem(409, 'export.not_ready'))).exports.download({ export: ids.export })).rejects.toBeInstanceOf(ConflictError);
    await expect(clientWith(fakeFetch(problem(410, 'export.expired'))).exports.download({ export: ids.export })).rejects.toBeInstanceOf(GoneError);
  });
});
