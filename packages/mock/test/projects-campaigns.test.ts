import { Campaign, Project } from '@siteaudit/schema';
import { describe, expect, it } from 'vitest';
import { call, key, useMock } from './helpers.js';

const mock = useMock();
const token = () => mock.tokens.owner;

describe('projects', () => {
  it('creates a project named after its host, with a slug and its default campaign', async () => {
    const res = await call('POST', '/v1/projects', { token: token(), body: { url: 'https://www.Example.org#top' } });
    expect(res.status).toBe(201);
    const project = Project.parse(res.body.data);
    expect(project).toMatchObject({ name: 'www.example.org', slug: 'www-example-org', url: 'https://www.example.org/', domain: 'www.example.org', locked: false, latest_completed_crawl: null });
    expect(project.created_at).toBe('2026-01-15T10:00:00.000Z');

    const campaigns = await call('GET', `/v1/projects/${project.id}/campaigns`, { token: token() });
    expect(campaigns.body.data).toHaveLength(1);
    expect(campaigns.body.data[0]).toMatchObject({ project_id: project.id, name: 'www.example.org', start_url: 'https://www.example.org/', max_urls: 500 });
    expect(campaigns.body.data[0].schedule).toEqual({ frequency: 'manual', day: null, time: null, paused: false, next_run_at: null });

    const named = await call('POST', '/v1/projects', { token: token(), body: { url: 'https://www.example.org', name: 'Example' } });
    expect(named.body.data).toMatchObject({ name: 'Example', slug: 'example' });
    const twin = await call('POST', '/v1/projects', { token: token(), body: { url: 'https://www.example.org', name: 'Example' } });
    expect(twin.body.data.slug).toBe('example-2');
  });

  it('deleting a project removes its log imports and what they counted, not only their reads', async () => {
    const project = (await call('POST', '/v1/projects', { token: token(), body: { url: 'https://shop.example/' } })).body.data;
    const log = '66.249.66.1 - - [14/Jan/2026:08:00:00 +0000] "GET /private-offer HTTP/1.1" 200 512 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"';
    const upload = await call('POST', `/v1/projects/${project.id}/log-imports`, { token: token(), rawBody: log, headers: { 'Content-Type': 'text/plain' } });
    expect(upload.status).toBe(202);
    expect(mock.db.logImports.size).toBe(1);
    expect((await call('DELETE', `/v1/projects/${project.id}`, { token: token() })).status).toBe(204);
    expect(mock.db.logImports.size).toBe(0);
  });

  it('refuses local names by name, as the server does, for projects, campaign starts and webhooks', async () => {
    const { projectId } = mock.seed.completedCrawl();
    for (const host of ['localhost.', 'LocalHost.', 'foo.localhost', 'foo.localhost.', 'a.b.localhost', 'printer.local', 'nas.home.arpa', 'db.internal', 'router.lan']) {
      const project = await call('POST', '/v1/projects', { token: token(), body: { url: `http://${host}/` } });
      expect([project.status, project.body.code], host).toEqual([422, 'project.url_refused']);
      const campaign = await call('POST', `/v1/projects/${projectId}/campaigns`, { token: token(), body: { name: 'Local', start_url: `http://${host}/`, max_depth: 5, max_urls: 100 } });
      expect([campaign.status, campaign.body.code], host).toEqual([422, 'project.url_refused']);
      const hook = await call('POST', '/v1/webhooks', { token: token(), body: { url: `https://${host}/hook`, events: ['crawl.completed'] } });
      expect([hook.status, hook.body.code], host).toEqual([422, 'webhook.url_refused']);
    }
  });

  it('refuses a webhook URL the public DNS never resolves, as the server does, and takes it as a site', async () => {
    for (const host of ['hooks.acme.invalid', 'hooks.acme.test', 'hooks.acme.example', 'INVALID.', 'a.b.test.']) {
      const hook = await call('POST', '/v1/webhooks', { token: token(), body: { url: `https://${host}/hook`, events: ['crawl.completed'] } });
      expect([hook.status, hook.body.code], host).toEqual([422, 'webhook.url_refused']);
      const project = await call('POST', '/v1/projects', { token: token(), body: { url: `https://${host}/` } });
      expect(project.status, host).toBe(201);
    }
    expect((await call('POST', '/v1/webhooks', { token: token(), body: { url: 'https://hooks.example.com/in', events: ['crawl.completed'] } })).status).toBe(201);
  });

  it('refuses a site on an obviously private host with 422 project.url_refused', async () => {
    for (const url of ['http://localhost:3000', 'http://127.0.0.1', 'http://10.1.2.3', 'http://[::1]/', 'http://2130706433/']) {
      const res = await call('POST', '/v1/projects', { token: token(), body: { url } });
      expect(res.status, url).toBe(422);
      expect(res.body.code).toBe('project.url_refused');
    }
  });

  it('updates a project, refuses to modify a locked one, and still deletes it with everything it holds', async () => {
    const { projectId, campaignId, crawlId } = mock.seed.completedCrawl();
    const renamed = await call('PATCH', `/v1/projects/${projectId}`, { token: token(), body: { name: 'Shop', url: 'https://shop.example.com' } });
    expect(renamed.body.data).toMatchObject({ name: 'Shop', slug: 'shop', url: 'https://shop.example.com/', domain: 'shop.example.com' });

    mock.admin.setProjectLocked(projectId, true);
    const locked = await call('PATCH', `/v1/projects/${projectId}`, { token: token(), body: { name: 'Nope' } });
    expect(locked.status).toBe(403);
    expect(locked.body.code).toBe('project.locked');
    const launch = await call('POST', `/v1/campaigns/${campaignId}/crawls`, { token: token(), headers: { 'Idempotency-Key': key() } });
    expect(launch.body.code).toBe('project.locked');

    const deleted = await call('DELETE', `/v1/projects/${projectId}`, { token: token() });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    for (const path of [`/v1/projects/${projectId}`, `/v1/campaigns/${campaignId}`, `/v1/crawls/${crawlId}`]) {
      expect((await call('GET', path, { token: token() })).status).toBe(404);
    }
  });

  it('scores the crawl pillars from the latest settled crawl, null (never 0) for the others', async () => {
    const { projectId } = mock.seed.teamWithProject();
    const before = await call('GET', `/v1/projects/${projectId}/scorecard`, { token: token() });
    expect(before.body.data.pillars.every((p: { score: number | null }) => p.score === null)).toBe(true);

    const { projectId: crawled } = mock.seed.completedCrawl({ url: 'https://crawled.example.org' });
    const res = await call('GET', `/v1/projects/${crawled}/scorecard`, { token: token() });
    const pillars = res.body.data.pillars;
    expect(pillars.map((p: { key: string }) => p.key)).toEqual(['technique', 'contenu', 'accessibilite', 'acquisition', 'logs']);
    for (const p of pillars.slice(0, 2)) {
      expect(p).toMatchObject({ status: 'measured', available: true });
      expect(p.score).toBeGreaterThan(0);
      expect(p.score).toBeLessThan(100);
    }
    for (const p of pillars.slice(2)) expect(p.score).toBeNull();
    expect(pillars[4]).toMatchObject({ status: 'not_measured', available: true, score: null, blocked_reason: 'no_logs' });
    expect(res.body.data).not.toHaveProperty('average');
  });
});

describe('campaigns', () => {
  const body = {
    name: 'Blog',
    start_url: 'https://www.example.com/blog',
    max_depth: 3,
    max_urls: 200,
    pagespeed: true,
    include_patterns: '^/blog/',
    timeout: 30,
    regression_threshold: 'warning',
    http_user: 'preview',
    http_password: 's3cret',
    notify: true,
    schedule: { frequency: 'weekly', day: 'friday', time: '06:30' },
  };

  it('accepts write-only fields and never echoes them; never returns HTTP credentials', async () => {
    const { projectId } = mock.seed.teamWithProject();
    const res = await call('POST', `/v1/projects/${projectId}/campaigns`, { token: token(), body });
    expect(res.status).toBe(201);
    const campaign = Campaign.parse(res.body.data);
    expect(Object.keys(res.body.data).sort()).toEqual(Object.keys(Campaign.shape).sort());
    expect(res.text).not.toContain('s3cret');
    expect(res.text).not.toContain('preview');
    // 2026-01-15 is a Thursday: the next Friday at 06:30 UTC.
    expect(campaign.schedule).toEqual({ frequency: 'weekly', day: 'friday', time: '06:30', paused: false, next_run_at: '2026-01-16T06:30:00.000Z' });
    const read = await call('GET', `/v1/campaigns/${campaign.id}`, { token: token() });
    expect(read.text).not.toContain('s3cret');
  });

  it('updates partially: absent fields keep their value, an absent http_password stays unchanged', async () => {
    const { projectId } = mock.seed.teamWithProject();
    const created = await call('POST', `/v1/projects/${projectId}/campaigns`, { token: token(), body });
    const id = created.body.data.id;
    const updated = await call('PATCH', `/v1/campaigns/${id}`, { token: token(), body: { max_urls: 300, schedule: { frequency: 'daily' } } });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ name: 'Blog', max_depth: 3, max_urls: 300, pagespeed: true });
    expect(updated.body.data.schedule).toEqual({ frequency: 'daily', day: null, time: '03:00', paused: false, next_run_at: '2026-01-16T03:00:00.000Z' });
    expect(mock.db.campaigns.get(id)!.write_only).toMatchObject({ http_password: 's3cret', timeout: 30 });
    const paused = await call('PATCH', `/v1/campaigns/${id}`, { token: token(), body: { schedule: { frequency: 'monthly', day: '28', paused: true } } });
    expect(paused.body.data.schedule).toMatchObject({ day: '28', paused: true, next_run_at: null });
    const unknown = await call('PATCH', `/v1/campaigns/${id}`, { token: token(), body: { depth: 4 } });
    expect(unknown.status).toBe(422);
  });

  it('applies the plan bounds: URL budget and schedule frequency', async () => {
    const { projectId } = mock.seed.teamWithProject({ token: mock.tokens.pro });
    const big = await call('POST', `/v1/projects/${projectId}/campaigns`, { token: mock.tokens.pro, body: { ...body, max_urls: 50_000 } });
    expect(big.status).toBe(403);
    expect(big.body).toMatchObject({ code: 'plan_limit.crawls.max_urls', upgrade_to: 'agency' });
    const huge = await call('POST', `/v1/projects/${projectId}/campaigns`, { token: mock.tokens.pro, body: { ...body, max_urls: 1_000_000 } });
    expect(huge.body).toMatchObject({ code: 'plan_limit.crawls.max_urls', upgrade_to: null });
  });

  it('deletes a campaign, stopping its running crawl first, with its crawls', async () => {
    const { projectId, campaignId } = mock.seed.teamWithProject();
    const launched = await call('POST', `/v1/campaigns/${campaignId}/crawls`, { token: token(), headers: { 'Idempotency-Key': key() } });
    const res = await call('DELETE', `/v1/campaigns/${campaignId}`, { token: token() });
    expect(res.status).toBe(204);
    expect((await call('GET', `/v1/crawls/${launched.body.data.id}`, { token: token() })).status).toBe(404);
    expect((await call('GET', `/v1/projects/${projectId}/campaigns`, { token: token() })).body.data).toEqual([]);
  });
});
