/**
 * GET /v1/projects/{project}/scorecard over HTTP, on both databases: five pillars, no global
 * average, null (never 0) with a reason when a pillar cannot be measured; technique from the
 * latest settled crawl; content and GEO with AI reachability (whose checks are verified here
 * through the API); accessibility from axe findings (100 when a crawl ran the rules and found
 * nothing); Search Console acquisition from the daily series; logs unavailable.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { healthScore } from '../../src/crawler/run/score.js';
import { checkBasis, isHtmlPage, type ScoredPages } from '@siteaudit/schema/rules';
import { acquisitionScore, expectedCtr } from '../../src/modules/scorecard/formulas.js';
import { BROWSER_TIMEOUT, HAS_CHROMIUM, SKIP_NOTE, page, serve, type LocalSite } from '../../../../tests/support/rendering.js';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { allIssues, crawlToSettled, pathOf, projectWithCampaign } from './support/crawl-flow.js';
import { startSite, type Site } from '../../../../tests/support/site.js';

let h: Harness;
let site: Site;
let aiSite: LocalSite;
let cleanSite: LocalSite;

const AI_ROBOTS = 'User-agent: *\nAllow: /\n\nUser-agent: GPTBot\nDisallow: /\n\nUser-agent: OAI-SearchBot\nDisallow: /\n\nUser-agent: CCBot\nDisallow: /private/\n';

beforeAll(async () => {
  h = await startHarness({ plans: { starter: { limits: { search_console: 0 } } } });
  site = await startSite();
  aiSite = await serve({
    '/': { body: page({ body: '<main><h1>AI reachability</h1><a href="/about">About</a></main>' }) },
    '/about': { body: page({ body: '<main><h1>About</h1><a href="/">Home</a></main>' }) },
    '/robots.txt': { type: 'text/plain', body: AI_ROBOTS },
    '/llms.txt': { type: 'text/plain', body: 'A site without a title line\n\n- [About](/about)\n' },
  });
  cleanSite = await serve({
    '/': { body: page({ body: '<main><h1>A clean page</h1><p>Readable text.</p><a href="/next">Next page</a></main>' }) },
    '/next': { body: page({ body: '<main><h1>Next page</h1><p>More readable text.</p><a href="/">Home</a></main>' }) },
    '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nAllow: /\n' },
  });
});
afterAll(async () => {
  await h?.close();
  await site?.close();
  await aiSite?.close();
  await cleanSite?.close();
});

const scorecard = async (projectId: string, token?: string) => {
  const res = await h.call('GET', `/v1/projects/${projectId}/scorecard`, { token });
  expect(res.status).toBe(200);
  return (await res.json()).data;
};
const pillar = (card: { pillars: { key: string }[] }, key: string) => card.pillars.find((p) => p.key === key) as any;

/** The scorecard formula on issues read through the API, over the crawl's scored pages. */
function expectedScore(issues: { name: string; severity: 'error' | 'warning' | 'info'; url: string }[], scored: ScoredPages): number | null {
  const byName = new Map<string, { severity: 'error' | 'warning' | 'info'; urls: Set<string> }>();
  for (const i of issues) {
    const entry = byName.get(i.name) ?? { severity: i.severity, urls: new Set<string>() };
    entry.urls.add(i.url);
    byName.set(i.name, entry);
  }
  return healthScore({ ...scored, checks: [...byName].map(([name, c]) => ({ severity: c.severity, pages: c.urls.size, basis: checkBasis(name) })) });
}

/** The crawl's scored URLs and, of them, its HTML pages answering 2xx, counted here from its stored pages. */
async function scoredOf(crawlId: string): Promise<ScoredPages> {
  const pages = (await h.knex('crawl_pages').where({ crawl_id: crawlId, is_internal: true })) as { is_internal: unknown; error_type: string | null; status_code: number | null; content_type: string | null }[];
  const scored = pages.filter((p) => p.error_type !== 'protection');
  return { pages: scored.length, htmlPages: scored.filter((p) => isHtmlPage({ ...p, is_internal: true })).length };
}

describe('scorecard', () => {
  it('has five pillars and no global average; with no crawl, every pillar is null with a reason', async () => {
    const project = (await (await h.call('POST', '/v1/projects', { body: { url: `${site.url}/` } })).json()).data;
    const card = await scorecard(project.id);
    expect(Object.keys(card).sort()).toEqual(['pillars', 'project_id']);
    expect(card.pillars.map((p: { key: string }) => p.key)).toEqual(['technique', 'contenu', 'accessibilite', 'acquisition', 'logs']);
    for (const p of card.pillars) expect(p.score).toBeNull();
    expect(pillar(card, 'technique')).toMatchObject({ status: 'not_measured', available: true, blocked_reason: 'no_completed_crawl' });
    expect(pillar(card, 'accessibilite')).toMatchObject({ status: 'not_measured', blocked_reason: 'accessibility_not_checked' });
    expect(pillar(card, 'acquisition')).toMatchObject({ status: 'not_measured', blocked_reason: 'search_console_not_linked' });
    // Log exploration is measurable once a log is imported (modules/logs): none yet, so null with its reason, never 0.
    expect(pillar(card, 'logs')).toMatchObject({ status: 'not_measured', available: true, score: null, blocked_reason: 'no_logs' });
  });

  it('scores technique and content from the latest settled crawl', async () => {
    const { project, campaign } = await projectWithCampaign(h, site.url);
    const crawl = await crawlToSettled(h, campaign.id);
    const card = await scorecard(project.id);
    const row = await h.knex('crawls').where({ id: crawl.id }).first('health_score');
    const technique = pillar(card, 'technique');
    expect(technique).toMatchObject({ score: Math.round(Number(row.health_score)), status: 'measured', as_of: crawl.finished_at, blocked_reason: null, version: 1 });
    expect(technique.axes.map((a: { key: string }) => a.key)).toEqual(['http', 'indexability', 'canonicals', 'robots_sitemaps', 'links_images', 'international', 'performance_security', 'content_checks']);

    const issues = await allIssues(h, crawl.id);
    const contentIssues = issues.filter((i) => ['titles', 'content', 'structured_data'].includes(i.category));
    const content = pillar(card, 'contenu');
    expect(content).toMatchObject({ status: 'measured', score: expectedScore(contentIssues, await scoredOf(crawl.id)), blocked_reason: 'ai_reachability_not_checked' });
    expect(content.axes.find((a: { key: string }) => a.key === 'ai_reachability')).toEqual({ key: 'ai_reachability', score: null, weight: 0, factor: null, checks: [] });
    expect(pillar(card, 'accessibilite')).toMatchObject({ score: null, blocked_reason: 'accessibility_not_checked' });
  });

  it('scores the international axis on what it found: two language versions without hreflang are one site-wide warning', async () => {
    const links = '<a href="/">en</a> <a href="/guide">guide</a> <a href="/fr/">fr</a> <a href="/fr/guide">guide fr</a>';
    const translated = await serve({
      '/': { body: page({ body: `<main><h1>Home</h1><p>Welcome to the guide.</p>${links}</main>` }) },
      '/guide': { body: page({ body: `<main><h1>Guide</h1><p>How to use it.</p>${links}</main>` }) },
      '/fr/': { body: page({ lang: 'fr', body: `<main><h1>Accueil</h1><p>Bienvenue dans le guide.</p>${links}</main>` }) },
      '/fr/guide': { body: page({ lang: 'fr', body: `<main><h1>Guide</h1><p>Comment s’en servir.</p>${links}</main>` }) },
      '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nAllow: /\n' },
    });
    try {
      const { project, campaign } = await projectWithCampaign(h, translated.url);
      const crawl = await crawlToSettled(h, campaign.id);
      const international = (await allIssues(h, crawl.id, '&category=international')).map((i) => [i.name, i.severity, pathOf(i.url), i.details.replaceAll(translated.url, '')]);
      expect(international).toEqual([['hreflang_missing', 'warning', '/', '2 language versions, no hreflang: en (2 page(s), e.g. /), fr (2 page(s), e.g. /fr/)']]);
      const technique = pillar(await scorecard(project.id), 'technique');
      // A site-wide warning: 100 × exp(−0.12), whatever the number of pages.
      expect(technique.axes.find((a: { key: string }) => a.key === 'international')).toMatchObject({ key: 'international', score: 89 });
    } finally {
      await translated.close();
    }
  });

  it('gives every score with its inputs, so that a client recomputes it from the issues it reads', async () => {
    const { project, campaign } = await projectWithCampaign(h, site.url);
    const crawl = await crawlToSettled(h, campaign.id);
    const card = await scorecard(project.id);
    const issues = await allIssues(h, crawl.id);
    const scored = await scoredOf(crawl.id);
    expect(scored.htmlPages).toBeLessThan(scored.pages);
    for (const key of ['technique', 'contenu']) {
      const p = pillar(card, key);
      expect(p.computation).toMatchObject({ method: 'product', scored_pages: scored.pages, html_pages: scored.htmlPages });
      // The score: 100 × the product of the factors of the axes that count.
      const exact = 100 * p.axes.filter((a: { weight: number }) => a.weight > 0).reduce((f: number, a: { factor: number }) => f * a.factor, 1);
      expect(exact).toBeCloseTo(p.computation.exact, 9);
      expect(Math.round(exact)).toBe(p.score);
      for (const axis of p.axes.filter((a: { weight: number }) => a.weight > 0)) {
        // An axis: exp(−Σ weight × √share) over its checks, each check as the issues read show it.
        let cost = 0;
        for (const c of axis.checks) {
          const urls = new Set(issues.filter((i) => i.name === c.name).map((i) => i.url));
          // Its share is of the pages it judges: a status check every scored URL, a page check the HTML pages.
          const judged = checkBasis(c.name) === 'page' ? scored.htmlPages : scored.pages;
          expect(c.judged_pages, c.name).toBe(judged);
          expect(c.pages, c.name).toBe(urls.size);
          expect(c.share).toBeCloseTo(c.site ? 1 : urls.size / judged, 12);
          expect(c.weight).toBe({ error: 0.35, warning: 0.12, info: 0 }[c.severity as 'error']);
          expect(c.cost).toBeCloseTo(c.weight * Math.sqrt(c.share), 12);
          cost += c.cost;
        }
        expect(axis.factor).toBeCloseTo(Math.exp(-cost), 12);
        expect(axis.score).toBe(Math.round(100 * axis.factor));
      }
    }
    // Technique: every check the crawl reported (accessibility aside) is behind exactly one axis.
    const technique = pillar(card, 'technique');
    const behind = technique.axes.flatMap((a: { checks: { name: string }[] }) => a.checks.map((c) => c.name)).sort();
    expect(behind).toEqual([...new Set(issues.filter((i) => i.category !== 'accessibility').map((i) => i.name))].sort());
    expect(behind.length).toBeGreaterThan(0);
    // Search Console and logs are means of their axes; without data, nothing to recompute.
    expect(pillar(card, 'acquisition').computation).toEqual({ method: 'weighted_mean', scored_pages: null, html_pages: null, exact: null });
  });

  it('recomputes as the worked example of docs/health-score.md says (the test site, 6 scored URLs, 4 HTML pages)', async () => {
    const { project, campaign } = await projectWithCampaign(h, site.url);
    await crawlToSettled(h, campaign.id);
    const card = await scorecard(project.id);
    const technique = pillar(card, 'technique');
    const axis = (key: string) => technique.axes.find((a: { key: string }) => a.key === key);
    expect(technique).toMatchObject({ score: 28, computation: { method: 'product', scored_pages: 6, html_pages: 4 } });
    expect(technique.computation.exact).toBeCloseTo(28.425, 3);
    expect(axis('http')).toMatchObject({ score: 48, factor: expect.closeTo(0.4829, 4) });
    // The 404 is a share of every scored URL; the page checks of the 4 HTML pages.
    expect(axis('http').checks.map((c: { name: string; pages: number; judged_pages: number }) => [c.name, c.pages, c.judged_pages])).toEqual([
      ['http_page', 4, 4],
      ['broken_internal_link', 1, 4],
      ['http_4xx', 1, 6],
      ['link_to_redirect', 1, 4],
    ]);
    expect(axis('links_images')).toMatchObject({ score: 79, factor: expect.closeTo(0.7906, 4) });
    expect(axis('content_checks')).toMatchObject({ score: 74, factor: expect.closeTo(0.7445, 4) });
    expect(pillar(card, 'contenu')).toMatchObject({ score: 74, computation: { exact: expect.closeTo(74.45, 2) } });
    // A site-wide check shows the pages it was found on, as the fix list does, and counts with share 1.
    expect(axis('robots_sitemaps').checks).toEqual([{ name: 'sitemap_missing', severity: 'info', pages: 1, judged_pages: 6, site: true, share: 1, weight: 0, cost: 0 }]);

    // The fix list's score points agree with this computation: fixing a check multiplies its
    // pillar's score by exp(its cost), content checks counted in the technique pillar too.
    const crawl = (await (await h.call('GET', `/v1/projects/${project.id}/crawls`)).json()).data[0];
    const fixes = (await (await h.call('GET', `/v1/crawls/${crawl.id}/recommendations?limit=100`)).json()).data as { name: string; pillar: string; score_points: number }[];
    const cost = (p: { axes: { checks: { name: string; cost: number }[] }[] }, name: string) => p.axes.flatMap((a) => a.checks).find((c) => c.name === name)!.cost;
    const points = (p: { computation: { exact: number } }, c: number) => Math.round(p.computation.exact * (Math.exp(c) - 1) * 10) / 10;
    expect(fixes.find((f) => f.name === 'http_page')!.score_points).toBe(points(technique, cost(technique, 'http_page')));
    expect(fixes.find((f) => f.name === 'broken_image')!.score_points).toBe(points(technique, cost(technique, 'broken_image')));
    const content = pillar(card, 'contenu');
    expect(fixes.find((f) => f.name === 'title_missing')).toMatchObject({ pillar: 'contenu', score_points: points(content, cost(content, 'title_missing')) });
  });

  it('checks AI reachability through the API and scores it in content and GEO', async () => {
    const { project, campaign } = await projectWithCampaign(h, aiSite.url, { check_ai_reachability: true });
    const crawl = await crawlToSettled(h, campaign.id);
    const ai = (await allIssues(h, crawl.id, '&category=ai_reachability')).map((i) => ({ ...i, url: pathOf(i.url) }));
    expect(ai.sort((a, b) => a.name.localeCompare(b.name) || a.details.localeCompare(b.details))).toEqual([
      { name: 'ai_search_agent_blocked', severity: 'error', category: 'ai_reachability', url: '/robots.txt', details: 'OAI-SearchBot is disallowed' },
      { name: 'ai_training_crawler_blocked', severity: 'info', category: 'ai_reachability', url: '/robots.txt', details: 'GPTBot is disallowed' },
      { name: 'llms_txt_no_h1', severity: 'info', category: 'ai_reachability', url: '/llms.txt', details: 'the file does not start with a "# Title" line' },
    ]);
    // CCBot is only kept out of /private/: not blocked. The other search agents are allowed.
    const card = await scorecard(project.id);
    const content = pillar(card, 'contenu');
    expect(content.blocked_reason).toBeNull();
    // One search agent blocked: an error on the whole site, 100 × exp(−0.35).
    expect(content.axes.find((a: { key: string }) => a.key === 'ai_reachability')).toMatchObject({ key: 'ai_reachability', score: 70, weight: 1, factor: Math.exp(-0.35) });
    expect(content.axes.find((a: { key: string }) => a.key === 'ai_reachability').checks[0]).toMatchObject({ name: 'ai_search_agent_blocked', site: true, share: 1, weight: 0.35, cost: 0.35 });

    // Without check_ai_reachability the same site reports none of it.
    const { campaign: off } = await projectWithCampaign(h, aiSite.url);
    const quiet = await crawlToSettled(h, off.id);
    expect(await allIssues(h, quiet.id, '&category=ai_reachability')).toEqual([]);
  });

  it('reports llms.txt missing, and nothing when every agent may come and llms.txt has its title', async () => {
    const { campaign } = await projectWithCampaign(h, site.url, { check_ai_reachability: true });
    const crawl = await crawlToSettled(h, campaign.id);
    expect((await allIssues(h, crawl.id, '&category=ai_reachability')).map((i) => [i.name, i.severity, pathOf(i.url)])).toEqual([['llms_txt_missing', 'info', '/llms.txt']]);

    const good = await serve({
      '/': { body: page({ body: '<main><h1>Good</h1></main>' }) },
      '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nAllow: /\n' },
      '/llms.txt': { type: 'text/markdown', body: '# Good site\n\n> What it is.\n' },
    });
    try {
      const { campaign: c } = await projectWithCampaign(h, good.url, { check_ai_reachability: true });
      const ok = await crawlToSettled(h, c.id);
      expect(await allIssues(h, ok.id, '&category=ai_reachability')).toEqual([]);
    } finally {
      await good.close();
    }
  });

  it('scores acquisition from Search Console data: clicks against the positions held, and the trend', async () => {
    const project = (await (await h.call('POST', '/v1/projects', { body: { url: 'https://www.acquisition.test/' } })).json()).data;
    const now = new Date().toISOString();
    await h.knex('search_console_links').insert({ project_id: project.id, property: 'sc-domain:acquisition.test', credentials_enc: 'x', status: 'pending', linked_at: now, synced_at: null });
    expect(pillar(await scorecard(project.id), 'acquisition')).toMatchObject({ score: null, status: 'not_measured', blocked_reason: 'search_console_no_data' });

    // 56 days at position 3 (11 % expected): 125 then 100 impressions a day, 8 clicks a day lately.
    const days = Array.from({ length: 56 }, (_, i) => {
      const date = new Date(Date.UTC(2025, 1, 1) + i * 86_400_000).toISOString().slice(0, 10);
      const recent = i >= 28;
      return { project_id: project.id, date, clicks: recent ? 8 : 14, impressions: recent ? 100 : 125, ctr: recent ? 0.08 : 0.112, position: 3 };
    });
    await h.knex('search_console_daily').insert(days);
    await h.knex('search_console_links').where({ project_id: project.id }).update({ status: 'ready', synced_at: now });
    const acquisition = pillar(await scorecard(project.id), 'acquisition');
    // ctr: 8 / 11 → 73; trend: 2800 / 3500 → 80; 0.6 × 73 + 0.4 × 80 = 75.8.
    expect(acquisition).toEqual({
      key: 'acquisition',
      score: 76,
      status: 'measured',
      available: true,
      version: 1,
      as_of: now,
      blocked_reason: null,
      axes: [
        { key: 'ctr', score: 73, weight: 0.6, factor: null, checks: [] },
        { key: 'trend', score: 80, weight: 0.4, factor: null, checks: [] },
      ],
      computation: { method: 'weighted_mean', scored_pages: null, html_pages: null, exact: expect.closeTo(75.8, 9) },
    });
    expect(acquisitionScore(days)!.score).toBe(76);
  });

  it('marks acquisition unavailable on a plan without Search Console', async () => {
    const token = await h.tokenFor({ team: 'starter-team', plan: 'starter' });
    const team = await h.knex('teams').where({ slug: 'starter-team' }).first('id');
    const id = randomUUID();
    await h.knex('projects').insert({ id, team_id: team.id, name: 's', slug: 's', url: 'https://s.test/', domain: 's.test', locked: false, created_at: new Date().toISOString() });
    expect(pillar(await scorecard(id, token), 'acquisition')).toMatchObject({ score: null, status: 'unavailable', available: false, blocked_reason: 'search_console_not_in_plan' });
  });
});

describe.skipIf(!HAS_CHROMIUM)(`accessibility pillar${SKIP_NOTE}`, () => {
  it(
    'scores 100 when a crawl ran the rules and found nothing, and keeps the latest crawl that ran them',
    async () => {
      const { project, campaign } = await projectWithCampaign(h, cleanSite.url, { check_accessibility: true });
      const crawl = await crawlToSettled(h, campaign.id);
      expect(await allIssues(h, crawl.id, '&category=accessibility')).toEqual([]);
      const card = await scorecard(project.id);
      expect(pillar(card, 'accessibilite')).toEqual({
        key: 'accessibilite',
        score: 100,
        status: 'measured',
        available: true,
        version: 1,
        as_of: crawl.finished_at,
        blocked_reason: null,
        axes: [{ key: 'axe_fetched_html', score: 100, weight: 1, factor: 1, checks: [] }],
        computation: { method: 'product', scored_pages: 2, html_pages: 2, exact: 100 },
      });

      // A later crawl without the checks does not erase the pillar.
      const campaigns = (await (await h.call('GET', `/v1/projects/${project.id}/campaigns`)).json()).data as { id: string }[];
      const later = await crawlToSettled(h, campaigns.find((c) => c.id !== campaign.id)!.id);
      expect(pillar(await scorecard(project.id), 'technique').as_of).toBe(later.finished_at);
      expect(pillar(await scorecard(project.id), 'accessibilite')).toMatchObject({ score: 100, as_of: crawl.finished_at });
    },
    BROWSER_TIMEOUT,
  );

  it(
    'scores the axe findings with the pillar formula over the audited pages',
    async () => {
      const { project, campaign } = await projectWithCampaign(h, site.url, { check_accessibility: true });
      const crawl = await crawlToSettled(h, campaign.id);
      const a11y = await allIssues(h, crawl.id, '&category=accessibility');
      expect(a11y.length).toBeGreaterThan(0);
      const audited = (await scoredOf(crawl.id)).htmlPages;
      const expected = expectedScore(a11y, { pages: audited, htmlPages: audited });
      const accessibility = pillar(await scorecard(project.id), 'accessibilite');
      expect(accessibility).toMatchObject({ score: expected, status: 'measured', computation: { method: 'product', scored_pages: audited, html_pages: audited } });
      expect(accessibility.score).toBeLessThan(100);
    },
    BROWSER_TIMEOUT,
  );
});

describe('acquisition formula', () => {
  const day = (i: number, clicks: number, impressions: number, position: number) => ({ date: new Date(Date.UTC(2025, 0, 1) + i * 86_400_000).toISOString().slice(0, 10), clicks, impressions, position });

  it('expects fewer clicks lower down, interpolating fractional positions', () => {
    expect(expectedCtr(1)).toBeCloseTo(0.285, 6);
    expect(expectedCtr(1.5)).toBeCloseTo((0.285 + 0.157) / 2, 6);
    expect(expectedCtr(10)).toBeCloseTo(0.025, 6);
    expect(expectedCtr(10.5)).toBeCloseTo(0.0175, 6);
    expect(expectedCtr(11)).toBeCloseTo(0.01, 6);
    expect(expectedCtr(20)).toBeCloseTo(0.005, 6);
    expect(expectedCtr(42)).toBeCloseTo(0.005, 6);
  });

  it('is null without impressions, caps at 100, and drops the trend axis without earlier data', () => {
    expect(acquisitionScore([])).toBeNull();
    expect(acquisitionScore([day(0, 0, 0, 5)])).toBeNull();
    const strong = acquisitionScore(Array.from({ length: 10 }, (_, i) => day(i, 50, 100, 2)))!;
    expect(strong.score).toBe(100);
    expect(strong.axes).toEqual([
      { key: 'ctr', score: 100, weight: 1 },
      { key: 'trend', score: null, weight: 0 },
    ]);
    // Growing visibility scores 100 on the trend; only the latest 28 days count for clicks.
    const growing = acquisitionScore([...Array.from({ length: 28 }, (_, i) => day(i, 0, 10, 1)), ...Array.from({ length: 28 }, (_, i) => day(28 + i, 57, 1000, 1))])!;
    expect(growing.axes).toEqual([
      { key: 'ctr', score: 20, weight: 0.6 },
      { key: 'trend', score: 100, weight: 0.4 },
    ]);
    expect(growing.score).toBe(52);
  });
});
