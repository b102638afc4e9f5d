import { describe, expect, it } from 'vitest';
import { call, useMock } from './helpers.js';

const mock = useMock();

async function createProjects(count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await call('POST', '/v1/projects', { token: mock.tokens.owner, body: { url: `https://site${i}.example.org` } });
    ids.push(res.body.data.id);
  }
  return ids;
}

/** Cursors bound to a list's filters (crawl issues), on the mock's seeded crawl; the paging rules themselves are in tests/rules. */
describe('cursors and filters', () => {
  it('refuses a cursor reused on another list, with other filters, from another team, or edited', async () => {
    const { crawlId } = mock.seed.completedCrawl();
    await createProjects(3);
    const projects = await call('GET', '/v1/projects', { token: mock.tokens.owner, query: { limit: 1 } });
    const cursor = projects.body.meta.next_cursor as string;
    // The limit may change between pages.
    expect((await call('GET', '/v1/projects', { token: mock.tokens.owner, query: { cursor, limit: 3 } })).status).toBe(200);

    const issues = await call('GET', `/v1/crawls/${crawlId}/issues`, { token: mock.tokens.owner, query: { limit: 1, severity: 'warning' } });
    const issueCursor = issues.body.meta.next_cursor as string;
    const refused = [
      call('GET', `/v1/crawls/${crawlId}/pages`, { token: mock.tokens.owner, query: { cursor: issueCursor } }),
      call('GET', `/v1/crawls/${crawlId}/issues`, { token: mock.tokens.owner, query: { cursor: issueCursor, severity: 'error' } }),
      call('GET', `/v1/crawls/${crawlId}/issues`, { token: mock.tokens.owner, query: { cursor: issueCursor } }),
      call('GET', '/v1/projects', { token: mock.tokens.pro, query: { cursor } }),
      call('GET', '/v1/projects', { token: mock.tokens.owner, query: { cursor: `${cursor.slice(0, -2)}xx` } }),
      call('GET', '/v1/projects', { token: mock.tokens.owner, query: { cursor: 'garbage' } }),
    ];
    for (const res of await Promise.all(refused)) {
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('pagination.invalid_cursor');
    }
    const next = await call('GET', `/v1/crawls/${crawlId}/issues`, { token: mock.tokens.owner, query: { cursor: issueCursor, severity: 'warning' } });
    expect(next.status).toBe(200);
  });
});

describe('conditional requests', () => {
  it('sends an ETag on a 200 GET and answers 304 to If-None-Match, costing nothing', async () => {
    const [id] = await createProjects(1);
    const first = await call('GET', `/v1/projects/${id}`, { token: mock.tokens.owner });
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/".+"$/);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    const remaining = Number(first.headers.get('x-ratelimit-remaining'));

    const again = await call('GET', `/v1/projects/${id}`, { token: mock.tokens.owner, headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('x-request-cost')).toBe('0');
    expect(Number(again.headers.get('x-ratelimit-remaining'))).toBe(remaining);

    await call('PATCH', `/v1/projects/${id}`, { token: mock.tokens.owner, body: { name: 'Renamed' } });
    const changed = await call('GET', `/v1/projects/${id}`, { token: mock.tokens.owner, headers: { 'If-None-Match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it('checks authentication before preconditions and sends no ETag on writes', async () => {
    const [id] = await createProjects(1);
    const first = await call('GET', `/v1/projects/${id}`, { token: mock.tokens.owner });
    const stranger = await call('GET', `/v1/projects/${id}`, { token: mock.tokens.pro, headers: { 'If-None-Match': first.headers.get('etag')! } });
    expect(stranger.status).toBe(404);
    const write = await call('PATCH', `/v1/projects/${id}`, { token: mock.tokens.owner, body: { name: 'x' } });
    expect(write.headers.get('etag')).toBeNull();
  });
});
