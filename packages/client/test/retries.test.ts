import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ConnectionError,
  NotFoundError,
  RateLimitError,
  ServerError,
  ValidationError,
  createClient,
  type ClientOptions,
  type RateLimitEvent,
} from '../src/index.js';
import { UUID, fakeFetch, ids, json, page, problem } from './fake-fetch.js';

const ok = () => json(200, page([{ id: 1 }], null));
const rateLimited = (retryAfter: string) =>
  problem(429, 'rate_limited', { window: 'minute', retry_after: 2, upgrade_to: 'pro' }, { 'retry-after': retryAfter });

// Backoff waits of at most 1 ms keep these tests quick without fake timers.
const quick = { max: 3, baseDelayMs: 1, maxDelayMs: 1 };

function setup(fake: ReturnType<typeof fakeFetch>, options: Partial<ClientOptions> = {}) {
  const events: RateLimitEvent[] = [];
  const client = createClient({
    baseUrl: 'https://api.test',
    token: 't',
    fetch: fake.fetch,
    retries: quick,
    onRateLimit: (e) => events.push(e),
    ...options,
  });
  return { client, events };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('retries', () => {
  it('wait for Retry-After in seconds on 429, then succeed', async () => {
    vi.useFakeTimers();
    const fake = fakeFetch(rateLimited('2'), ok());
    const { client, events } = setup(fake);
    const result = client.projects.list();
    await vi.advanceTimersByTimeAsync(1999);
    expect(fake.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toMatchObject({ data: [{ id: 1 }] });
    expect(fake.requests).toHaveLength(2);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ operation: 'listProjects', attempt: 0, willRetry: true, delayMs: 2000 });
    expect(events[0]!.error).toBeInstanceOf(RateLimitError);
    expect(events[0]!.error.retryAfter).toBe(2);
  });

  it('wait for Retry-After given as an HTTP date', async () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2030-01-01T00:00:00.000Z'));
    const fake = fakeFetch(rateLimited('Tue, 01 Jan 2030 00:00:03 GMT'), ok());
    const { client, events } = setup(fake);
    const result = client.projects.list();
    await vi.advanceTimersByTimeAsync(3000);
    await expect(result).resolves.toBeDefined();
    expect(events[0]!.delayMs).toBe(3000);
    expect(events[0]!.error.retryAfter).toBe(3);
  });

  it('give up at once when Retry-After is beyond the cap (the day window)', async () => {
    const fake = fakeFetch(problem(429, 'rate_limited', { window: 'day', retry_after: 7200 }, { 'retry-after': '7200' }), ok());
    const { client, events } = setup(fake);
    const error = await client.projects.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ retryAfter: 7200, window: 'day' });
    expect(fake.requests).toHaveLength(1);
    expect(events).toMatchObject([{ willRetry: false }]);
  });

  it('throw the RateLimitError once the retries are spent', async () => {
    const fake = fakeFetch(rateLimited('0'));
    const { client, events } = setup(fake);
    await expect(client.account.usage()).rejects.toMatchObject({ status: 429, code: 'rate_limited', window: 'minute', upgradeTo: 'pro' });
    expect(fake.requests).toHaveLength(quick.max + 1);
    expect(events.map((e) => e.willRetry)).toEqual([true, true, true, false]);
  });

  it('retry 503 and 502 with backoff', async () => {
    const fake = fakeFetch(problem(503, 'service_unavailable'), new Response('<html>Bad gateway</html>', { status: 502 }), ok());
    const { client } = setup(fake);
    await expect(client.projects.list()).resolves.toMatchObject({ data: [{ id: 1 }] });
    expect(fake.requests).toHaveLength(3);
  });

  it('retry network errors, and throw a ConnectionError when they persist', async () => {
    const fake = fakeFetch(new TypeError('fetch failed'), ok());
    await expect(setup(fake).client.projects.list()).resolves.toBeDefined();
    expect(fake.requests).toHaveLength(2);

    const down = fakeFetch(new TypeError('fetch failed'));
    const error = await setup(down).client.projects.get({ project: ids.project }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ status: 0, code: 'connection_error', detail: 'fetch failed' });
    expect((error as Error).cause).toBeInstanceOf(TypeError);
    expect(down.requests).toHaveLength(quick.max + 1);
  });

  it.each([
    [400, 'pagination.invalid_cursor', ValidationError],
    [404, 'not_found', NotFoundError],
    [422, 'validation_failed', ValidationError],
    [500, 'internal_error', ServerError],
  ] as const)('never retry %i', async (status, code, Class) => {
    const fake = fakeFetch(problem(status, code), ok());
    await expect(setup(fake).client.projects.list()).rejects.toBeInstanceOf(Class);
    expect(fake.requests).toHaveLength(1);
  });

  it('reuse one generated idempotency key across retries', async () => {
    const fake = fakeFetch(problem(503, 'service_unavailable'), new TypeError('socket hang up'), rateLimited('0'), json(202, { data: { id: ids.crawl } }));
    await expect(setup(fake).client.crawls.launch({ campaign: ids.campaign })).resolves.toEqual({ id: ids.crawl });
    const keys = fake.requests.map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(4);
    expect(keys[0]).toMatch(UUID);
    expect(new Set(keys).size).toBe(1);
  });

  it('reuse a given idempotency key across retries of an accepted-key operation', async () => {
    const fake = fakeFetch(new TypeError('fetch failed'), json(201, { data: { id: ids.project } }));
    await setup(fake).client.projects.create({ url: 'https://example.com' }, { idempotencyKey: 'create-example' });
    expect(fake.requests.map((r) => r.headers['idempotency-key'])).toEqual(['create-example', 'create-example']);
  });

  it('do not replay a POST without a key after a network error or a 502, but do after 429 and 503', async () => {
    const lost = fakeFetch(new TypeError('fetch failed'), json(201, { data: {} }));
    await expect(setup(lost).client.webhooks.create({ url: 'https://h.example.com', events: ['crawl.completed'] })).rejects.toBeInstanceOf(ConnectionError);
    expect(lost.requests).toHaveLength(1);

    const gateway = fakeFetch(new Response('', { status: 502 }), json(201, { data: {} }));
    await expect(setup(gateway).client.projects.create({ url: 'https://example.com' })).rejects.toBeInstanceOf(ServerError);
    expect(gateway.requests).toHaveLength(1);

    const refused = fakeFetch(problem(503, 'service_unavailable'), rateLimited('0'), json(201, { data: {} }));
    await expect(setup(refused).client.projects.create({ url: 'https://example.com' })).resolves.toEqual({});
    expect(refused.requests).toHaveLength(3);
  });

  it('take a number as the retry count, 0 disabling retries', async () => {
    const fake = fakeFetch(problem(503, 'service_unavailable'), ok());
    await expect(setup(fake, { retries: 0 }).client.projects.list()).rejects.toBeInstanceOf(ServerError);
    expect(fake.requests).toHaveLength(1);
  });

  it('stop when the signal aborts during a backoff wait', async () => {
    const fake = fakeFetch(problem(503, 'service_unavailable'), ok());
    const controller = new AbortController();
    const { client } = setup(fake, { retries: { max: 3, baseDelayMs: 60_000, maxDelayMs: 60_000 } });
    const result = client.projects.get({ project: ids.project }, { signal: controller.signal });
    await vi.waitFor(() => expect(fake.requests).toHaveLength(1));
    controller.abort();
    await expect(result).rejects.toMatchObject({ name: 'AbortError' });
    expect(fake.requests).toHaveLength(1);
  });

  it('abort the attempt in flight when the caller aborts, without retrying', async () => {
    const hanging = fakeFetch(
      (req) => new Promise<Response>((_, reject) => req.signal!.addEventListener('abort', () => reject(req.signal!.reason))),
    );
    const controller = new AbortController();
    const result = setup(hanging).client.projects.list({}, { signal: controller.signal });
    await vi.waitFor(() => expect(hanging.requests).toHaveLength(1));
    controller.abort(new Error('user gave up'));
    await expect(result).rejects.toThrow('user gave up');
    expect(hanging.requests).toHaveLength(1);
  });

  it('time out an attempt after timeoutMs and retry it', async () => {
    vi.useFakeTimers();
    const fake = fakeFetch(
      (req) => new Promise<Response>((_, reject) => req.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))),
    );
    const { client } = setup(fake, { timeoutMs: 1000, retries: { max: 1, baseDelayMs: 1, maxDelayMs: 1 } });
    const result = client.projects.list().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(3000);
    const error = await result;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ code: 'timeout' });
    expect(fake.requests).toHaveLength(2);
  });
});

describe('rate-limit headers', () => {
  it('are exposed as client.lastRateLimit', async () => {
    const fake = fakeFetch(
      json(200, page([], null), {
        'x-request-cost': '1',
        'x-ratelimit-limit': '600',
        'x-ratelimit-remaining': '599',
        'x-ratelimit-reset': '42',
        'ratelimit-policy': '"minute";q=600;w=60, "day";q=20000;w=86400',
        ratelimit: '"minute";r=599;t=42, "day";r=19999;t=3600',
      }),
    );
    const { client } = setup(fake);
    expect(client.lastRateLimit).toBeUndefined();
    await client.projects.list();
    expect(client.lastRateLimit).toEqual({
      limit: 600,
      remaining: 599,
      resetSeconds: 42,
      cost: 1,
      windows: {
        minute: { limit: 600, windowSeconds: 60, remaining: 599, resetSeconds: 42 },
        day: { limit: 20000, windowSeconds: 86400, remaining: 19999, resetSeconds: 3600 },
      },
    });
  });

  it('keep the last known state when a response carries none', async () => {
    const fake = fakeFetch(json(200, { data: {} }, { 'x-ratelimit-limit': '600', 'x-ratelimit-remaining': '10' }), json(200, { data: {} }));
    const { client } = setup(fake);
    await client.account.me();
    await client.account.me();
    expect(client.lastRateLimit).toMatchObject({ limit: 600, remaining: 10, windows: {} });
  });
});
