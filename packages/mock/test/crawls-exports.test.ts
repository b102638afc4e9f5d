import { Crawl, CrawledPageWithIssues, Export, IssueSummary } from '@siteaudit/schema';
import { isKnownIssueDetail } from '@siteaudit/schema/rules';
import { describe, expect, it } from 'vitest';
import { call, key, readAll, useMock } from './helpers.js';

const mock = useMock();
const token = () => mock.tokens.owner;
const launch = (campaignId: string, t = token()) => call('POST', `/v1/campaigns/${campaignId}/crawls`, { token: t, headers: { 'Idempotency-Key': key() } });
const getCrawl = async (id: string) => Crawl.parse((await call('GET', `/v1/crawls/${id}`, { token: token() })).body.data);

describe('project → campaign → crawl → advance → settled reports → export → download', () => {
  it('runs the whole flow over HTTP', async () => {
    const project = await call('POST', '/v1/projects', { token: token(), body: { url: 'https://shop.example.com' } });
    const projectId = project.body.data.id;
    const campaign = await call('POST', `/v1/projects/${projectId}/campaigns`, {
      token: token(),
      body: { name: 'Full', start_url: 'https://shop.example.com/', max_depth: 5, max_urls: 100, pagespeed: true },
    });
    const campaignId = campaign.body.data.id;

    // Launch: 202, queued and active, a Location to poll.
    const launched = await launch(campaignId);
    expect(launched.status).toBe(202);
    const crawl = Crawl.parse(launched.body.data);
    expect(crawl).toMatchObject({ status: 'queued', stage: 'queued', active: true, trigger: 'manual', started_at: null });
    expect(crawl.stage_plan).toMatchObject({ settled: false, step_count: 5, current_step: 1 });
    expect(launched.headers.get('location')).toBe(`/v1/crawls/${crawl.id}`);

    // One at a time per campaign.
    const again = await launch(campaignId);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('crawl.already_running');

    // Reports wait for settled.
    for (const path of ['issues', 'issues/summary', 'pages', 'pagespeed']) {
      const res = await call('GET', `/v1/crawls/${crawl.id}/${path}`, { token: token() });
      expect(res.status, path).toBe(409);
      expect(res.body.code).toBe('crawl.not_settled');
    }
    const early = await call('POST', `/v1/crawls/${crawl.id}/exports`, { token: token(), body: { format: 'pdf' } });
    expect(early.body.code).toBe('crawl.not_finished');

    // queued → running (fetching) → completed, not settled → settled.
    mock.advance(1_000);
    expect(await getCrawl(crawl.id)).toMatchObject({ status: 'running', stage: 'fetching', active: true, started_at: '2026-01-15T10:00:01.000Z' });
    const operations = await call('GET', '/v1/operations', { token: token() });
    expect(operations.body.meta).toEqual({ total: 1, shown: 1 });
    expect(operations.body.data[0]).toMatchObject({ kind: 'crawl', project_id: projectId, crawl: { id: crawl.id, stage: 'fetching', page_budget: 100 } });

    mock.advance(4_000);
    const completed = await getCrawl(crawl.id);
    expect(completed).toMatchObject({ status: 'completed', active: false, finished_at: '2026-01-15T10:00:05.000Z' });
    expect(completed.stage_plan.settled).toBe(false);
    expect((await call('GET', `/v1/crawls/${crawl.id}/issues`, { token: token() })).body.code).toBe('crawl.not_settled');

    mock.advance();
    const settled = await getCrawl(crawl.id);
    expect(settled).toMatchObject({ status: 'completed', stage: 'done', active: false });
    expect(settled.stage_plan).toMatchObject({ settled: true, current_step: 5 });
    expect(settled.stage_plan.steps.find((s) => s.stage === 'pagespeed')).toEqual({ stage: 'pagespeed', state: 'skipped', skip_reason: 'no_provider' });
    expect((await call('GET', `/v1/projects/${projectId}`, { token: token() })).body.data.latest_completed_crawl).toEqual({ id: crawl.id, finished_at: settled.finished_at });
    expect((await call('GET', '/v1/operations', { token: token() })).body.meta).toEqual({ total: 0, shown: 0 });

    // Summary: totals are the sum of the groups, and match the crawl's counts.
    const summary = IssueSummary.parse((await call('GET', `/v1/crawls/${crawl.id}/issues/summary`, { token: token() })).body.data);
    const sum = { error: 0, warning: 0, info: 0 };
    for (const g of summary.groups) sum[g.severity] += g.occurrences;
    expect(summary.totals).toEqual(sum);
    expect(settled.issue_counts).toEqual(sum);
    expect(summary.protection_occurrences).toBe(1);

    // Issues: errors first; filters by severity, category and exact name.
    const issues = await readAll(`/v1/crawls/${crawl.id}/issues`, token(), { limit: 3 });
    expect(issues).toHaveLength(sum.error + sum.warning + sum.info);
    expect(issues[0].severity).toBe('error');
    const warnings = await readAll(`/v1/crawls/${crawl.id}/issues`, token(), { severity: 'warning' });
    expect(warnings).toHaveLength(sum.warning);
    const group = summary.groups.find((g) => g.occurrences > 1)!;
    const named = await readAll(`/v1/crawls/${crawl.id}/issues`, token(), { name: group.name });
    expect(named).toHaveLength(group.occurrences);
    expect(named.every((i) => i.name === group.name && i.category === group.category)).toBe(true);
    expect(await readAll(`/v1/crawls/${crawl.id}/issues`, token(), { category: 'no-such-category' })).toEqual([]);

    // Pages: status class and internal filters; by-url with issues, errors first.
    const pages = await readAll(`/v1/crawls/${crawl.id}/pages`, token());
    expect(pages.length).toBe(settled.pages.crawled);
    const unreachable = await readAll(`/v1/crawls/${crawl.id}/pages`, token(), { status: 'unreachable' });
    expect(unreachable.every((p) => p.status_code === null)).toBe(true);
    expect(unreachable.length).toBeGreaterThan(0);
    const notFound = await readAll(`/v1/crawls/${crawl.id}/pages`, token(), { status: '4xx' });
    expect(notFound.every((p) => p.status_code >= 400 && p.status_code < 500)).toBe(true);
    const external = await readAll(`/v1/crawls/${crawl.id}/pages`, token(), { internal: 'false' });
    expect(external.length).toBeGreaterThan(0);
    expect(external.every((p) => p.is_internal === false)).toBe(true);
    const byUrl = await call('GET', `/v1/crawls/${crawl.id}/pages/by-url`, { token: token(), query: { url: 'https://SHOP.example.com/blog/second-post#x' } });
    const page = CrawledPageWithIssues.parse(byUrl.body.data);
    expect(page.url).toBe('https://shop.example.com/blog/second-post');
    expect(page.issues.map((i) => i.severity)).toEqual(['error', 'warning']);
    expect((await call('GET', `/v1/crawls/${crawl.id}/pages/by-url`, { token: token(), query: { url: 'https://shop.example.com/nope' } })).status).toBe(404);

    // PageSpeed: no provider, so unconfigured and null strategies, never 0.
    const pagespeed = await call('GET', `/v1/crawls/${crawl.id}/pagespeed`, { token: token() });
    expect(pagespeed.body.data).toMatchObject({ status: 'unconfigured', mobile: null, desktop: null, combined: null, failed: false });

    // Export: 202 + Location; not ready while generating; ready after advance; the file downloads.
    const requested = await call('POST', `/v1/crawls/${crawl.id}/exports`, { token: token(), body: { format: 'pdf' } });
    expect(requested.status).toBe(202);
    const exp = Export.parse(requested.body.data);
    expect(exp).toMatchObject({ status: 'queued', download_url: null, format: 'pdf' });
    expect(requested.headers.get('location')).toBe(`https://api.siteaudit.dev/v1/exports/${exp.id}`);
    const same = await call('POST', `/v1/crawls/${crawl.id}/exports`, { token: token(), body: { format: 'pdf' } });
    expect(same.body.data.id).toBe(exp.id);
    const notReady = await call('GET', `/v1/exports/${exp.id}/download`, { token: token() });
    expect(notReady.status).toBe(409);
    expect(notReady.body.code).toBe('export.not_ready');

    mock.advance();
    const ready = Export.parse((await call('GET', `/v1/exports/${exp.id}`, { token: token() })).body.data);
    expect(ready.status).toBe('ready');
    expect(ready.download_url).toBe(`https://api.siteaudit.dev/v1/exports/${exp.id}/download`);
    expect(Date.parse(ready.expires_at!) - Date.parse(ready.finished_at!)).toBe(7 * 86_400_000);
    const file = await call('GET', ready.download_url!, { token: token() });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="siteaudit-shop-example-com-2026-01-15-1000-fr.pdf"');
    expect(new TextDecoder().decode(file.bytes.slice(0, 5))).toBe('%PDF-');
    expect(file.bytes.byteLength).toBe(ready.size_bytes);

    // Expiry: removed after expires_at, download 410.
    mock.advance(7 * 86_400_000);
    expect((await call('GET', `/v1/exports/${exp.id}`, { token: token() })).body.data).toMatchObject({ status: 'expired', download_url: null });
    const gone = await call('GET', `/v1/exports/${exp.id}/download`, { token: token() });
    expect(gone.status).toBe(410);
    expect(gone.body.code).toBe('export.expired');
  });
});

describe('crawls', () => {
  it('lists crawls newest first and marks a second crawl with the same settings comparable', async () => {
    const { projectId, campaignId, crawlId } = mock.seed.completedCrawl();
    const second = await launch(campaignId);
    mock.advance();
    const list = await call('GET', `/v1/projects/${projectId}/crawls`, { token: token() });
    expect(list.body.data.map((c: { id: string }) => c.id)).toEqual([second.body.data.id, crawlId]);
    expect(list.body.data[0].comparable).toBe(true);
    expect(list.body.data[1].comparable).toBe(false);
  });

  it('moves crawls deterministically: the same seed yields the same pages', async () => {
    const a = mock.seed.completedCrawl();
    const pagesA = await readAll(`/v1/crawls/${a.crawlId}/pages`, token());
    mock.reset();
    const b = mock.seed.completedCrawl();
    expect(b.crawlId).toBe(a.crawlId);
    expect(await readAll(`/v1/crawls/${b.crawlId}/pages`, token())).toEqual(pagesA);
  });
});

describe('issue details', () => {
  it('are written from the crawler’s templates, and answered in the caller’s language as the server answers them', async () => {
    const { crawlId } = mock.seed.completedCrawl();
    const read = async (language: 'fr' | 'en') => {
      const res = await call('GET', `/v1/crawls/${crawlId}/issues`, { token: token(), query: { limit: 100 }, headers: { 'Accept-Language': language } });
      expect(res.headers.get('content-language')).toBe(language);
      return res.body.data as { name: string; url: string; details: string }[];
    };
    const en = await read('en');
    const fr = await read('fr');
    expect(en.length).toBeGreaterThan(5);
    // Every detail follows a template: translated in French (failures read as sentences in both).
    en.forEach((issue, i) => {
      expect(fr[i]).toMatchObject({ name: issue.name, url: issue.url });
      expect(fr[i].details, issue.details).not.toBe(issue.details);
      if (issue.name !== 'fetch_failed') expect(isKnownIssueDetail(issue.details), issue.details).toBe(true);
    });
    const pair = (name: string) => [en.find((i) => i.name === name)!.details, fr.find((i) => i.name === name)!.details];
    expect(pair('h1_missing')).toEqual(['no <h1>', 'pas de <h1>']);
    expect(pair('description_missing')).toEqual(['no meta description', 'pas de méta-description']);
    expect(pair('http_4xx')).toEqual(['status 404', 'statut 404']);
    expect(pair('fetch_failed')).toEqual([
      'no answer in time (timeout: The operation was aborted due to timeout)',
      'pas de réponse dans le délai (timeout: The operation was aborted due to timeout)',
    ]);
    // A thin page's details give its own word count.
    const thin = en.find((i) => i.name === 'thin_content')!;
    const page = (await call('GET', `/v1/crawls/${crawlId}/pages/by-url`, { token: token(), query: { url: thin.url }, headers: { 'Accept-Language': 'fr' } })).body.data;
    expect(thin.details).toBe(`${page.word_count} words`);
    expect(page.issues.find((i: { name: string }) => i.name === 'thin_content').details).toBe(`${page.word_count} mots`);
  });
});

describe('exports', () => {
  it('needs a plan with Excel for xlsx and serves a workbook', async () => {
    const pro = mock.seed.completedCrawl({ token: mock.tokens.pro });
    const refused = await call('POST', `/v1/crawls/${pro.crawlId}/exports`, { token: mock.tokens.pro, body: { format: 'xlsx' } });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'plan_limit.exports.excel', upgrade_to: 'agency' });

    const { crawlId } = mock.seed.completedCrawl();
    const created = await call('POST', `/v1/crawls/${crawlId}/exports`, { token: token(), body: { format: 'xlsx' } });
    mock.advance();
    const file = await call('GET', `/v1/exports/${created.body.data.id}/download`, { token: token() });
    expect(file.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(Array.from(file.bytes.slice(0, 4))).toEqual([0x50, 0x4b, 0x03, 0x04]);
  });

  it('validates the format and keeps exports to their team', async () => {
    const { crawlId } = mock.seed.completedCrawl();
    expect((await call('POST', `/v1/crawls/${crawlId}/exports`, { token: token(), body: { format: 'csv' } })).status).toBe(422);
    const created = await call('POST', `/v1/crawls/${crawlId}/exports`, { token: token(), body: { format: 'pdf' } });
    expect((await call('GET', `/v1/exports/${created.body.data.id}`, { token: mock.tokens.pro })).status).toBe(404);
  });
});
