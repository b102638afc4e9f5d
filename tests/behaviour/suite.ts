/**
 * One behaviour suite, written against the client SDK, run against the real server over HTTP
 * (server.test.ts, on SQLite and PostgreSQL) and against the msw mock (mock.test.ts), so the
 * mock cannot drift from the server. Where the mock deliberately simplifies (it does not crawl:
 * every crawl "finds" the same seeded site), the assertions stay at what both guarantee.
 */
import { constants as zlibConstants, gunzipSync, gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError, PermissionError, ValidationError, createClient, type SiteAuditClient } from '@siteaudit/client';
import { dataUrl, png } from '../support/images.js';
import { SCOPES, WEEKDAYS, type LogImport, type Scope } from '@siteaudit/schema';
import { isSiteWideCheck, type PlanOverrides } from '@siteaudit/schema/rules';

/**
 * Plans both targets add to their catalogue: `keywords` has a small keyword pool (3) and a
 * smaller per-project ceiling (2), so the two limits can be told apart.
 */
export const BEHAVIOUR_PLANS: PlanOverrides = {
  keywords: {
    label: 'Keywords',
    api: 'write',
    rateLimits: { minute: 600, day: 100_000 },
    limits: { 'projects.max': 5, 'positions.tracked_keywords': 3, 'keywords.project_limit': 2 },
  },
  // Below `keywords` in every limit, so it never becomes another plan's `upgrade_to`.
  meagre: {
    label: 'Meagre',
    api: 'write',
    rateLimits: { minute: 600, day: 100_000 },
    limits: { 'projects.max': 1, 'crawls.monthly': 1, 'crawls.max_urls': 50, 'positions.tracked_keywords': 1, 'keywords.project_limit': 1 },
  },
};

/**
 * How often the suite polls a crawl, an export or a log import. Every poll costs the shared team
 * a unit of its minute window (600 on agency): polled every 50 ms, the suite's waits alone could
 * spend it on a fast machine, and its last tests met 429.
 */
const POLL = { intervalMs: 200 };

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
  /** The target's clock. */
  now(): Date;
  /** An owner token, with every scope, of a new team `slug` on `plan` (BEHAVIOUR_PLANS included). */
  teamToken(slug: string, plan: string): Promise<string>;
  /** Moves a team to another plan (the operator's `admin.setPlan`). */
  setPlan(slug: string, plan: string): Promise<void>;
  /** The fetch every request of the suite goes through (the server run records them for the OpenAPI check). */
  fetch?: typeof fetch;
}

const DAY_MS = 86_400_000;

export function behaviourSuite(setup: () => Target) {
  let target: Target;
  let client: SiteAuditClient;
  const connect = (token = target.token) => createClient({ baseUrl: target.baseUrl, token, language: 'en', retries: 0, fetch: target.fetch });
  const fetch: typeof globalThis.fetch = (input, init) => (target.fetch ?? globalThis.fetch)(input, init);

  describe('behaviour', () => {
    // Each test builds what it reads, so any one runs alone (`-t`).
    beforeAll(() => {
      target = setup();
      client = connect();
    });
    const newProject = () => client.projects.create({ url: target.siteUrl });
    /** Yesterday on the target's clock, 08:00 UTC, as a Combined log line writes it. */
    const yesterdayStamp = () => {
      const day = new Date(target.now().getTime() - DAY_MS);
      const month = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][day.getUTCMonth()];
      return `${String(day.getUTCDate()).padStart(2, '0')}/${month}/${day.getUTCFullYear()}:08:00:00 +0000`;
    };
    /** The import once completed, or as it stands after 10 s of polls. */
    const importCompleted = async (project: string, queued: LogImport): Promise<LogImport> => {
      let done = queued;
      for (let i = 0; i < 200 && done.status !== 'completed'; i++) {
        await new Promise((r) => setTimeout(r, POLL.intervalMs));
        done = await client.logs.imports.get({ project, import: queued.id });
      }
      return done;
    };

    it('tells who is calling', async () => {
      const me = await client.account.me();
      expect(me.plan.key).toBe('agency');
      expect(me.api_access).toEqual(['read', 'write']);
      expect(me.token.scopes).toEqual(expect.arrayContaining([...SCOPES]));
      const usage = await client.account.usage();
      expect(usage.rate_limits.map((w) => w.window).sort()).toEqual(['day', 'minute']);
    });

    it('answers a web page of another origin: preflights 204 without a token, every answer readable with its headers (extension)', async () => {
      const origin = 'https://dashboard.agency.example';
      const preflight = await fetch(`${target.baseUrl}/v1/projects`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, idempotency-key' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
      expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, HEAD, POST, PATCH, DELETE');
      const allowed = preflight.headers.get('access-control-allow-headers')!.toLowerCase().split(', ');
      expect(allowed).toEqual(expect.arrayContaining(['authorization', 'content-type', 'idempotency-key', 'if-none-match', 'accept-language']));
      expect(preflight.headers.get('access-control-max-age')).toBe('7200');
      // A path the contract does not route still passes its preflight, so the page reads the 404 itself.
      expect((await fetch(`${target.baseUrl}/v1/nowhere`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'GET' } })).status).toBe(204);

      const project = await newProject();
      const read = await fetch(`${target.baseUrl}/v1/projects/${project.id}`, { headers: { origin, authorization: `Bearer ${target.token}` } });
      expect(read.status).toBe(200);
      expect(read.headers.get('access-control-allow-origin')).toBe('*');
      const exposed = read.headers.get('access-control-expose-headers')!.split(', ');
      expect(exposed).toEqual(expect.arrayContaining(['X-Request-Id', 'ETag', 'Retry-After', 'Location', 'Idempotent-Replayed', 'Content-Disposition', 'RateLimit', 'X-RateLimit-Remaining']));
      // Refusals too: a page must read the problem and its request id.
      const refused = await fetch(`${target.baseUrl}/v1/projects`, { headers: { origin } });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('access-control-allow-origin')).toBe('*');
      // OPTIONS without a preflight's header is no preflight: the contract's 405.
      expect((await fetch(`${target.baseUrl}/v1/projects`, { method: 'OPTIONS', headers: { origin } })).status).toBe(405);
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
        .create({ project: (await newProject()).id, name: '', start_url: 'not a url', max_depth: -1, max_urls: 10 })
        .catch((e: unknown) => e);
      expect(invalid).toBeInstanceOf(ValidationError);
      expect(Object.keys((invalid as ValidationError).errors ?? {})).toEqual(expect.arrayContaining(['name', 'start_url', 'max_depth']));

      const missing = await client.projects.get({ project: '00000000-0000-4000-8000-000000000000' }).catch((e: unknown) => e);
      expect(missing).toBeInstanceOf(NotFoundError);

      // A site URL holding credentials is refused on the field: they go in http_user and http_password.
      const withCredentials = `${target.siteUrl.replace('://', '://user:secret@')}`;
      const credentialsProject = (await newProject()).id;
      for (const attempt of [
        () => client.projects.create({ url: withCredentials }),
        () => client.campaigns.create({ project: credentialsProject, name: 'c', start_url: withCredentials, max_depth: 1, max_urls: 10 }),
      ]) {
        const refusedUrl = await attempt().catch((e: unknown) => e);
        expect(refusedUrl).toBeInstanceOf(ValidationError);
        const [field] = Object.entries((refusedUrl as ValidationError).errors ?? {});
        expect(field[0]).toMatch(/^(url|start_url)$/);
        expect(field[1][0].message).toMatch(/http_user/);
      }

      // A campaign's start URL is kept as a project's URL is: scheme and host in lower case, no fragment.
      const shouting = `${target.siteUrl.replace('http://', 'HTTP://')}about#top`;
      const kept = await client.campaigns.create({ project: (await newProject()).id, name: 'c', start_url: shouting, max_depth: 1, max_urls: 10 });
      expect(kept.start_url).toBe(`${target.siteUrl}about`);

      // An id is read in any case (RFC 9562), and answered as it is stored.
      const known = await newProject();
      expect((await client.projects.get({ project: known.id.toUpperCase() })).id).toBe(known.id);

      const reader = connect(await target.tokenWith(['crawls:read']));
      const refused = await reader.projects.list().catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(PermissionError);
      expect((refused as PermissionError).code).toBe('token.missing_scope');
      expect((refused as PermissionError).requiredScopes).toEqual(['projects:read']);
    });

    it('refuses a campaign pattern outside RE2 syntax, naming the field, the entry and the reason', async () => {
      const project = (await newProject()).id;
      const base = { project, name: 'Patterns', start_url: target.siteUrl, max_depth: 1, max_urls: 10 };
      const refused = await client.campaigns.create({ ...base, issue_exclusion_patterns: 're:(a)\\1' }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ValidationError);
      expect((refused as ValidationError).errors).toEqual({
        issue_exclusion_patterns: [{ code: 'invalid_pattern', message: 'Pattern "re:(a)\\1": "\\1" (backreference) is not supported: patterns use RE2 syntax, matched in linear time' }],
      });
      const campaign = await client.campaigns.create({ ...base, exclude_patterns: 're:(a+)+b\n/blog/*.pdf$' });
      const update = await client.campaigns.update({ campaign: campaign.id, include_patterns: 're:(?<=/)x' }).catch((e: unknown) => e);
      expect(Object.keys((update as ValidationError).errors ?? {})).toEqual(['include_patterns']);
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

    it('answers the same issue in French by default and in English on request, on the list and on the page', async () => {
      const project = await client.projects.create({ url: target.siteUrl });
      const [campaign] = (await client.campaigns.list({ project: project.id })).data;
      const crawl = await client.waitForCrawl((await client.crawls.launch({ campaign: campaign.id })).id, POLL);
      const read = (language?: 'fr' | 'en') =>
        createClient({ baseUrl: target.baseUrl, token: target.token, language, retries: 0, fetch: target.fetch })
          .crawls.issues.list({ crawl: crawl.id, name: 'broken_internal_link' })
          .toArray({ limit: 100 });
      // Both targets' sites link to /missing, which answers 404.
      const en = (await read('en')).find((i) => /\/missing: status 404$/.test(i.details ?? ''))!;
      expect(en.details).toMatch(/^link to \S+\/missing: status 404$/);
      const missing = en.details!.slice('link to '.length, -': status 404'.length);
      const same = (list: { url: string; details: string | null }[]) => list.find((i) => i.url === en.url && i.details?.includes(missing))?.details;
      expect(same(await read('fr'))).toBe(`lien vers ${missing} : statut 404`);
      expect(same(await read())).toBe(`lien vers ${missing} : statut 404`);

      const page = (language: 'fr' | 'en') =>
        createClient({ baseUrl: target.baseUrl, token: target.token, language, retries: 0, fetch: target.fetch }).crawls.pages.byUrl({ crawl: crawl.id, url: en.url });
      expect(same((await page('en')).issues)).toBe(en.details);
      expect(same((await page('fr')).issues)).toBe(`lien vers ${missing} : statut 404`);
    });

    it('reads (extensions) a URL’s issues, the summary’s labels in the answer’s language, a crawl’s pages per second and a page’s inlinks', async () => {
      const project = await newProject();
      const [campaign] = (await client.campaigns.list({ project: project.id })).data;
      const crawl = await client.waitForCrawl((await client.crawls.launch({ campaign: campaign.id })).id, POLL);
      expect(crawl.pages.per_second).toEqual(expect.any(Number));
      expect(crawl.pages.per_second).toBeGreaterThanOrEqual(0);

      // Issues of one URL, matched on its normalised form (scheme and host case, fragment), as by-url.
      const all = await client.crawls.issues.list({ crawl: crawl.id }).toArray({ limit: 1000 });
      const url = all.find((i) => i.name === 'broken_internal_link')!.url;
      const u = new URL(url);
      const spelled = `${u.protocol.toUpperCase()}//${u.host.toUpperCase()}${u.pathname}${u.search}#top`;
      const ofUrl = await client.crawls.issues.list({ crawl: crawl.id, url: spelled, limit: 1 }).toArray({ limit: 1000 });
      expect(ofUrl).toEqual(all.filter((i) => i.url === url));
      expect(await client.crawls.issues.list({ crawl: crawl.id, url: spelled, name: 'broken_internal_link' }).toArray({ limit: 100 })).toEqual(
        all.filter((i) => i.url === url && i.name === 'broken_internal_link'),
      );
      expect((await client.crawls.issues.list({ crawl: crawl.id, url: `${u.origin}/no-such-page` })).data).toEqual([]);
      // One page's read takes a URL: text that is none is refused on the field, a URL no page has is 404.
      const notAUrl = await client.crawls.pages.byUrl({ crawl: crawl.id, url: 'notaurl' }).catch((e: unknown) => e);
      expect(notAUrl).toBeInstanceOf(ValidationError);
      expect((notAUrl as ValidationError).errors?.url?.[0].code).toBe('invalid_url');
      expect(await client.crawls.pages.byUrl({ crawl: crawl.id, url: `${u.origin}/no-such-page` }).catch((e: unknown) => e)).toBeInstanceOf(NotFoundError);

      // Labels beside codes, in the answer's language.
      const inLanguage = (language: 'fr' | 'en') => createClient({ baseUrl: target.baseUrl, token: target.token, language, retries: 0, fetch: target.fetch }).crawls.issues.summary({ crawl: crawl.id });
      const [en, fr] = [await inLanguage('en'), await inLanguage('fr')];
      expect(en.groups.find((g) => g.name === 'broken_internal_link')?.label).toBe('Broken internal link');
      expect(fr.groups.find((g) => g.name === 'broken_internal_link')?.label).toBe('Lien interne cassé');
      expect(en.groups.every((g) => g.label.length > 0)).toBe(true);
      expect(fr.groups.map((g) => g.name)).toEqual(en.groups.map((g) => g.name));

      // A page's inlinks (extension): the crawled pages linking to it, with their anchor text.
      const pages = await client.crawls.pages.list({ crawl: crawl.id, internal: true }).toArray({ limit: 1000 });
      const start = pages.find((p) => p.depth === 0)!;
      const home = await client.crawls.pages.inlinks({ crawl: crawl.id, url: start.url, limit: 1 }).toArray({ limit: 1000 });
      expect(home.length).toBeGreaterThan(0);
      expect(home.every((l) => l.anchor_text === 'Home' && l.nofollow === false && pages.some((p) => p.url === l.url))).toBe(true);
      expect(new Set(home.map((l) => l.url)).size).toBe(home.length);
      expect((await client.crawls.pages.inlinks({ crawl: crawl.id, url: start.url, limit: 100 })).data).toEqual(home);
      const linked = home[0].url;
      expect((await client.crawls.pages.inlinks({ crawl: crawl.id, url: linked }).toArray({ limit: 100 })).map((l) => l.url)).toContain(start.url);
      expect(await client.crawls.pages.inlinks({ crawl: crawl.id, url: `${new URL(start.url).origin}/no-such-page` }).catch((e: unknown) => e)).toBeInstanceOf(NotFoundError);
    });

    it('crawls to a settled report whose summary adds up, then exports it', async () => {
      const project = await client.projects.create({ url: target.siteUrl });
      const [campaign] = (await client.campaigns.list({ project: project.id })).data;
      const launched = await client.crawls.launch({ campaign: campaign.id });
      expect(launched).toMatchObject({ status: 'queued', active: true, trigger: 'manual' });

      const crawl = await client.waitForCrawl(launched.id, POLL);
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
      // By-URL reads normalise the URL as the crawler stored it: scheme and host case, fragment.
      const internal = pages.find((p) => p.is_internal && new URL(p.url).pathname.length > 1) ?? pages.find((p) => p.is_internal)!;
      const u = new URL(internal.url);
      const spelled = `${u.protocol.toUpperCase()}//${u.host.toUpperCase()}${u.pathname}${u.search}#section`;
      expect((await client.crawls.pages.byUrl({ crawl: crawl.id, url: spelled })).url).toBe(internal.url);
      // A relative URL is not resolved against the site: it is refused, as any text that is no absolute URL.
      expect(await client.crawls.pages.byUrl({ crawl: crawl.id, url: u.pathname }).catch((e: unknown) => e)).toBeInstanceOf(ValidationError);

      const after = await client.projects.get({ project: project.id });
      expect(after.latest_completed_crawl?.id).toBe(crawl.id);

      const requested = await client.exports.create({ crawl: crawl.id, format: 'pdf' });
      expect(requested.status).toBe('queued');
      const ready = await client.waitForExport(requested.id, POLL);
      expect(ready.status).toBe('ready');
      const file = await client.exports.download({ export: ready.id });
      expect(file.contentType).toBe('application/pdf');
      expect(new TextDecoder().decode((await file.arrayBuffer()).slice(0, 5))).toBe('%PDF-');
      // The file's ETag answers a conditional download with 304, without the file.
      const download = `${target.baseUrl}/v1/exports/${ready.id}/download`;
      const auth = { authorization: `Bearer ${target.token}` };
      const whole = await fetch(download, { headers: auth });
      const etag = whole.headers.get('etag')!;
      expect(etag).toBeTruthy();
      await whole.arrayBuffer();
      const unchanged = await fetch(download, { headers: { ...auth, 'if-none-match': etag } });
      expect(unchanged.status).toBe(304);
      expect(unchanged.headers.get('etag')).toBe(etag);
      expect(unchanged.headers.get('x-request-cost')).toBe('0');
    });

    it('names as latest completed crawl one that still exists once a campaign and its crawls are deleted', async () => {
      const project = await client.projects.create({ url: target.siteUrl });
      const [first] = (await client.campaigns.list({ project: project.id })).data;
      const second = await client.campaigns.create({ project: project.id, name: 'Second', start_url: target.siteUrl, max_depth: 2, max_urls: 20 });
      const crawlOf = async (campaign: string) => client.waitForCrawl((await client.crawls.launch({ campaign })).id, POLL);
      const older = await crawlOf(first.id);
      const newer = await crawlOf(second.id);
      expect((await client.projects.get({ project: project.id })).latest_completed_crawl).toEqual({ id: newer.id, finished_at: newer.finished_at });

      await client.campaigns.delete({ campaign: second.id });
      expect(await client.crawls.get({ crawl: newer.id }).catch((e: unknown) => e)).toBeInstanceOf(NotFoundError);
      expect((await client.projects.get({ project: project.id })).latest_completed_crawl).toEqual({ id: older.id, finished_at: older.finished_at });

      await client.campaigns.delete({ campaign: first.id });
      expect((await client.projects.get({ project: project.id })).latest_completed_crawl).toBeNull();
    });

    it('compares a crawl with the previous comparable one, lists its fixes by impact, and sends the findings events of a notifying campaign', async () => {
      // A team of its own, so its webhook sees only these crawls.
      const owner = connect(await target.teamToken(`changes-${target.name}`, 'agency'));
      const hook = await owner.webhooks.create({ url: target.webhookUrl, events: ['crawl.completed', 'recommendations.ready', 'signal.detected'] });
      const project = await owner.projects.create({ url: target.siteUrl });
      const campaign = await owner.campaigns.create({ project: project.id, name: 'Watched', start_url: target.siteUrl, max_depth: 3, max_urls: 50, notify: true, regression_threshold: 'warning' });
      const crawlOnce = async () => owner.waitForCrawl((await owner.crawls.launch({ campaign: campaign.id })).id, POLL);

      const first = await crawlOnce();
      const before = await owner.crawls.changes.summary({ crawl: first.id });
      expect(before).toMatchObject({ crawl_id: first.id, previous_crawl_id: null, basis: 'no_previous_crawl', checks: [] });
      expect(before.health.map((p) => p.key)).toEqual(['technique', 'contenu', 'accessibilite']);
      expect((await owner.crawls.changes.list({ crawl: first.id })).data).toEqual([]);

      // The same site crawled again with the same settings: everything persists, nothing is new.
      const second = await crawlOnce();
      const summary = await owner.crawls.changes.summary({ crawl: second.id });
      expect(summary).toMatchObject({ previous_crawl_id: first.id, basis: 'compared', issues: { new: { error: 0, warning: 0, info: 0 }, fixed: { error: 0, warning: 0, info: 0 } }, pages: { added: 0, removed: 0, status_changed: 0, redirect_changed: 0 } });
      expect(summary.health.find((p) => p.key === 'technique')).toMatchObject({ delta: 0 });
      // Why each score moved: nothing did, so no check is named; a first crawl explains nothing.
      expect(before.health.every((p) => p.attribution === null)).toBe(true);
      for (const p of summary.health) {
        if (p.delta === null) expect(p.attribution, p.key).toBeNull();
        else expect(p.attribution, p.key).toEqual({ previous_score_exact: expect.any(Number), score_exact: expect.any(Number), exact_delta: 0, checks: [], other: 0 });
      }
      const technique = summary.health.find((p) => p.key === 'technique')!.attribution!;
      expect(Math.round(technique.score_exact)).toBe(summary.health.find((p) => p.key === 'technique')!.score);
      expect(technique.score_exact).toBeCloseTo(technique.previous_score_exact, 9);
      const persisting = summary.issues.persisting.error + summary.issues.persisting.warning + summary.issues.persisting.info;
      expect(persisting).toBeGreaterThan(0);
      const changes = await owner.crawls.changes.list({ crawl: second.id, limit: 2 }).toArray({ limit: 1000 });
      expect(changes).toHaveLength(persisting);
      expect(new Set(changes.map((c) => `${c.name} ${c.url}`)).size).toBe(persisting);
      expect(changes.every((c) => c.kind === 'issue_persisting' && c.status_code === null && typeof c.details === 'string')).toBe(true);
      expect(await owner.crawls.changes.list({ crawl: second.id, kind: 'issue_new' }).toArray({ limit: 10 })).toEqual([]);
      const errors = await owner.crawls.changes.list({ crawl: second.id, severity: 'error' }).toArray({ limit: 1000 });
      expect(errors).toHaveLength(summary.issues.persisting.error);
      const refused = await owner.crawls.changes.list({ crawl: second.id, kind: 'issue_gone' as 'issue_new' }).catch((e: unknown) => e);
      expect(Object.keys((refused as ValidationError).errors ?? {})).toEqual(['kind']);

      const fixes = await owner.crawls.recommendations({ crawl: second.id, limit: 2 }).toArray({ limit: 1000 });
      const checks = (await owner.crawls.issues.summary({ crawl: second.id })).groups;
      expect(fixes.map((f) => f.name).sort()).toEqual(checks.map((g) => g.name).sort());
      // Errors, warnings, notices; then most pages (a site-wide check: every page); then most score points won (a notice wins none).
      const rank = { error: 0, warning: 1, info: 2 } as const;
      const affected = (f: { name: string; pages: number }) => (isSiteWideCheck(f.name) ? Infinity : f.pages);
      for (let i = 1; i < fixes.length; i++) {
        const [a, b] = [fixes[i - 1], fixes[i]];
        expect(rank[a.severity] < rank[b.severity] || (a.severity === b.severity && (affected(a) > affected(b) || (affected(a) === affected(b) && a.score_points >= b.score_points)))).toBe(true);
      }
      for (const fix of fixes) {
        if (fix.severity === 'info') expect(fix.score_points).toBe(0);
        expect(fix.occurrences).toBe(checks.find((g) => g.name === fix.name)!.occurrences);
        expect(fix.advice.length).toBeGreaterThan(10);
        expect(fix.label.length).toBeGreaterThan(0);
      }

      // Every crawl sent crawl.completed and recommendations.ready; nothing regressed, so no signal.
      const deliveries = await owner.webhooks.deliveries({ webhook: hook.id }).toArray({ limit: 100 });
      expect(deliveries.map((d) => d.event_type).sort()).toEqual(['crawl.completed', 'crawl.completed', 'recommendations.ready', 'recommendations.ready']);
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

      // The refusal's detail is in the caller's language, as its title; the code never is.
      const pause = (language: string) =>
        fetch(`${target.baseUrl}/v1/projects/${project.id}/tracked-keywords/pause`, {
          method: 'POST',
          headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json', 'accept-language': language },
          body: JSON.stringify({ keywords: ['never tracked'] }),
        }).then((r) => r.json());
      const [fr, en] = [await pause('fr'), await pause('en')];
      expect([fr.code, en.code]).toEqual(['keywords.not_tracked', 'keywords.not_tracked']);
      expect(fr.detail).toBe('« never tracked » n’est pas suivi dans ce projet');
      expect(en.detail).toBe('"never tracked" is not tracked in this project');
    });

    it('holds paused keywords in the project ceiling but not in the pool, and sums up the read', async () => {
      const owner = connect(await target.teamToken(`kw-${target.name}`, 'keywords'));
      const project = await owner.projects.create({ url: target.siteUrl });
      await owner.positions.track({ project: project.id, keywords: ['alpha', 'beta'] });
      await owner.positions.pause({ project: project.id, keywords: ['beta'] });

      const paused = await owner.positions.get({ project: project.id });
      // The mock measures on `advance()`, as a server with a SERP provider does; the server here
      // has none, and says so (docs/decisions/positions.md).
      expect(paused.status).toBe(target.name === 'mock' ? 'pending' : 'unconfigured');
      expect(paused.keywords.map((k) => [k.keyword, k.active, k.measured])).toEqual([
        ['alpha', true, false],
        ['beta', false, false],
      ]);
      expect(paused.summary).toEqual({
        average_position: null,
        ranking_keywords: 0,
        measured_keywords: 0,
        tracked_keywords: 2,
        top3: 0,
        top10: 0,
        visibility_percent: null,
        improved: 0,
        declined: 0,
        entered: 0,
        exited: 0,
      });
      expect(paused.quota).toEqual({ used: 1, limit: 3, remaining: 2 });
      expect(paused.tracker).toMatchObject({ active: true, last_tracked_on: null });

      // The pool has room (1 + 1 of 3), but the project holds 2 keywords, paused included.
      const ceiling = await owner.positions.track({ project: project.id, keywords: ['gamma'] }).catch((e: unknown) => e);
      expect(ceiling).toBeInstanceOf(PermissionError);
      expect((ceiling as PermissionError).code).toBe('keywords.project_limit');

      // Resuming checks the pool only: a paused keyword already holds its place in the project.
      expect(await owner.positions.resume({ project: project.id, keywords: ['beta'] })).toMatchObject({ active: true, changed: ['beta'] });
      const resumed = await owner.positions.get({ project: project.id });
      expect(resumed.keywords.every((k) => k.active)).toBe(true);
      expect(resumed.quota).toEqual({ used: 2, limit: 3, remaining: 1 });

      // Another project has its own ceiling, but shares the team's pool.
      const other = await owner.projects.create({ url: target.siteUrl });
      await owner.positions.track({ project: other.id, keywords: ['delta'] });
      const pool = await owner.positions.track({ project: other.id, keywords: ['epsilon'] }).catch((e: unknown) => e);
      expect(pool).toBeInstanceOf(PermissionError);
      expect((pool as PermissionError).code).toBe('plan_limit.positions.tracked_keywords');

      const period = resumed.period;
      expect(Date.parse(`${period.to}T00:00:00Z`) - Date.parse(`${period.from}T00:00:00Z`)).toBe(29 * DAY_MS);
      expect(period.to).toBe(target.now().toISOString().slice(0, 10));
    });

    it('never refuses untracking by billing, even on a read-only plan', async () => {
      const slug = `exempt-${target.name}`;
      const owner = connect(await target.teamToken(slug, 'keywords'));
      const project = await owner.projects.create({ url: target.siteUrl });
      await owner.positions.track({ project: project.id, keywords: ['alpha', 'beta'] });
      await target.setPlan(slug, 'starter');

      const paused = await owner.positions.pause({ project: project.id, keywords: ['alpha'] }).catch((e: unknown) => e);
      expect(paused).toBeInstanceOf(PermissionError);
      expect((paused as PermissionError).code).toBe('api.write_not_in_plan');
      expect(await owner.positions.untrack({ project: project.id, keywords: ['alpha'] })).toMatchObject({ untracked: ['alpha'] });
      const read = await owner.positions.get({ project: project.id });
      expect(read.keywords.map((k) => k.keyword)).toEqual(['beta']);
    });

    it('explains each plan refusal in the caller’s language, French by default', async () => {
      const token = await target.teamToken(`meagre-${target.name}`, 'meagre');
      const owner = connect(token);
      const send = async (method: string, path: string, body?: unknown, language?: string) => {
        const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': `meagre-${target.name}-${Math.random()}` };
        if (language) headers['accept-language'] = language;
        const res = await fetch(`${target.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
        return { status: res.status, language: res.headers.get('content-language'), body: (await res.json()) as { code?: string; detail?: string } };
      };
      const refusal = (code: string, detail: string, language = 'fr') => ({ status: 403, language, body: expect.objectContaining({ code, detail }) });
      const project = await owner.projects.create({ url: target.siteUrl });
      const [campaign] = (await owner.campaigns.list({ project: project.id })).data;

      expect(await send('PATCH', `/v1/campaigns/${campaign.id}`, { max_urls: 1000 })).toEqual(refusal('plan_limit.crawls.max_urls', 'max_urls 1000 dépasse 50'));
      expect(await send('PATCH', `/v1/campaigns/${campaign.id}`, { max_urls: 1000 }, 'en')).toEqual(refusal('plan_limit.crawls.max_urls', 'max_urls 1000 exceeds 50', 'en'));
      expect(await send('PATCH', `/v1/campaigns/${campaign.id}`, { schedule: { frequency: 'daily' } })).toEqual(
        refusal('plan_limit.crawls.schedule_frequency', 'la fréquence daily n’est pas incluse dans le forfait Meagre'),
      );

      await owner.waitForCrawl((await owner.crawls.launch({ campaign: campaign.id })).id, POLL);
      expect(await send('POST', `/v1/campaigns/${campaign.id}/crawls`)).toEqual(refusal('plan_limit.crawls.monthly', 'crawls utilisés ce mois-ci : 1 sur 1'));
      expect(await send('POST', `/v1/campaigns/${campaign.id}/crawls`, undefined, 'en')).toEqual(refusal('plan_limit.crawls.monthly', '1 of 1 crawls used this month', 'en'));

      const keywords = `/v1/projects/${project.id}/tracked-keywords`;
      expect(await send('POST', keywords, { keywords: ['alpha', 'beta'] })).toEqual(
        refusal('plan_limit.positions.tracked_keywords', '2 mot(s)-clé(s) de plus occuperaient 2 des 1 places de mots-clés suivis de votre forfait (0 occupées)'),
      );
      expect((await send('POST', keywords, { keywords: ['alpha'] })).status).toBe(200);
      expect(await send('POST', `${keywords}/check`, { keyword: 'alpha' })).toEqual(
        refusal('plan_limit.positions.live_checks_per_day', 'vérifications immédiates utilisées aujourd’hui (UTC) : 0 sur 0'),
      );
      expect(await send('POST', `${keywords}/check`, { keyword: 'alpha' }, 'en')).toEqual(
        refusal('plan_limit.positions.live_checks_per_day', '0 of 0 live checks used today (UTC)', 'en'),
      );
    });

    it('computes next_run_at of a schedule in UTC, with its defaults', async () => {
      const project = await client.projects.create({ url: target.siteUrl });
      const create = (schedule: Parameters<typeof client.campaigns.create>[0]['schedule']) =>
        client.campaigns.create({ project: project.id, name: 'Scheduled', start_url: target.siteUrl, max_depth: 2, max_urls: 10, schedule });
      const within = (at: string | null, before: Date, after: Date, days: number) => {
        expect(at).not.toBeNull();
        const t = Date.parse(at!);
        expect(t).toBeGreaterThan(before.getTime());
        expect(t).toBeLessThanOrEqual(after.getTime() + days * DAY_MS);
        return new Date(t);
      };

      let before = target.now();
      const weekly = await create({ frequency: 'weekly', day: 'friday', time: '06:30' });
      let next = within(weekly.schedule.next_run_at, before, target.now(), 7);
      expect(weekly.schedule).toMatchObject({ frequency: 'weekly', day: 'friday', time: '06:30', paused: false });
      expect([WEEKDAYS[(next.getUTCDay() + 6) % 7], next.getUTCHours(), next.getUTCMinutes()]).toEqual(['friday', 6, 30]);

      before = target.now();
      const defaults = await create({ frequency: 'weekly' });
      next = within(defaults.schedule.next_run_at, before, target.now(), 7);
      expect(defaults.schedule).toMatchObject({ day: 'monday', time: '03:00' });
      expect([next.getUTCDay(), next.getUTCHours(), next.getUTCMinutes()]).toEqual([1, 3, 0]);

      before = target.now();
      const monthly = await client.campaigns.update({ campaign: defaults.id, schedule: { frequency: 'monthly', day: '1', time: '23:45' } });
      next = within(monthly.schedule.next_run_at, before, target.now(), 31);
      expect([next.getUTCDate(), next.getUTCHours(), next.getUTCMinutes()]).toEqual([1, 23, 45]);

      const paused = await client.campaigns.update({ campaign: weekly.id, schedule: { frequency: 'daily', paused: true } });
      expect(paused.schedule).toMatchObject({ frequency: 'daily', day: null, time: '03:00', paused: true, next_run_at: null });
      const manual = await create({ frequency: 'manual', day: 'monday', time: '10:00' });
      expect(manual.schedule).toEqual({ frequency: 'manual', day: null, time: null, paused: false, next_run_at: null });
    });

    it('sends the rate-limit headers, answers 304 for free, 401 with a challenge and 405 with Allow', async () => {
      const auth = { authorization: `Bearer ${target.token}` };
      // A project does not change between reads (GET /v1/me shows the token's last use, which does).
      const resource = `${target.baseUrl}/v1/projects/${(await client.projects.create({ url: target.siteUrl })).id}`;
      const first = await fetch(resource, { headers: auth });
      expect(first.status).toBe(200);
      expect(first.headers.get('x-request-cost')).toBe('1');
      expect(first.headers.get('ratelimit-policy')).toBe('"minute";q=600;w=60, "day";q=100000;w=86400');
      expect(first.headers.get('ratelimit')).toMatch(/^"minute";r=\d+;t=\d+, "day";r=\d+;t=\d+$/);
      expect(first.headers.get('x-ratelimit-limit')).toBe('600');
      expect(Number(first.headers.get('x-ratelimit-remaining'))).toBeLessThan(600);
      expect(Number(first.headers.get('x-ratelimit-reset'))).toBeGreaterThanOrEqual(1);
      expect(first.headers.get('vary')).toBe('Authorization, Accept-Language, Accept-Encoding');
      const etag = first.headers.get('etag')!;
      expect(etag).toBeTruthy();

      // Weak comparison over the list; `*` anywhere in it matches the current representation.
      for (const ifNoneMatch of [etag, etag.replace(/^W\//, ''), `W/"other", ${etag}`, 'W/"other", *']) {
        const again = await fetch(resource, { headers: { ...auth, 'if-none-match': ifNoneMatch } });
        expect(again.status, ifNoneMatch).toBe(304);
        expect(again.headers.get('x-request-cost')).toBe('0');
      }
      // /v1/me and /v1/usage change on every call: they take no If-None-Match, `*` included.
      for (const path of ['/v1/me', '/v1/usage']) {
        const always = await fetch(`${target.baseUrl}${path}`, { headers: { ...auth, 'if-none-match': '*' } });
        expect(always.status, path).toBe(200);
      }
      const changed = await fetch(resource, { headers: { ...auth, 'if-none-match': 'W/"other"' } });
      expect(changed.status).toBe(200);

      const anonymous = await fetch(`${target.baseUrl}/v1/me`);
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('www-authenticate')).toBe('Bearer realm="siteaudit"');
      // A token that is no longer (or never was) good: RFC 6750's invalid_token, so a client knows to get a new one.
      for (const token of ['sa_not_a_token', `sa_${'x'.repeat(43)}`]) {
        const stale = await fetch(`${target.baseUrl}/v1/me`, { headers: { authorization: `Bearer ${token}` } });
        expect(stale.status).toBe(401);
        expect(stale.headers.get('www-authenticate')).toBe('Bearer realm="siteaudit", error="invalid_token"');
      }
      const otherScheme = await fetch(`${target.baseUrl}/v1/me`, { headers: { authorization: 'Basic dXNlcjpwYXNz' } });
      expect(otherScheme.headers.get('www-authenticate')).toBe('Bearer realm="siteaudit"');

      const wrongMethod = await fetch(`${target.baseUrl}/v1/projects/`, { method: 'PUT', headers: auth });
      expect(wrongMethod.status).toBe(405);
      expect(wrongMethod.headers.get('allow')).toBe('GET, HEAD, POST');

      // HEAD is a GET without its body, where Allow says so.
      const head = await fetch(`${target.baseUrl}/v1/me`, { method: 'HEAD', headers: auth });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-type')).toMatch(/application\/json/);
      expect(await head.text()).toBe('');
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
      const project = await newProject();
      const scorecard = await client.projects.scorecard({ project: project.id });
      expect(scorecard.pillars.map((p) => p.key)).toEqual(['technique', 'contenu', 'accessibilite', 'acquisition', 'logs']);
      expect(scorecard).not.toHaveProperty('average');
      const logs = scorecard.pillars.find((p) => p.key === 'logs')!;
      // Measurable once a log is imported (extension): none yet, so null, never 0.
      expect(logs).toMatchObject({ available: true, score: null, blocked_reason: 'no_logs' });
      // No Search Console property linked (the read says unconfigured): the pillar says so. Both
      // targets synchronise a property once linked (the server with its default Google provider).
      expect(await client.searchConsole.get({ project: project.id })).toMatchObject({ status: 'unconfigured', sync: { available: true, reason: null } });
      const acquisition = scorecard.pillars.find((p) => p.key === 'acquisition')!;
      expect(acquisition).toMatchObject({ score: null, blocked_reason: 'search_console_not_linked' });
    });

    it('takes cover branding on an export request (extension), and refuses a logo that is not a small PNG or JPEG', async () => {
      const project = await newProject();
      const campaign = (await client.campaigns.list({ project: project.id })).data[0];
      const crawl = await client.waitForCrawl((await client.crawls.launch({ campaign: campaign.id })).id, POLL);
      const logo = dataUrl('png', png(64, 24));
      const requested = await client.exports.create({ crawl: crawl.id, format: 'pdf', branding: { agency_name: 'Agence Dupont', logo } });
      expect((await client.waitForExport(requested.id, POLL)).status).toBe('ready');
      const refused = await client.exports.create({ crawl: crawl.id, format: 'pdf', branding: { logo: 'https://agency.example/logo.png' } }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ValidationError);
      expect(Object.keys((refused as ValidationError).errors ?? {})).toEqual(['branding.logo']);
      const empty = await client.exports.create({ crawl: crawl.id, format: 'pdf', branding: {} }).catch((e: unknown) => e);
      expect(empty).toBeInstanceOf(ValidationError);
    });

    it('gives each pillar with its inputs: the axes multiply to the crawl pillars, the checks make the axes', async () => {
      const project = await newProject();
      const campaign = (await client.campaigns.list({ project: project.id })).data[0];
      await client.waitForCrawl((await client.crawls.launch({ campaign: campaign.id })).id, POLL);
      const scorecard = await client.projects.scorecard({ project: project.id });
      for (const key of ['technique', 'contenu'] as const) {
        const p = scorecard.pillars.find((x) => x.key === key)!;
        expect(p.computation.method).toBe('product');
        if (p.score === null) continue;
        const exact = 100 * p.axes.filter((a) => a.weight > 0).reduce((f, a) => f * a.factor!, 1);
        expect(exact).toBeCloseTo(p.computation.exact!, 9);
        expect(Math.round(exact)).toBe(p.score);
        for (const axis of p.axes.filter((a) => a.weight > 0)) {
          expect(axis.factor!).toBeCloseTo(Math.exp(-axis.checks.reduce((sum, c) => sum + c.weight * Math.sqrt(c.share), 0)), 12);
          for (const c of axis.checks) {
            // Each share is of the pages its check judges: every scored URL, or the HTML pages among them.
            expect([p.computation.scored_pages, p.computation.html_pages]).toContain(c.judged_pages);
            expect(c.share).toBeCloseTo(c.site ? 1 : c.pages / c.judged_pages, 12);
          }
        }
      }
      expect(scorecard.pillars[0].score).not.toBeNull();
      expect(scorecard.pillars.find((x) => x.key === 'logs')!.computation.method).toBe('weighted_mean');
    });

    it('imports an access log (extension): parsed, bots classified and verified, failed claims counted per day only, joined with the crawl, scored', async () => {
      const project = await newProject();
      const campaign = (await client.campaigns.list({ project: project.id })).data[0];
      await client.waitForCrawl((await client.crawls.launch({ campaign: campaign.id })).id, POLL);
      const day = new Date(target.now().getTime() - DAY_MS);
      const stamp = yesterdayStamp();
      const googlebot = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
      const log = [
        `66.249.66.1 - - [${stamp}] "GET / HTTP/1.1" 200 512 "-" "${googlebot}"`,
        `66.249.66.1 - - [${stamp}] "GET /gone HTTP/1.1" 404 128 "-" "${googlebot}"`,
        `203.0.113.9 - - [${stamp}] "GET /admin HTTP/1.1" 404 128 "-" "${googlebot}"`,
        `203.0.113.9 - - [${stamp}] "GET /users/jane.doe@example.com/profile?phone=+33699999999 HTTP/1.1" 200 128 "-" "${googlebot}"`,
        `40.77.167.9 - - [${stamp}] "GET / HTTP/1.1" 200 512 "-" "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"`,
        `192.0.2.1 - - [${stamp}] "GET / HTTP/1.1" 200 512 "-" "Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0"`,
        'not a log line',
      ].join('\n');
      const queued = await client.logs.imports.create({ project: project.id, file: log, content_type: 'text/plain' }, { idempotencyKey: `log-${project.id}` });
      expect(queued).toMatchObject({ status: 'queued', size_bytes: log.length });
      const done = await importCompleted(project.id, queued);
      expect(done).toMatchObject({ status: 'completed', format: 'combined', lines: { read: 7, kept: 6, refused: 1 }, refusals: [{ line: 7, reason: 'unrecognised_format' }], human_hits: 1, bot_hits: 5 });

      // The claims from outside Google's ranges keep no path: not listed, and the unverified filter lists nothing.
      const urls = await client.logs.urls({ project: project.id, limit: 100 });
      expect(urls.data.map((u) => `${u.family} ${u.verification} ${u.path}`)).toEqual(['bingbot verified /', 'googlebot verified /', 'googlebot verified /gone']);
      expect((await client.logs.urls({ project: project.id, verification: 'unverified' })).data).toEqual([]);
      const findings = await client.logs.findings({ project: project.id, kind: 'not_in_crawl' });
      expect(findings.data.map((f) => f.path)).toContain('/gone');
      const insights = await client.logs.insights({ project: project.id });
      expect(insights.hits).toEqual({ bots: 3, unverified_claims: 2, humans: 1 });
      expect(insights.families).toContainEqual({ family: 'googlebot', verification: 'unverified', hits: 2, urls: 0, last_visit: null });
      const claims = await client.logs.days({ project: project.id, family: 'googlebot' });
      expect(claims.data.filter((d) => d.verification === 'unverified')).toEqual([
        { date: day.toISOString().slice(0, 10), family: 'googlebot', verification: 'unverified', status_class: '2xx', hits: 1 },
        { date: day.toISOString().slice(0, 10), family: 'googlebot', verification: 'unverified', status_class: '4xx', hits: 1 },
      ]);
      const days = await client.logs.days({ project: project.id, family: 'human' });
      expect(days.data).toEqual([{ date: day.toISOString().slice(0, 10), family: 'human', verification: 'not_applicable', status_class: '2xx', hits: 1 }]);

      const logsPillar = (await client.projects.scorecard({ project: project.id })).pillars.find((p) => p.key === 'logs')!;
      expect(logsPillar).toMatchObject({ available: true, status: 'measured' });
      expect(logsPillar.axes.find((a) => a.key === 'waste')!.score).toBe(67);
    });

    it('keeps the path of a shared link a preview fetched without its query string or a token in it; a crawler keeps its (extension)', async () => {
      const project = await newProject();
      const stamp = yesterdayStamp();
      const slack = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';
      const log = [
        `54.209.1.1 - - [${stamp}] "GET /invite?token=4f2a9c&email=jane.doe%40example.com HTTP/1.1" 200 512 "-" "${slack}"`,
        `54.209.1.1 - - [${stamp}] "GET /invite?token=77b1e0&email=john%40example.org HTTP/1.1" 200 512 "-" "${slack}"`,
        `54.209.1.1 - - [${stamp}] "GET /reset/MQ/5ur-3d2f2f0c9b7e4a6c8d1e/ HTTP/1.1" 200 512 "-" "${slack}"`,
        `66.249.66.1 - - [${stamp}] "GET /search?q=shoes HTTP/1.1" 200 512 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"`,
      ].join('\n');
      const queued = await client.logs.imports.create({ project: project.id, file: log, content_type: 'text/plain' });
      const done = await importCompleted(project.id, queued);
      expect(done).toMatchObject({ status: 'completed', bot_hits: 4 });
      const urls = await client.logs.urls({ project: project.id, limit: 100 });
      expect(urls.data.map((u) => `${u.family} ${u.path} ${u.hits}`).sort()).toEqual(['googlebot /search?q=shoes 1', 'social_preview /invite 2', 'social_preview /reset/MQ/(token)/ 1']);
    });

    it('keeps no e-mail address of a bot\'s target, and no query of a fetch a person set off (extension)', async () => {
      const project = await newProject();
      const stamp = yesterdayStamp();
      const googlebot = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
      const chatgptUser = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot';
      const log = [
        `66.249.66.1 - - [${stamp}] "GET /users/profile?email=bob%40example.com&tab=2 HTTP/1.1" 200 512 "-" "${googlebot}"`,
        `::ffff:66.249.66.1 - - [${stamp}] "GET /contact/alice@example.org HTTP/1.1" 200 512 "-" "${googlebot}"`,
        `23.98.142.176 - - [${stamp}] "GET /reset?token=4f2a9c&email=gina%40example.com HTTP/1.1" 200 512 "-" "${chatgptUser}"`,
      ].join('\n');
      const queued = await client.logs.imports.create({ project: project.id, file: log, content_type: 'text/plain' });
      const done = await importCompleted(project.id, queued);
      expect(done).toMatchObject({ status: 'completed', bot_hits: 3 });
      const urls = await client.logs.urls({ project: project.id, limit: 100 });
      expect(urls.data.map((u) => `${u.family} ${u.path}`).sort()).toEqual(['ai_search /reset', 'googlebot /contact/(email)', 'googlebot /users/profile?email=(email)&tab=2']);
    });

    it("keeps no credential or session id of a crawler's target: the parameter's name stays, its value is (redacted) (extension)", async () => {
      const project = await newProject();
      const stamp = yesterdayStamp();
      const googlebot = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
      const log = [
        `66.249.66.1 - - [${stamp}] "GET /catalogue?PHPSESSID=9h3kq0v1&page=2 HTTP/1.1" 200 512 "-" "${googlebot}"`,
        `66.249.66.1 - - [${stamp}] "GET /cart;jsessionid=0A1B2C3D HTTP/1.1" 200 512 "-" "${googlebot}"`,
        `66.249.66.1 - - [${stamp}] "GET /oauth/callback?code=4%2F0Adeu&state=af0ifj HTTP/1.1" 302 0 "-" "${googlebot}"`,
        `66.249.66.1 - - [${stamp}] "GET /f.pdf?X-Amz-Credential=AKIAX%2F20261130&X-Amz-Signature=3f9a&X-Amz-Date=20261130T000000Z HTTP/1.1" 403 0 "-" "${googlebot}"`,
        `66.249.66.1 - - [${stamp}] "GET /promo?code=SUMMER20 HTTP/1.1" 200 512 "-" "${googlebot}"`,
      ].join('\n');
      const queued = await client.logs.imports.create({ project: project.id, file: log, content_type: 'text/plain' });
      const done = await importCompleted(project.id, queued);
      expect(done).toMatchObject({ status: 'completed', bot_hits: 5 });
      const urls = await client.logs.urls({ project: project.id, limit: 100 });
      expect(urls.data.map((u) => `${u.family} ${u.path}`).sort()).toEqual([
        'googlebot /cart;jsessionid=(redacted)',
        'googlebot /catalogue?PHPSESSID=(redacted)&page=2',
        'googlebot /f.pdf?X-Amz-Credential=(redacted)&X-Amz-Signature=(redacted)&X-Amz-Date=20261130T000000Z',
        'googlebot /oauth/callback?code=(redacted)&state=(redacted)',
        'googlebot /promo?code=SUMMER20',
      ]);
    });

    it('refuses a line over 64 KiB unread, as line_too_long, whatever it holds (extension)', async () => {
      const project = await newProject();
      const stamp = yesterdayStamp();
      const googlebot = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
      const log = [`66.249.66.1 - - [${stamp}] "GET / HTTP/1.1" 200 512 "-" "${googlebot}"`, `66.249.66.1 - - [${stamp}] "GET /${'a'.repeat(70_000)} HTTP/1.1" 414 0 "-" "${googlebot}"`].join('\r\n');
      const queued = await client.logs.imports.create({ project: project.id, file: log, content_type: 'text/plain' });
      const done = await importCompleted(project.id, queued);
      expect(done).toMatchObject({ status: 'completed', lines: { read: 2, kept: 1, refused: 1 }, refusals: [{ line: 2, reason: 'line_too_long' }], bot_hits: 1 });
      expect((await client.logs.urls({ project: project.id, limit: 100 })).data.map((u) => u.path)).toEqual(['/']);
    });

    it('deleting a log import removes the reports made since it completed, which may show its paths; one made before stays (extension)', async () => {
      const project = await newProject();
      const campaign = (await client.campaigns.list({ project: project.id })).data[0];
      const crawl = await client.waitForCrawl((await client.crawls.launch({ campaign: campaign.id })).id, POLL);
      const before = await client.waitForExport((await client.exports.create({ crawl: crawl.id, format: 'pdf' })).id, POLL);
      expect(before.status).toBe('ready');
      const stamp = yesterdayStamp();
      const log = `66.249.66.1 - - [${stamp}] "GET /private-offer HTTP/1.1" 200 512 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"`;
      const queued = await client.logs.imports.create({ project: project.id, file: log, content_type: 'text/plain' });
      const done = await importCompleted(project.id, queued);
      expect(done.status).toBe('completed');
      // Made once the import completed (a report's time is its own clock's: wait past the second).
      await new Promise((r) => setTimeout(r, 1100));
      const after = await client.waitForExport((await client.exports.create({ crawl: crawl.id, format: 'xlsx' })).id, POLL);
      expect(after.status).toBe('ready');
      await client.logs.imports.delete({ project: project.id, import: queued.id });
      expect(await client.exports.get({ export: after.id }).catch((e: unknown) => e)).toBeInstanceOf(NotFoundError);
      expect((await client.exports.get({ export: before.id })).status).toBe('ready');
    });

    it('keeps what decompresses of a gzip cut short, says so, and refuses the cut line (extension)', async () => {
      const project = await newProject();
      const lines = Array.from({ length: 3000 }, (_, i) => `192.0.2.1 - - [09/Mar/2026:08:00:00 +0000] "GET /p/${i}-${(i * 2654435761) % 1e9} HTTP/1.1" 200 ${i} "-" "Firefox/${i}"`);
      const full = gzipSync(lines.join('\n'));
      let cut = full.subarray(0, full.length >> 1);
      while (gunzipSync(cut, { finishFlush: zlibConstants.Z_SYNC_FLUSH }).toString().endsWith('\n')) cut = full.subarray(0, cut.length + 1);
      const text = gunzipSync(cut, { finishFlush: zlibConstants.Z_SYNC_FLUSH });
      const whole = text.toString().split('\n').length - 1;
      const queued = await client.logs.imports.create({ project: project.id, file: new Uint8Array(cut), content_type: 'application/gzip' });
      const done = await importCompleted(project.id, queued);
      expect(done).toMatchObject({ status: 'completed', lines: { read: whole + 1, kept: whole, refused: 1 }, refusals: [{ line: whole + 1, reason: 'truncated_line' }], truncation: { inflated_bytes: text.length, partial_line: true } });
    });
  });
}
