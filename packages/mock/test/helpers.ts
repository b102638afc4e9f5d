/**
 * Test helpers: one mock behind msw's `setupServer` per test file, reset between tests, and a
 * thin `fetch` wrapper so every test speaks plain HTTP, as a client would.
 */
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createMockApi, DEFAULT_BASE_URL, type MockApi, type MockApiOptions } from '../src/index.js';

export function useMock(options: MockApiOptions = {}): MockApi {
  const mock = createMockApi(options);
  const server = setupServer(...mock.handlers);
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    server.resetHandlers();
    mock.reset();
  });
  afterAll(() => server.close());
  return mock;
}

export interface CallOptions {
  token?: string | null;
  body?: unknown;
  /** Sent as is, with the given content type (default application/json). */
  rawBody?: string;
  headers?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
}

export interface CallResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
  bytes: Uint8Array;
}

export async function call<T = any>(method: string, path: string, options: CallOptions = {}): Promise<CallResult<T>> {
  const url = new URL(path, DEFAULT_BASE_URL);
  for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== null && options.token !== undefined) headers.Authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.rawBody !== undefined) {
    body = options.rawBody;
    headers['Content-Type'] ??= 'application/json';
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['Content-Type'] ??= 'application/json';
  }
  const response = await fetch(url, { method, headers, body });
  const bytes = new Uint8Array(await response.arrayBuffer());
  const text = new TextDecoder().decode(bytes);
  const type = response.headers.get('content-type') ?? '';
  return { status: response.status, headers: response.headers, body: type.includes('json') && text ? JSON.parse(text) : null, text, bytes };
}

/** Reads every page of a list, following `next_cursor`. */
export async function readAll<T = any>(path: string, token: string, query: Record<string, string | number | undefined> = {}): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await call('GET', path, { token, query: { ...query, cursor } });
    if (page.status !== 200) throw new Error(`${path}: ${page.status} ${page.text}`);
    items.push(...page.body.data);
    if (!page.body.meta.has_more) return items;
    cursor = page.body.meta.next_cursor;
  }
}

let keyCounter = 0;
/** A fresh Idempotency-Key. */
export const key = () => `test-key-${++keyCounter}`;
