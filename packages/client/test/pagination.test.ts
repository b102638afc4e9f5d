import { describe, expect, it } from 'vitest';
import { NotFoundError, createClient } from '../src/index.js';
import { fakeFetch, ids, json, page, problem } from './fake-fetch.js';

const issue = (n: number) => ({ name: `Issue ${n}`, severity: 'error', category: 'links', url: `https://example.com/${n}`, details: '' });

function threePages() {
  return fakeFetch(
    json(200, page([issue(1), issue(2)], 'cursor-1', 2)),
    json(200, page([issue(3), issue(4)], 'cursor-2', 2)),
    json(200, page([issue(5)], null, 2)),
  );
}

const clientWith = (fake: ReturnType<typeof fakeFetch>) => createClient({ baseUrl: 'https://api.test', token: 't', fetch: fake.fetch, retries: 0 });

describe('lists', () => {
  it('resolve to the first page, { data, meta }, with one request', async () => {
    const fake = threePages();
    const first = await clientWith(fake).crawls.issues.list({ crawl: ids.crawl, limit: 2 });
    expect(first).toEqual(page([issue(1), issue(2)], 'cursor-1', 2));
    expect(fake.requests).toHaveLength(1);
  });

  it('iterate over every item, following next_cursor with the same filters', async () => {
    const fake = threePages();
    const seen: string[] = [];
    for await (const occurrence of clientWith(fake).crawls.issues.list({ crawl: ids.crawl, severity: 'error', name: 'Broken link', limit: 2 })) {
      seen.push(occurrence.name);
    }
    expect(seen).toEqual(['Issue 1', 'Issue 2', 'Issue 3', 'Issue 4', 'Issue 5']);
    expect(fake.requests.map((r) => Object.fromEntries(r.url.searchParams))).toEqual([
      { severity: 'error', name: 'Broken link', limit: '2' },
      { severity: 'error', name: 'Broken link', limit: '2', cursor: 'cursor-1' },
      { severity: 'error', name: 'Broken link', limit: '2', cursor: 'cursor-2' },
    ]);
    expect(new Set(fake.requests.map((r) => r.url.pathname))).toEqual(new Set([`/v1/crawls/${ids.crawl}/issues`]));
  });

  it('stop when has_more is false even if a cursor is present', async () => {
    const fake = fakeFetch(json(200, { data: [1], meta: { limit: 25, has_more: false, next_cursor: 'ignored' } }));
    const all = await clientWith(fake).projects.list().toArray({ limit: 10 });
    expect(all).toEqual([1]);
    expect(fake.requests).toHaveLength(1);
  });

  it('toArray stops at its limit without reading further pages', async () => {
    const fake = threePages();
    const items = await clientWith(fake).crawls.issues.list({ crawl: ids.crawl, limit: 2 }).toArray({ limit: 3 });
    expect(items.map((i) => i.name)).toEqual(['Issue 1', 'Issue 2', 'Issue 3']);
    expect(fake.requests).toHaveLength(2);
  });

  it('toArray requires a limit', async () => {
    const client = clientWith(threePages());
    await expect(client.projects.list().toArray({} as never)).rejects.toThrow(TypeError);
    await expect(client.projects.list().toArray({ limit: 0 })).rejects.toThrow(/limit/);
  });

  it('can be awaited and then iterated, sharing the first request', async () => {
    const fake = threePages();
    const list = clientWith(fake).crawls.issues.list({ crawl: ids.crawl });
    const first = await list;
    expect(first.data).toHaveLength(2);
    const all: unknown[] = [];
    for await (const item of list) all.push(item);
    expect(all).toHaveLength(5);
    expect(fake.requests).toHaveLength(3);
  });

  it('an error on a later page reaches the loop; a failed first page leaves no unhandled rejection', async () => {
    const fake = fakeFetch(json(200, page([1, 2], 'c1')), problem(400, 'pagination.invalid_cursor'));
    const seen: unknown[] = [];
    await expect(
      (async () => {
        for await (const item of clientWith(fake).projects.list()) seen.push(item);
      })(),
    ).rejects.toMatchObject({ code: 'pagination.invalid_cursor', status: 400 });
    expect(seen).toEqual([1, 2]);

    const failing = clientWith(fakeFetch(problem(404, 'not_found'))).campaigns.list({ project: ids.project });
    await new Promise((resolve) => setTimeout(resolve, 0)); // let the rejection settle before anyone awaits it
    await expect(failing.toArray({ limit: 1 })).rejects.toBeInstanceOf(NotFoundError);
  });
});
