/**
 * A vitest suite against @siteaudit/mock: msw intercepts `fetch`, the mock answers as the
 * server would (same envelopes, errors, idempotency, rate limits) from a seeded in-memory store.
 */
import { createClient, RateLimitError } from '@siteaudit/client';
import { createMockApi } from '@siteaudit/mock';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditProject } from './audit.js';

// autoAdvance: each request first finishes pending work, so `waitForCrawl` ends at its next poll.
const mock = createMockApi({ autoAdvance: true });
const server = setupServer(...mock.handlers);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  mock.reset(); // back to the seed: the same teams, tokens and ids in every test
});
afterAll(() => server.close());

const clientFor = (token: string) =>
  createClient({ baseUrl: 'https://api.siteaudit.dev', token, retries: { max: 2, baseDelayMs: 1 } });

describe('auditProject', () => {
  it('launches a crawl and reports its errors, most frequent first', async () => {
    const { projectId, token } = mock.seed.teamWithProject();
    const report = await auditProject(clientFor(token), projectId, { intervalMs: 1 });
    expect(report.errors).toBeGreaterThan(0);
    expect(report.topErrors.reduce((n, g) => n + g.occurrences, 0)).toBe(report.errors);
    expect(mock.db.crawls.get(report.crawlId)?.status).toBe('completed');
  });

  it('survives a rate-limited answer: the client retries after Retry-After', async () => {
    const { projectId, token } = mock.seed.teamWithProject();
    mock.failNext('getCrawlIssueSummary', 'rate_limited', { retryAfter: 0 });
    await expect(auditProject(clientFor(token), projectId, { intervalMs: 1 })).resolves.toMatchObject({ errors: expect.any(Number) });
  });

  it('surfaces a refusal the API keeps answering', async () => {
    const { projectId, token } = mock.seed.teamWithProject();
    mock.failNext('getCrawlIssueSummary', 'rate_limited', { times: 10, retryAfter: 0 });
    await expect(auditProject(clientFor(token), projectId, { intervalMs: 1 })).rejects.toBeInstanceOf(RateLimitError);
  });
});
