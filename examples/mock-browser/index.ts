/**
 * @siteaudit/mock in a browser: msw's service worker answers the app's calls to the Site Audit
 * API from the mock's in-memory store, so a front end can be built and demoed without a server.
 * Bundle this file with your app (Vite, esbuild…) and serve `mockServiceWorker.js` (see README).
 */
import { createClient } from '@siteaudit/client';
import { createMockApi } from '@siteaudit/mock';
import { setupWorker } from 'msw/browser';

// One completed crawl seeded at start; autoAdvance finishes new crawls and exports on the next call.
const mock = createMockApi({ scenarios: ['completedCrawl'], autoAdvance: true });
const worker = setupWorker(...mock.handlers);

// Requests to other hosts (your own backend, assets) go through untouched.
await worker.start({ onUnhandledRequest: 'bypass' });

// Handy in the devtools console: siteauditMock.failNext('getCrawlIssueSummary', 'rate_limited').
(globalThis as { siteauditMock?: typeof mock }).siteauditMock = mock;

const { token, crawlId } = mock.scenarios.completedCrawl!;
const client = createClient({ baseUrl: 'https://api.siteaudit.dev', token, language: 'en' });
const summary = await client.crawls.issues.summary({ crawl: crawlId });

const list = document.createElement('ul');
for (const group of summary.groups) {
  const item = document.createElement('li');
  item.textContent = `${group.severity} · ${group.name}: ${group.occurrences}`;
  list.append(item);
}
document.body.append(list);
