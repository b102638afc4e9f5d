import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, startHarness, type Harness } from '../../../../tests/support/harness.js';
import { PAGES, startSite, type Site } from '../../../../tests/support/site.js';
import { caller } from '../../../../tests/support/http.js';
import { startReceiver } from '../../../../tests/support/receiver.js';
import { migrationSource } from '../../src/store/migrations/index.js';

let h: Harness;
let site: Site;

beforeAll(async () => {
  h = await startHarness();
  site = await startSite();
});
afterAll(async () => {
  await h.close();
  await site.close();
});

async function projectWithCampaign(overrides: Record<string, unknown> = {}) {
  const project = (await (await h.call('POST', '/v1/projects', { body: { url: `${site.url}/` } })).json()).data;
  const campaign = (
    await (
      await h.call('POST', `/v1/projects/${project.id}/campaigns`, {
        body: { name: 'Site', start_url: `${site.url}/`, max_depth: 5, max_urls: 100, ...overrides },
      })
    ).json()
  ).data;
  return { project, campaign };
}

const launch = (campaignId: string, key = crypto.randomUUID()) =>
  h.call('POST', `/v1/campaigns/${campaignId}/crawls`, { headers: { 'idempotency-key': key } });

describe('crawl lifecycle', () => {
  it('crawls the site, settles, and serves pages, issues and a summary that match it', async () => {
    const { project, campaign } = await projectWithCampaign();
    const res = await launch(campaign.id);
    expect(res.status).toBe(202);
    const queued = (await res.json()).data;
    expect(queued).toMatchObject({ status: 'queued', active: true, trigger: 'manual', campaign_id: campaign.id, project_id: project.id });
    expect(queued.stage_plan.settled).toBe(false);

    await h.server.jobs.idle();
    const crawl = (await (await h.call('GET', `/v1/crawls/${queued.id}`)).json()).data;
    expect(crawl).toMatchObject({ status: 'completed', active: false, stage: 'done' });
    expect(crawl.stage_plan.settled).toBe(true);
    expect(crawl.stage_plan.steps.every((s: { state: string }) => s.state === 'done' || s.state === 'skipped')).toBe(true);
    expect(crawl.finished_at).not.toBeNull();
    expect(crawl.pages.crawled).toBeGreaterThanOrEqual(6);

    const pages = (await (await h.call('GET', `/v1/crawls/${crawl.id}/pages?limit=100`)).json()).data as { url: string; status_code: number | null }[];
    const byPath = new Map(pages.map((p) => [new URL(p.url).pathname, p]));
    expect(byPath.get('/')?.status_code).toBe(200);
    expect(byPath.get('/missing')?.status_code).toBe(404);
    expect(byPath.get('/old')?.status_code).toBe(301);

    const notFound = (await (await h.call('GET', `/v1/crawls/${crawl.id}/pages?status=4xx`)).json()).data;
    expect(notFound.map((p: { url: string }) => new URL(p.url).pathname)).toEqual(['/missing']);

    const summary = (await (await h.call('GET', `/v1/crawls/${crawl.id}/issues/summary`)).json()).data;
    const names = summary.groups.map((g: { name: string }) => g.name);
    expect(names).toContain('broken_internal_link');
    expect(names).toContain('title_missing');
    const sum = { error: 0, warning: 0, info: 0 } as Record<string, number>;
    for (const g of summary.groups) sum[g.severity] += g.occurrences;
    expect(summary.totals).toEqual(sum);
    expect(crawl.issue_counts).toEqual(sum);
    // The site is served over plain HTTP: one template decision on every HTML page, said once in
    // the summary (its details in the caller's language, French by default); the occurrences stay
    // listed page by page. A check on one page is no pattern.
    const html = (pages as unknown as { is_internal: boolean; status_code: number | null; content_type: string | null }[]).filter((p) => p.is_internal && p.status_code === 200 && p.content_type?.includes('html'));
    const http = summary.groups.find((g: { name: string }) => g.name === 'http_page');
    expect(http).toMatchObject({ pages: html.length, occurrences: html.length, templates: [{ scope: 'site', section: null, pages: html.length, share: 1, details: 'servie en HTTP non chiffré' }] });
    expect(http.templates[0].examples).toHaveLength(3);
    expect(summary.groups.find((g: { name: string }) => g.name === 'title_missing')).toMatchObject({ pages: 1, templates: [] });

    const errors = (await (await h.call('GET', `/v1/crawls/${crawl.id}/issues?severity=error&limit=100`)).json()).data;
    expect(errors.length).toBe(sum.error);
    expect(errors.every((i: { severity: string }) => i.severity === 'error')).toBe(true);
    const titled = (await (await h.call('GET', `/v1/crawls/${crawl.id}/issues?name=title_missing`)).json()).data;
    expect(titled.map((i: { url: string }) => new URL(i.url).pathname)).toEqual(['/blog/post-1']);

    const post = await h.call('GET', `/v1/crawls/${crawl.id}/pages/by-url?url=${encodeURIComponent(`${site.url.toUpperCase().replace('HTTP://', 'http://')}/blog/post-1#top`)}`);
    expect(post.status).toBe(200);
    const postBody = (await post.json()).data;
    expect(postBody.issues.map((i: { name: string }) => i.name)).toContain('title_missing');
    const ranks = postBody.issues.map((i: { severity: string }) => ['error', 'warning', 'info'].indexOf(i.severity));
    expect(ranks).toEqual([...ranks].sort());

    const ps = (await (await h.call('GET', `/v1/crawls/${crawl.id}/pagespeed`)).json()).data;
    expect(ps).toMatchObject({ status: 'not_requested', mobile: null, desktop: null, combined: null });

    const after = (await (await h.call('GET', `/v1/projects/${project.id}`)).json()).data;
    expect(after.latest_completed_crawl).toEqual({ id: crawl.id, finished_at: crawl.finished_at });
  });

  it('lists a page’s inlinks (extension) with their anchor text, by page, each linking page once', async () => {
    const { campaign } = await projectWithCampaign();
    const id = (await (await launch(campaign.id)).json()).data.id;
    await h.server.jobs.idle();
    const inlinks = async (path: string, extra = '') => {
      const res = await h.call('GET', `/v1/crawls/${id}/pages/inlinks?url=${encodeURIComponent(`${site.url}${path}`)}${extra}`);
      return { status: res.status, body: await res.json() };
    };
    const paths = (body: { data: { url: string }[] }) => body.data.map((l) => new URL(l.url).pathname);
    // The test site: / links to /missing ("Missing"); /about and /blog/ link home ("Home").
    const missing = await inlinks('/missing');
    expect(missing.status).toBe(200);
    expect(missing.body.data).toEqual([{ url: `${site.url}/`, anchor_text: 'Missing', nofollow: false }]);
    const home = await inlinks('/');
    expect(paths(home.body).sort()).toEqual(['/about', '/blog/']);
    expect(home.body.data.every((l: { anchor_text: string }) => l.anchor_text === 'Home')).toBe(true);
    // /, /about and the post link to /blog/: once each.
    expect(paths((await inlinks('/blog/')).body).sort()).toEqual(['/', '/about', '/blog/post-1']);

    // Pages of one, the cursor bound to its page: reused for another URL it is refused.
    const first = await inlinks('/', '&limit=1');
    expect([first.body.data.length, first.body.meta.has_more]).toEqual([1, true]);
    const next = await inlinks('/', `&limit=1&cursor=${encodeURIComponent(first.body.meta.next_cursor)}`);
    expect([...paths(first.body), ...paths(next.body)]).toEqual(paths(home.body));
    expect(next.body.meta.has_more).toBe(false);
    const reused = await inlinks('/blog/', `&limit=1&cursor=${encodeURIComponent(first.body.meta.next_cursor)}`);
    expect([reused.status, reused.body.code]).toEqual([400, 'pagination.invalid_cursor']);

    expect((await inlinks('/never-linked')).status).toBe(404);
    const noUrl = await h.call('GET', `/v1/crawls/${id}/pages/inlinks`);
    expect([noUrl.status, Object.keys((await noUrl.json()).errors)]).toEqual([422, ['url']]);
  });

  it('serves the same inlinks and issues after migrations 028 to 030 are rolled back and applied again', async () => {
    const { campaign } = await projectWithCampaign();
    const id = (await (await launch(campaign.id)).json()).data.id;
    await h.server.jobs.idle();
    const read = async () => {
      const all = [];
      for (const path of ['/', '/blog/', '/missing', '/about']) {
        const res = await h.call('GET', `/v1/crawls/${id}/pages/inlinks?url=${encodeURIComponent(`${site.url}${path}`)}`);
        all.push([path, res.status, (await res.json()).data]);
        const page = await h.call('GET', `/v1/crawls/${id}/pages/by-url?url=${encodeURIComponent(`${site.url}${path}`)}`);
        all.push([path, page.status, (await page.json()).data?.issues]);
      }
      const issues = await h.call('GET', `/v1/crawls/${id}/issues?limit=100`);
      all.push(['issues', issues.status, (await issues.json()).data]);
      const summary = await h.call('GET', `/v1/crawls/${id}/issues/summary`);
      all.push(['summary', summary.status, (await summary.json()).data]);
      return all;
    };
    const before = await read();
    expect(before.every(([, status]) => status === 200)).toBe(true);
    expect(before.filter(([, , data]) => Array.isArray(data) && data.length > 0).length).toBeGreaterThan(6);
    const links = async () => Number((await h.knex('crawl_links').where({ crawl_id: id }).count({ n: '*' }).first())?.n);
    const stored = await links();
    expect(stored).toBeGreaterThan(4);
    const options = { migrationSource, tableName: 'siteaudit_migrations' };
    // Down to links found a row each, the pair index and the table keyed by seq, with every row.
    await h.knex.migrate.down({ ...options, name: '030-crawl-link-chunks' });
    await h.knex.migrate.down({ ...options, name: '029-crawl-issue-indexes' });
    await h.knex.migrate.down({ ...options, name: '028-crawl-links-by-target' });
    expect(await links()).toBe(stored);
    await h.knex.migrate.latest(options);
    expect(await read()).toEqual(before);
  });

  it.runIf(DATABASE === 'sqlite')('leaves SQLite statistics after settling, so a page’s issues are read on the by-page index', async () => {
    const { campaign } = await projectWithCampaign();
    const id = (await (await launch(campaign.id)).json()).data.id;
    await h.server.jobs.idle();
    // The read of GET …/pages/by-url and of GET …/issues?url=: without statistics SQLite walked the
    // severity index over the whole crawl (377 ms at 200,000 pages), with them 1 ms.
    const read = h.knex('crawl_issues').where({ crawl_id: id, url_hash: 'f'.repeat(64) }).orderBy([{ column: 'severity_rank' }, { column: 'seq' }]);
    const plan = (await h.knex.raw(`explain query plan ${read.toString()}`)) as { detail: string }[];
    expect(plan.map((p) => p.detail).join('\n')).toContain('USING INDEX crawl_issues_by_page (crawl_id=? AND url_hash=?)');
    expect(Number((await h.knex('sqlite_stat1').where({ tbl: 'crawl_issues' }).count({ n: '*' }).first())?.n)).toBeGreaterThan(0);
  });

  it('reports a broken <link rel="next"> of a page as a broken internal link, and follows a sound one', async () => {
    const head = (links: string) => `<!doctype html><html lang="en"><head><title>A paginated list of the test site</title>${links}</head><body><h1>List</h1><p>${'Words of the list page. '.repeat(40)}</p></body></html>`;
    const paged = await startSite({
      '/': { html: head('<link rel="next" href="/list/2">') },
      '/list/2': { html: head('<link rel="prev" href="/"><link rel="next" href="/list/3">') },
    });
    try {
      const project = (await (await h.call('POST', '/v1/projects', { body: { url: `${paged.url}/` } })).json()).data;
      const campaign = (await (await h.call('POST', `/v1/projects/${project.id}/campaigns`, { body: { name: 'Paged', start_url: `${paged.url}/`, max_depth: 5, max_urls: 20 } })).json()).data;
      const id = (await (await launch(campaign.id)).json()).data.id;
      await h.server.jobs.idle();
      const pages = (await (await h.call('GET', `/v1/crawls/${id}/pages?limit=100`)).json()).data as { url: string; status_code: number }[];
      expect(pages.map((p) => [new URL(p.url).pathname, p.status_code]).sort()).toEqual([['/', 200], ['/list/2', 200], ['/list/3', 404]]);
      const broken = (language: string) =>
        h.call('GET', `/v1/crawls/${id}/issues?name=broken_internal_link`, { headers: { 'accept-language': language } }).then(async (r) => (await r.json()).data as { url: string; details: string }[]);
      expect((await broken('en')).map((i) => [new URL(i.url).pathname, i.details])).toEqual([['/list/2', `rel="next" to ${paged.url}/list/3: status 404`]]);
      expect((await broken('fr')).map((i) => i.details)).toEqual([`rel="next" vers ${paged.url}/list/3 : statut 404`]);
    } finally {
      await paged.close();
    }
  });

  it('refuses a second launch while one runs, and reports before settled with 409', async () => {
    const { campaign } = await projectWithCampaign();
    const release = site.hold();
    try {
      const first = await launch(campaign.id);
      expect(first.status).toBe(202);
      const crawlId = (await first.json()).data.id;
      const second = await launch(campaign.id);
      expect(second.status).toBe(409);
      expect((await second.json()).code).toBe('crawl.already_running');
      const early = await h.call('GET', `/v1/crawls/${crawlId}/issues/summary`);
      expect(early.status).toBe(409);
      expect((await early.json()).code).toBe('crawl.not_settled');
      const ops = (await (await h.call('GET', '/v1/operations')).json());
      expect(ops.data.some((o: { crawl: { id: string } }) => o.crawl.id === crawlId)).toBe(true);
    } finally {
      release();
    }
    await h.server.jobs.idle();
  });

  it('launches concurrently: exactly one of two parallel launches is accepted', async () => {
    const { campaign } = await projectWithCampaign();
    const release = site.hold();
    const [a, b] = await Promise.all([launch(campaign.id), launch(campaign.id)]);
    release();
    expect([a.status, b.status].sort()).toEqual([202, 409]);
    await h.server.jobs.idle();
  });

  it('stops the running crawl when its campaign is deleted', async () => {
    const { campaign } = await projectWithCampaign();
    const release = site.hold();
    const crawlId = (await (await launch(campaign.id)).json()).data.id;
    const deleting = h.call('DELETE', `/v1/campaigns/${campaign.id}`);
    setTimeout(release, 50);
    expect((await deleting).status).toBe(204);
    await h.server.jobs.idle();
    expect((await h.call('GET', `/v1/crawls/${crawlId}`)).status).toBe(404);
  });

  // The site holds every answer until the deletion has answered: the crawl is provably still
  // fetching when the deletion asks for its stop (the stop aborts the requests in flight).
  it('tells subscribers crawl.stopped when deleting its campaign stops a crawl while it fetches', async () => {
    const receiver = await startReceiver((_req, res) => res.writeHead(200).end());
    const token = await h.tokenFor({ team: 'stopped-crawls' });
    const call = caller(h.url, token);
    try {
      expect((await call('POST', '/v1/webhooks', { body: { url: `${receiver.origin}/hook`, events: ['crawl.stopped'] } })).status).toBe(201);
      const project = (await (await call('POST', '/v1/projects', { body: { url: `${site.url}/` } })).json()).data;
      const campaign = (await (await call('POST', `/v1/projects/${project.id}/campaigns`, { body: { name: 'Stopped', start_url: `${site.url}/`, max_depth: 3, max_urls: 20 } })).json()).data;
      const release = site.hold();
      const crawlId = (await (await call('POST', `/v1/campaigns/${campaign.id}/crawls`, { headers: { 'idempotency-key': crypto.randomUUID() } })).json()).data.id;
      // Fetching, its first request held by the site.
      // Polled every 100 ms: the team's 600 requests a minute last a loaded machine's minute.
      while ((await (await call('GET', `/v1/crawls/${crawlId}`)).json()).data.status !== 'running') await new Promise((r) => setTimeout(r, 100));
      try {
        expect((await call('DELETE', `/v1/campaigns/${campaign.id}`)).status).toBe(204);
      } finally {
        release();
      }
      await h.server.jobs.idle();
      // The delivery is a job of its own: bounded by the test's timeout, not a guess of its speed.
      while (receiver.requests.length === 0) await new Promise((r) => setTimeout(r, 50));
      const events = receiver.requests.map((r) => JSON.parse(r.body) as { type: string; data: { crawl: { id: string; status: string } } });
      expect(events.map((e) => [e.type, e.data.crawl.id, e.data.crawl.status])).toEqual([['crawl.stopped', crawlId, 'stopped']]);
    } finally {
      await receiver.close();
    }
  });

  it('marks a crawl truncated when the URL budget cuts it', async () => {
    const { campaign } = await projectWithCampaign({ max_urls: 2 });
    const crawlId = (await (await launch(campaign.id)).json()).data.id;
    await h.server.jobs.idle();
    const crawl = (await (await h.call('GET', `/v1/crawls/${crawlId}`)).json()).data;
    expect(crawl.truncated).toBe(true);
    expect(crawl.pages.crawled).toBeLessThanOrEqual(2);
  });

  it('lists crawls newest first and hides them from other teams', async () => {
    const { project, campaign } = await projectWithCampaign();
    const first = (await (await launch(campaign.id)).json()).data.id;
    await h.server.jobs.idle();
    const second = (await (await launch(campaign.id)).json()).data.id;
    await h.server.jobs.idle();
    const list = (await (await h.call('GET', `/v1/projects/${project.id}/crawls`)).json()).data.map((c: { id: string }) => c.id);
    expect(list).toEqual([second, first]);
    const second2 = (await (await h.call('GET', `/v1/crawls/${second}`)).json()).data;
    expect(second2.comparable).toBe(true);
    const other = await h.tokenFor({ team: 'other' });
    expect((await h.call('GET', `/v1/crawls/${first}`, { token: other })).status).toBe(404);
  });
});

describe('pages no link from the start reaches', () => {
  it('serves a sitemap-only page with depth null, reported as an orphan', async () => {
    const sitemap = (origin: string) => `<?xml version="1.0"?><urlset><url><loc>${origin}/</loc></url><url><loc>${origin}/only-in-sitemap</loc></url></urlset>`;
    const routes = {
      ...PAGES,
      '/robots.txt': { html: 'User-agent: *\nAllow: /\nSitemap: /sitemap.xml\n', headers: { 'content-type': 'text/plain' } },
      '/only-in-sitemap': { html: PAGES['/about'].html },
      '/sitemap.xml': { html: '', headers: { 'content-type': 'application/xml' } },
    };
    const own = await startSite(routes);
    // The sitemap names the server's own origin, known once it listens.
    routes['/sitemap.xml'].html = sitemap(own.url);
    try {
      const project = (await (await h.call('POST', '/v1/projects', { body: { url: `${own.url}/` } })).json()).data;
      const campaign = (await (await h.call('POST', `/v1/projects/${project.id}/campaigns`, { body: { name: 'Orphans', start_url: `${own.url}/`, max_depth: 5, max_urls: 100 } })).json()).data;
      const crawl = (await (await launch(campaign.id)).json()).data;
      await h.server.jobs.idle();
      const pages = (await (await h.call('GET', `/v1/crawls/${crawl.id}/pages?limit=100`)).json()).data as { url: string; depth: number | null }[];
      const depth = new Map(pages.map((p) => [new URL(p.url).pathname, p.depth]));
      expect(depth.get('/')).toBe(0);
      expect(depth.get('/about')).toBe(1);
      expect(depth.has('/only-in-sitemap')).toBe(true);
      expect(depth.get('/only-in-sitemap')).toBeNull();
      const orphans = (await (await h.call('GET', `/v1/crawls/${crawl.id}/issues?name=orphan_page`)).json()).data as { url: string }[];
      expect(orphans.map((i) => new URL(i.url).pathname)).toEqual(['/only-in-sitemap']);
    } finally {
      await own.close();
    }
  });
});

describe('crawl quota', () => {
  it('refuses a launch once the monthly quota is spent, naming the plan that lifts it', async () => {
    const limited = await startHarness({ plans: { pro: { limits: { 'crawls.monthly': 1 } } } });
    try {
      const token = await limited.tokenFor({ team: 'small', plan: 'pro' });
      const project = (await (await limited.call('POST', '/v1/projects', { token, body: { url: `${site.url}/` } })).json()).data;
      const campaigns = (await (await limited.call('GET', `/v1/projects/${project.id}/campaigns`, { token })).json()).data;
      const go = () => limited.call('POST', `/v1/campaigns/${campaigns[0].id}/crawls`, { token, headers: { 'idempotency-key': crypto.randomUUID() } });
      expect((await go()).status).toBe(202);
      await limited.server.jobs.idle();
      const refused = await go();
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ code: 'plan_limit.crawls.monthly', upgrade_to: 'agency' });
      // Deleting what was launched does not give the quota back.
      expect((await limited.call('DELETE', `/v1/campaigns/${campaigns[0].id}`, { token })).status).toBe(204);
      const other = (await (await limited.call('POST', `/v1/projects/${project.id}/campaigns`, { token, body: { name: 'b', start_url: `${site.url}/`, max_depth: 1, max_urls: 5 } })).json()).data;
      const again = await limited.call('POST', `/v1/campaigns/${other.id}/crawls`, { token, headers: { 'idempotency-key': crypto.randomUUID() } });
      expect(again.status).toBe(403);
      const usage = (await (await limited.call('GET', '/v1/usage', { token })).json()).data;
      expect(usage.quotas.find((q: { entitlement: string }) => q.entitlement === 'crawls.monthly')).toMatchObject({ used: 1, limit: 1, remaining: 0 });
    } finally {
      await limited.close();
    }
  });
});
