/**
 * One behaviour suite, written against the client SDK, run against the real server over HTTP
 * (server.test.ts, on SQLite and PostgreSQL) and against the msw mock (mock.test.ts), so the
 * mock cannot drift from the server. Where the mock deliberately simplifies (it does not crawl:
 * every crawl "finds" the same seeded site), the assertions stay at what both guarantee.
 */
import { describe, expect, it } from 'vitest';
import { NotFoundError, PermissionError, ValidationError, createClient, type SiteAuditClient } from '@siteaudit/client';
import { SCOPES, type Scope } from '@siteaudit/schema';

export interface Target {
  name: 'server' | 'mock';
  baseUrl: string;
  /** A team owner's token with every scope, on the agency plan. */
  token: string;
  /** A token of the same team with only these scopes. */
  tokenWith(scopes: Scope[]): Promise<string>;
  /** A site the target may audit: a local one for the server, any public name for the mock. */
  siteUrl: string;
  /** An https receiver address the target accepts for webhooks. */
  webhookUrl: string;
}

export function behaviourSuite(setup: () => Target) {
  let target: Target;
  let client: SiteAuditClient;
  const connect = (token = target.token) => createClient({ baseUrl: target.baseUrl, token, language: 'en', retries: 0 });

  describe('behaviour', () => {
    it('tells who is calling', async () => {
      target = setup();
      client = connect();
      const me = await client.account.me();
      expect(me.plan.key).toBe('agency');
      expect(me.api_access).toEqual(['read', 'write']);
      expect(me.token.scopes).toEqual(expect.arrayContaining([...SCOPES]));
      const usage = await client.account.usage();
      expect(usage.rate_limits.map((w) => w.window).sort()).toEqual(['day', 'minute']);
    });

    it('creates a project with its default campaign, and pages through projects', async () => {
      const project = await client.projects.create({ url: target.siteUrl, name: 'Behaviour' });
      expect(project).toMatchObject({ name: 'Behaviour', locked: false, latest_completed_crawl: null });
      const campaigns = await client.campaigns.list({ project: project.id });
      expect(campaigns.data).toHaveLength(1);
      expect(campaigns.data[0].start_url).toBe(project.url);

      for (let i = 0; i < 3; i++) await client.projects.create({ url: target.siteUrl, name: `Extra ${i}` });
      const seen: string[] = [];
      for await (const p of client.projects.list({ limit: 2 })) seen.push(p.id);
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).toContain(project.id);
      expect(seen.length).toBeGreaterThanOrEqual(4);
    });

    it('replays an idempotent create instead of repeating it', async () => {
      const key = `behaviour-${target.name}-replay`;
      const a = await client.projects.create({ url: target.siteUrl, name: 'Once' }, { idempotencyKey: key });
      const b = await client.projects.create({ url: target.siteUrl, name: 'Once' }, { idempotencyKey: key });
      expect(b.id).toBe(a.id);
    });

    it('refuses bad input by field, unknown ids with 404, and missing scopes with 403', async () => {
      const invalid = await client.campaigns
        .create({ project: (await client.projects.list({ limit: 1 })).data[0].id, name: '', start_url: 'not a url', max_depth: -1, max_urls: 10 })
        .catch((e: unknown) => e);
      expect(invalid).toBeInstanceOf(ValidationError);
      expect(Object.keys((invalid as ValidationError).errors ?? {})).toEqual(expect.arrayContaining(['name', 'start_url', 'max_depth']));

      const missing = await client.projects.get({ project: '00000000-0000-4000-8000-000000000000' }).catch((e: unknown) => e);
      expect(missing).toBeInstanceOf(NotFoundError);

      const reader = connect(await target.tokenWith(['crawls:read']));
      const refused = await reader.projects.list().catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(PermissionError);
      expect((refused as PermissionError).code).toBe('token.missing_scope');
      expect((refused as PermissionError).requiredScopes).toEqual(['projects:read']);
    });

    it('keeps write-only campaign fields and credentials out of answers', async () => {
      const project = await client.projects.create({ url: target.siteUrl });
      const campaign = await client.campaigns.create({
        project: project.id,
        name: 'Protected',
        start_url: target.siteUrl,
        max_depth: 3,
        max_urls: 50,
        http_user: 'user',
        http_password: 'secret',
        notify: true,
        timeout: 10,
      });
      expect(campaign).not.toHaveProperty('http_password');
      expect(campaign).not.toHaveProperty('http_user');
      expect(campaign).not.toHaveProperty('timeout');
      const updated = await client.campaigns.update({ campaign: campaign.id, max_depth: 4 });
      expect(updated).toMatchObject({ max_depth: 4, max_urls: 50, name: 'Protected' });
    });

    it('crawls to a settled report whose summary adds up, then exports it', async () => {
      const project = await client.projects.create({ url: target.siteUrl });
      const [campaign] = (await client.campaigns.list({ project: project.id })).data;
      const launched = await client.crawls.launch({ campaign: campaign.id });
      expect(launched).toMatchObject({ status: 'queued', active: true, trigger: 'manual' });

      const crawl = await client.waitForCrawl(launched.id, { intervalMs: 50 });
      expect(crawl).toMatchObject({ status: 'completed', active: false });
      expect(crawl.stage_plan.settled).toBe(true);

      const summary = await client.crawls.issues.summary({ crawl: crawl.id });
      const sum = { error: 0, warning: 0, info: 0 };
      for (const g of summary.groups) sum[g.severity] += g.occurrences;
      expect(summary.totals).toEqual(sum);
      expect(crawl.issue_counts).toEqual(sum);

      const errors = await client.crawls.issues.list({ crawl: crawl.id, severity: 'error' }).toArray({ limit: 1000 });
      expect(errors).toHaveLength(sum.error);
      const pages = await client.crawls.pages.list({ crawl: crawl.id }).toArray({ limit: 1000 });
      expect(pages.length).toBeGreaterThan(0);
      const page = await client.crawls.pages.byUrl({ crawl: crawl.id, url: pages[0].url });
      expect(page.url).toBe(pages[0].url);

      const after = await client.projects.get({ project: project.id });
      expect(after.latest_completed_crawl?.id).toBe(crawl.id);

      const requested = await client.exports.create({ crawl: crawl.id, format: 'pdf' });
      expect(requested.status).toBe('queued');
      const ready = await client.waitForExport(requested.id, { intervalMs: 50 });
      expect(ready.status).toBe('ready');
      const file = await client.exports.download({ export: ready.id });
      expect(file.contentType).toBe('application/pdf');
      expect(new TextDecoder().decode((await file.arrayBuffer()).slice(0, 5))).toBe('%PDF-');
    });

    it('tracks, pauses, resumes and untracks keywords by their canonical form', async () => {
      const project = await client.projects.create({ url: target.siteUrl });
      const tracked = await client.positions.track({ project: project.id, keywords: ['  Audit  SEO ', 'crawler'] });
      expect(tracked.tracked.sort()).toEqual(['audit seo', 'crawler']);
      const again = await client.positions.track({ project: project.id, keywords: ['AUDIT seo'] });
      expect(again).toMatchObject({ tracked: [], already_tracked: ['audit seo'] });

      const paused = await client.positions.pause({ project: project.id, keywords: ['crawler'] });
      expect(paused).toMatchObject({ active: false, changed: ['crawler'] });
      const resumed = await client.positions.resume({ project: project.id, keywords: ['crawler'] });
      expect(resumed).toMatchObject({ active: true, changed: ['crawler'] });

      const read = await client.positions.get({ project: project.id });
      expect(read.keywords.map((k) => k.keyword).sort()).toEqual(['audit seo', 'crawler']);
      expect(read.summary.tracked_keywords).toBe(2);

      const untracked = await client.positions.untrack({ project: project.id, keywords: ['crawler', 'never tracked'] });
      expect(untracked.untracked).toEqual(['crawler']);
    });

    it('manages a webhook whose secret is shown once', async () => {
      const created = await client.webhooks.create({ url: target.webhookUrl, events: ['crawl.completed'] });
      expect(created.secret).toMatch(/^whsec_/);
      const read = await client.webhooks.get({ webhook: created.id });
      expect(read).not.toHaveProperty('secret');
      const listed = await client.webhooks.list().toArray({ limit: 100 });
      expect(listed.some((w) => w.id === created.id && !('secret' in w))).toBe(true);
      const rotated = await client.webhooks.rotateSecret({ webhook: created.id });
      expect(rotated.secret).not.toBe(created.secret);
      expect(rotated.secret_rotation_ends_at).not.toBeNull();
      const disabled = await client.webhooks.update({ webhook: created.id, active: false });
      expect(disabled.active).toBe(false);
      await client.webhooks.delete({ webhook: created.id });
      expect(await client.webhooks.get({ webhook: created.id }).catch((e: unknown) => e)).toBeInstanceOf(NotFoundError);
    });

    it('answers the scorecard with five pillars and no global average', async () => {
      const project = (await client.projects.list({ limit: 1 })).data[0];
      const scorecard = await client.projects.scorecard({ project: project.id });
      expect(scorecard.pillars.map((p) => p.key)).toEqual(['technique', 'contenu', 'accessibilite', 'acquisition', 'logs']);
      expect(scorecard).not.toHaveProperty('average');
      const logs = scorecard.pillars.find((p) => p.key === 'logs')!;
      expect(logs).toMatchObject({ available: false, score: null });
    });
  });
}
