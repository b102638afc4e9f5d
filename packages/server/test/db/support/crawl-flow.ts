/** Shared steps of the crawl-report tests: a project, a campaign, a crawl run to settled. */
import { expect } from 'vitest';
import type { Harness } from '../../../../../tests/support/harness.js';

export async function projectWithCampaign(h: Harness, siteUrl: string, overrides: Record<string, unknown> = {}) {
  const project = (await (await h.call('POST', '/v1/projects', { body: { url: `${siteUrl}/` } })).json()).data;
  const res = await h.call('POST', `/v1/projects/${project.id}/campaigns`, {
    body: { name: 'Site', start_url: `${siteUrl}/`, max_depth: 5, max_urls: 100, ...overrides },
  });
  expect(res.status).toBe(201);
  const campaign = (await res.json()).data;
  return { project, campaign };
}

/** Launches a crawl of the campaign, waits for the jobs, and returns the settled crawl. */
export async function crawlToSettled(h: Harness, campaignId: string) {
  const res = await h.call('POST', `/v1/campaigns/${campaignId}/crawls`, { headers: { 'idempotency-key': crypto.randomUUID() } });
  expect(res.status).toBe(202);
  const id = (await res.json()).data.id;
  await h.server.jobs.idle();
  const crawl = (await (await h.call('GET', `/v1/crawls/${id}`)).json()).data;
  expect(crawl.stage_plan.settled).toBe(true);
  return crawl;
}

/** Every issue of a crawl, in English: the details as the crawler wrote them (French is the default). */
export async function allIssues(h: Harness, crawlId: string, query = '') {
  const out: any[] = [];
  let cursor: string | null = null;
  do {
    const res = await h.call('GET', `/v1/crawls/${crawlId}/issues?limit=100${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { headers: { 'accept-language': 'en' } });
    const body = await res.json();
    out.push(...body.data);
    cursor = body.meta.has_more ? body.meta.next_cursor : null;
  } while (cursor);
  return out;
}

export const pathOf = (url: string) => new URL(url).pathname;
