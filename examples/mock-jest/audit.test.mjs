/**
 * A jest suite (native ES modules, no transform) against @siteaudit/mock: msw intercepts `fetch` in Node
 * and the mock answers as the server would. Needs the packages built (`npm run build`).
 */
import { beforeAll, afterEach, afterAll, test, expect } from '@jest/globals';
import { setupServer } from 'msw/node';
import { createMockApi } from '@siteaudit/mock';
import { createClient, ConflictError } from '@siteaudit/client';

const mock = createMockApi({ autoAdvance: true });
const server = setupServer(...mock.handlers);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  mock.reset();
});
afterAll(() => server.close());

const clientFor = (token) => createClient({ baseUrl: 'https://api.siteaudit.dev', token, retries: 0 });

test('a completed crawl has a summary whose totals add up', async () => {
  const { token, crawlId } = mock.seed.completedCrawl();
  const summary = await clientFor(token).crawls.issues.summary({ crawl: crawlId });
  const sum = summary.groups.reduce((n, g) => n + g.occurrences, 0);
  expect(summary.totals.error + summary.totals.warning + summary.totals.info).toBe(sum);
});

test('a forced error reaches the code under test as a typed error', async () => {
  const { token, campaignId } = mock.seed.teamWithProject();
  mock.failNext('launchCrawl', 'crawl.already_running');
  await expect(clientFor(token).crawls.launch({ campaign: campaignId })).rejects.toBeInstanceOf(ConflictError);
});
