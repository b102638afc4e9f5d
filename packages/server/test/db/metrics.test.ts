/**
 * Prometheus metrics (docs/operations.md, "Metrics"): GET /metrics when enabled, outside /v1 and
 * without a token; the counters move with the calls, refusals, crawls and deliveries they count.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSiteAuditServer } from '../../src/index.js';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { crawlToSettled, projectWithCampaign } from './support/crawl-flow.js';
import { startSite, type Site } from '../../../../tests/support/site.js';

let h: Harness;
let site: Site;

beforeAll(async () => {
  // A still clock: the minute window of the 429 test cannot roll over between its calls.
  const now = new Date('2026-03-10T10:00:15.000Z');
  h = await startHarness({ metrics: true, clock: () => now, plans: { pro: { rateLimits: { minute: 2 } } } });
  site = await startSite();
});
afterAll(async () => {
  await h.close();
  await site.close();
});

async function scrape(url = `${h.url}/metrics`): Promise<string> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
}

/** The value of one series, 0 when it has not appeared yet. */
function value(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe('GET /metrics', () => {
  it('counts a call under its operation and status, and observes its latency', async () => {
    const before = await scrape();
    expect((await h.call('GET', '/v1/projects')).status).toBe(200);
    expect((await h.call('GET', '/v1/projects', { token: 'sa_live_unknown' })).status).toBe(401);
    const after = await scrape();
    expect(value(after, 'siteaudit_http_requests_total{operation="listProjects",status="200"}')).toBe(value(before, 'siteaudit_http_requests_total{operation="listProjects",status="200"}') + 1);
    expect(value(after, 'siteaudit_http_requests_total{operation="listProjects",status="401"}')).toBe(value(before, 'siteaudit_http_requests_total{operation="listProjects",status="401"}') + 1);
    expect(value(after, 'siteaudit_http_request_duration_seconds_count{operation="listProjects"}')).toBe(value(before, 'siteaudit_http_request_duration_seconds_count{operation="listProjects"}') + 2);
    // Both answered: none left in flight (crash-shutdown.test.ts sees it count requests held open).
    expect(after).toMatch(/^siteaudit_http_requests_in_flight 0$/m);
    // Scrapes themselves are not API requests.
    expect(after).not.toMatch(/operation="unrouted"/);
  });

  it('counts rate-limit refusals', async () => {
    const token = await h.tokenFor({ team: 'small', plan: 'pro' });
    const before = await scrape();
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await h.call('GET', '/v1/me', { token })).status);
    expect(statuses).toEqual([200, 200, 429]);
    const after = await scrape();
    expect(value(after, 'siteaudit_rate_limit_refusals_total{operation="getMe"}')).toBe(value(before, 'siteaudit_rate_limit_refusals_total{operation="getMe"}') + 1);
    expect(value(after, 'siteaudit_http_requests_total{operation="getMe",status="429"}')).toBe(value(before, 'siteaudit_http_requests_total{operation="getMe",status="429"}') + 1);
  });

  it('counts the pages a crawl fetched, shows the jobs by kind and state, and the database pool', async () => {
    const before = await scrape();
    const { campaign } = await projectWithCampaign(h, site.url);
    const crawl = await crawlToSettled(h, campaign.id);
    const after = await scrape();
    expect(value(after, 'siteaudit_crawl_pages_fetched_total') - value(before, 'siteaudit_crawl_pages_fetched_total')).toBe(crawl.pages.crawled);
    expect(crawl.pages.crawled).toBeGreaterThan(0);
    // The scheduler re-queues itself: one queued job of its kind, in every store.
    expect(value(after, 'siteaudit_jobs{kind="campaigns.schedule",state="queued"}')).toBe(1);
    expect(after).toMatch(/^siteaudit_db_pool_connections\{state="used"\} \d+$/m);
    expect(after).toMatch(/^siteaudit_db_pool_connections\{state="free"\} \d+$/m);
    expect(after).toMatch(/^process_cpu_user_seconds_total /m);
  });

  it('counts webhook deliveries by outcome', async () => {
    const hook = (await (await h.call('POST', '/v1/webhooks', { body: { url: 'https://127.0.0.1:9/hook', events: ['crawl.completed'] } })).json()).data;
    const before = await scrape();
    expect((await h.call('POST', `/v1/webhooks/${hook.id}/test`)).status).toBe(202);
    await h.server.jobs.idle();
    const after = await scrape();
    // webhook.test is sent once, never retried: nothing listens there, so it failed.
    expect(value(after, 'siteaudit_webhook_deliveries_total{outcome="failed"}')).toBe(value(before, 'siteaudit_webhook_deliveries_total{outcome="failed"}') + 1);
  });
});

describe('where metrics are served', () => {
  it('is not answered when metrics are off', async () => {
    const off = await startHarness();
    try {
      expect((await fetch(`${off.url}/metrics`)).status).toBe(404);
    } finally {
      await off.close();
    }
  });

  it('with { port }, on that port only, not on the API port', async () => {
    const server = await createSiteAuditServer({ database: 'sqlite::memory:', metrics: { port: 0 }, logger: false, jobs: false, secretKey: 'test-secret-key-0123456789abcdef0123' });
    try {
      const { url, metricsUrl } = await server.listen(0);
      expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      expect(await scrape(metricsUrl)).toMatch(/^# HELP siteaudit_http_requests_total /m);
      expect((await fetch(`${url}/metrics`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('keeps each server its own series (no shared default registry)', async () => {
    const other = await startHarness({ metrics: true });
    try {
      expect((await other.call('GET', '/v1/projects')).status).toBe(200);
      expect(value(await scrape(`${other.url}/metrics`), 'siteaudit_http_requests_total{operation="listProjects",status="200"}')).toBe(1);
    } finally {
      await other.close();
    }
  });
});
