/**
 * Campaign URL patterns at the HTTP boundary (docs/decisions/url-normalisation.md, "Patterns"):
 * an expression that would backtrack forever runs in linear time and the crawl completes; one
 * outside RE2 syntax is refused at create and update; one stored before the rules tightened fails
 * its crawl with the field named, before any request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { PAGES, startSite, type Site } from '../../../../tests/support/site.js';

const LONG = `/${'a'.repeat(5_000)}`;
const page = (body: string) => `<!doctype html><html lang="en"><head><title>A page of the site</title></head><body>${body}</body></html>`;

let h: Harness;
let site: Site;
let projectId: string;

beforeAll(async () => {
  h = await startHarness();
  site = await startSite({
    ...PAGES,
    '/': { html: page(`<a href="${LONG}">Long</a> <a href="/skip">Skip</a> <a href="/about">About</a>`) },
    [LONG]: { html: page('<a href="/">Home</a> <a href="/missing">Missing</a>') },
    '/skip': { html: page('<a href="/">Home</a>') },
  });
  projectId = (await (await h.call('POST', '/v1/projects', { body: { url: `${site.url}/` } })).json()).data.id;
});
afterAll(async () => {
  await h.close();
  await site.close();
});

const createCampaign = (fields: Record<string, unknown>) =>
  h.call('POST', `/v1/projects/${projectId}/campaigns`, { body: { name: 'Patterns', start_url: `${site.url}/`, max_depth: 3, max_urls: 50, ...fields } });

async function crawl(campaignId: string) {
  const res = await h.call('POST', `/v1/campaigns/${campaignId}/crawls`, { headers: { 'idempotency-key': crypto.randomUUID() } });
  expect(res.status).toBe(202);
  await h.server.jobs.idle();
  return (await (await h.call('GET', `/v1/crawls/${(await res.json()).data.id}`)).json()).data;
}

describe('campaign patterns', () => {
  it('match an expression that backtracks exponentially in linear time: the crawl completes and the patterns apply', async () => {
    const created = await createCampaign({
      // The start URL holds many `a`s, as do the URLs found: a backtracking engine would never
      // finish matching them (`z` appears in none of the site's URLs, `b` in some).
      start_url: `${site.url}/?q=${'a'.repeat(1_900)}`,
      include_patterns: 're:(a+)+z\n/',
      exclude_patterns: 're:(a+)+z\n/skip',
      issue_exclusion_patterns: 're:(a+)+b\nre:/missing$',
    });
    expect(created.status).toBe(201);
    const done = await crawl((await created.json()).data.id);
    expect(done).toMatchObject({ status: 'completed', error: null });

    const pages = (await (await h.call('GET', `/v1/crawls/${done.id}/pages?limit=100`)).json()).data as { url: string }[];
    const paths = pages.map((p) => (p.url.endsWith(LONG) ? 'LONG' : new URL(p.url).pathname));
    expect(paths).toEqual(expect.arrayContaining(['LONG', '/about', '/missing']));
    expect(paths).not.toContain('/skip');
    const issues = (await (await h.call('GET', `/v1/crawls/${done.id}/issues?limit=100`)).json()).data as { url: string }[];
    expect(issues.length).toBeGreaterThan(0);
    expect(issues.filter((i) => new URL(i.url).pathname === '/missing')).toEqual([]);
  });

  it('refuses an expression outside RE2 syntax at create and update, naming the field, the entry and the reason', async () => {
    const refused = await createCampaign({ issue_exclusion_patterns: 're:(a)\\1' });
    expect(refused.status).toBe(422);
    const body = await refused.json();
    expect(body.code).toBe('validation_failed');
    expect(Object.keys(body.errors)).toEqual(['issue_exclusion_patterns']);
    expect(body.errors.issue_exclusion_patterns[0].message).toMatch(/^Motif « re:\(a\)\\1 » : « \\1 » \(renvoi arrière\) n'est pas accepté/);

    const campaign = (await (await createCampaign({})).json()).data;
    const update = await h.call('PATCH', `/v1/campaigns/${campaign.id}`, {
      headers: { 'accept-language': 'en' },
      body: { include_patterns: '/blog/\nre:/a(?=b)', exclude_patterns: Array.from({ length: 101 }, (_, i) => `/p${i}`).join('\n') },
    });
    expect(update.status).toBe(422);
    const errors = (await update.json()).errors;
    expect(errors.include_patterns[0].message).toBe('Pattern "re:/a(?=b)": "(?=" (lookahead or lookbehind) is not supported: patterns use RE2 syntax, matched in linear time');
    expect(errors.exclude_patterns[0].message).toBe('101 entries, at most 100');
  });

  it('fails the crawl of a campaign whose stored pattern the rules now refuse, naming the field, without fetching', async () => {
    const campaign = (await (await createCampaign({})).json()).data;
    await h.knex('campaigns').where({ id: campaign.id }).update({ exclude_patterns: 're:/(?!en/)' });
    const before = site.hits.get('/') ?? 0;
    const done = await crawl(campaign.id);
    expect(done.status).toBe('failed');
    expect(done.error).toMatch(/^crawl\.invalid_pattern: exclude_patterns: Pattern "re:\/\(\?!en\/\)": "\(\?!" \(lookahead or lookbehind\) is not supported/);
    expect(site.hits.get('/') ?? 0).toBe(before);
  });
});
