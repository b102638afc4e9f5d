/** The abort convention (src/abort.ts): whatever stopped the work, the error thrown answers isAbortError. */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { FetchError, HttpClient } from '../src/crawler/fetch/http-client.js';
import { closedPort } from '../../../tests/support/receiver.js';
import { abortError, isAbortError, throwIfAborted } from '../src/abort.js';

describe('isAbortError', () => {
  it('recognises what AbortSignal and fetch throw, and nothing else', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(isAbortError(controller.signal.reason)).toBe(true);
    const fetched = await fetch('http://127.0.0.1:9/', { signal: controller.signal }).catch((e: unknown) => e);
    expect(isAbortError(fetched)).toBe(true);
    for (const other of [new Error('boom'), AbortSignal.timeout(0).reason, null, 'AbortError', { message: 'x' }]) expect(isAbortError(other)).toBe(false);
  });

  it('throws an AbortError carrying a reason of another kind as its cause', () => {
    const controller = new AbortController();
    const lost = new Error('lease lost');
    controller.abort(lost);
    let thrown: unknown;
    try {
      throwIfAborted(controller.signal);
    } catch (error) {
      thrown = error;
    }
    expect(isAbortError(thrown)).toBe(true);
    expect((thrown as Error).cause).toBe(lost);
    expect(() => throwIfAborted(new AbortController().signal)).not.toThrow();
    expect(isAbortError(abortError())).toBe(true);
  });
});

describe('the stops of the server follow the convention', () => {
  const clientOptions = { allowPrivate: true, userAgent: 'test', timeoutMs: 5_000, retries: 0, retryBaseDelayMs: 10, maxWaitMs: 100, connections: 4, authorization: () => null };

  it('a crawl request cut by the crawl’s stop is an AbortError; a refused connection is a FetchError', async () => {
    const held: ServerResponse[] = [];
    const server = createServer((_req, res) => void held.push(res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    try {
      const controller = new AbortController();
      const client = new HttpClient({ ...clientOptions, signal: controller.signal });
      const pending = client.exchange(url, 'GET').catch((e: unknown) => e);
      while (held.length === 0) await new Promise((r) => setTimeout(r, 5));
      controller.abort();
      expect(isAbortError(await pending)).toBe(true);
      // Already stopped: refused before any request.
      expect(isAbortError(await client.exchange(url, 'GET').catch((e: unknown) => e))).toBe(true);
      await client.close();

      const refused = await new HttpClient(clientOptions).exchange(`http://127.0.0.1:${await closedPort()}/`, 'GET').catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(FetchError);
      expect(isAbortError(refused)).toBe(false);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
