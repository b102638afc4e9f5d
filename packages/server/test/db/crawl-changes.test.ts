/**
 * What changed since the previous comparable crawl, regression signals and recommendations
 * (docs/decisions/crawl-changes.md, docs/decisions/regression-signals.md), over HTTP, on a local
 * site that changes between two crawls: /about starts answering 500, /new appears (without a
 * title), the link to /missing goes.
 */
import fc from 'fast-check';
import { WEBHOOK_EVENT_PAYLOADS } from '@siteaudit/schema';
import { CHANGE_KINDS, isSiteWideCheck } from '@siteaudit/schema/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { PAGES, startSite, type Site } from '../../../../tests/support/site.js';

let h: Harness;
const sites: Site[] = [];

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
  for (const site of sites) await site.close();
});

const json = async (res: Response) => {
  const body = await res.json();
  if (res.status >= 400) throw new Error(`${res.status} ${JSON.stringify(body)}`);
  return body;
};

/** A site of its own (its pages change), a project, a campaign, and a webhook on every event of the team. */
async function scenario(campaign: Record<string, unknown>) {
  const pages = structuredClone(PAGES);
  const site = await startSite(pages);
  sites.push(site);
  const slug = `changes-${sites.length}`;
  const token = await h.tokenFor({ team: slug });
  const call = (method: string, path: string, init: { body?: unknown; headers?: Record<string, string> } = {}) => h.call(method, path, { token, ...init });
  const project = (await json(await call('POST', '/v1/projects', { body: { url: `${site.url}/` } }))).data;
  const created = (await json(await call('POST', `/v1/projects/${project.id}/campaigns`, { body: { name: 'Site', start_url: `${site.url}/`, max_depth: 5, max_urls: 100, ...campaign } }))).data;
  await json(await call('POST', '/v1/webhooks', { body: { url: 'http://127.0.0.1:9/hooks', events: ['crawl.completed', 'signal.detected', 'recommendations.ready'] } }));
  const crawl = async () => {
    const launched = (await json(await call('POST', `/v1/campaigns/${created.id}/crawls`, { headers: { 'idempotency-key': crypto.randomUUID() } }))).data;
    await h.server.jobs.idle();
    return (await json(await call('GET', `/v1/crawls/${launched.id}`))).data as { id: string; status: string; stage_plan: { settled: boolean } };
  };
  const change = () => {
    pages['/about'] = { status: 500, html: '<html><body>Down</body></html>' };
    pages['/new'] = { html: '<!doctype html><html lang="en"><head><meta charset="utf-8"></head><body><h1>New</h1><p>A new page.</p></body></html>' };
    pages['/'] = { html: pages['/'].html!.replace('<a href="/missing">Missing</a>', '<a href="/new">New</a>') };
  };
  /** The events delivered to the team, with their bodies, oldest first. */
  const events = async () => {
    const rows = await h
      .knex('webhook_deliveries')
      .join('webhooks', 'webhooks.id', 'webhook_deliveries.webhook_id')
      .join('teams', 'teams.id', 'webhooks.team_id')
      .where('teams.slug', slug)
      .orderBy('webhook_deliveries.created_at')
      .select('webhook_deliveries.event_type', 'webhook_deliveries.body');
    return rows.map((r: { event_type: string; body: string }) => ({ type: r.event_type, body: JSON.parse(r.body) }));
  };
  /** A change that brings a warning only: /about loses its meta description. */
  const warn = () => {
    pages['/about'] = { html: pages['/about'].html!.replace(/<meta name="description"[^>]*>/, '') };
  };
  return { call, crawl, change, warn, events, project, campaign: created, pages };
}

async function all(call: (m: string, p: string) => Promise<Response>, path: string) {
  const items: Record<string, unknown>[] = [];
  let cursor: string | null = null;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const page = await json(await call('GET', `${path}${sep}limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`));
    items.push(...page.data);
    cursor = page.meta.has_more ? page.meta.next_cursor : null;
  } while (cursor);
  return items;
}

const path = (url: unknown) => new URL(String(url)).pathname;

// Two crawls each, and a page of three at a time through every change: slow on a shared machine.
describe('crawl changes', { timeout: 60_000 }, () => {
  it('compares a crawl with the previous comparable one: issues new, fixed and persisting, pages added and removed, status changes, health per pillar', async () => {
    const s = await scenario({ notify: true, regression_threshold: 'warning' });
    const first = await s.crawl();
    const firstSummary = (await json(await s.call('GET', `/v1/crawls/${first.id}/changes/summary`))).data;
    expect(firstSummary).toMatchObject({ crawl_id: first.id, previous_crawl_id: null, basis: 'no_previous_crawl', pages: { added: 0, removed: 0, status_changed: 0 }, checks: [] });
    expect(firstSummary.health.map((p: { key: string }) => p.key)).toEqual(['technique', 'contenu', 'accessibilite']);
    expect((await json(await s.call('GET', `/v1/crawls/${first.id}/changes`))).data).toEqual([]);

    s.change();
    const second = await s.crawl();
    const summary = (await json(await s.call('GET', `/v1/crawls/${second.id}/changes/summary`))).data;
    expect(summary).toMatchObject({ crawl_id: second.id, previous_crawl_id: first.id, basis: 'compared', pages: { added: 1, removed: 1, status_changed: 1, redirect_changed: 0 } });

    const changes = await all(s.call, `/v1/crawls/${second.id}/changes`);
    const of = (kind: string) => changes.filter((c) => c.kind === kind);
    // Kinds in their documented order, each change once.
    expect([...new Set(changes.map((c) => c.kind))]).toEqual(CHANGE_KINDS.filter((k) => changes.some((c) => c.kind === k)));
    expect(new Set(changes.map((c) => `${c.kind} ${c.name} ${c.url}`)).size).toBe(changes.length);

    expect(of('page_added').map((c) => [path(c.url), c.status_code, c.previous_status_code])).toEqual([['/new', 200, null]]);
    expect(of('page_removed').map((c) => [path(c.url), c.status_code, c.previous_status_code])).toEqual([['/missing', null, 404]]);
    expect(of('status_changed').map((c) => [path(c.url), c.status_code, c.previous_status_code])).toEqual([['/about', 500, 200]]);
    expect(of('issue_new').map((c) => `${c.name} ${path(c.url)}`)).toEqual(expect.arrayContaining(['http_5xx /about', 'title_missing /new']));
    // The link to /missing went: fixed on the home page, still there; /missing's own 404 went with the page.
    expect(of('issue_fixed').map((c) => `${c.name} ${path(c.url)}`)).toEqual(expect.arrayContaining(['broken_internal_link /']));
    expect(of('issue_gone_with_page').map((c) => `${c.name} ${path(c.url)}`)).toEqual(expect.arrayContaining(['http_4xx /missing']));
    expect(of('issue_persisting').map((c) => `${c.name} ${path(c.url)}`)).toEqual(expect.arrayContaining(['title_missing /blog/post-1']));
    for (const c of of('issue_new')) expect(c).toMatchObject({ severity: expect.any(String), category: expect.any(String), details: expect.any(String), status_code: null });

    // The summary counts exactly what the list holds.
    for (const [key, kind] of [['new', 'issue_new'], ['fixed', 'issue_fixed'], ['gone_with_page', 'issue_gone_with_page'], ['persisting', 'issue_persisting']] as const) {
      const counts = summary.issues[key];
      expect(counts.error + counts.warning + counts.info, key).toBe(of(kind).length);
      expect(counts.error, key).toBe(of(kind).filter((c) => c.severity === 'error').length);
    }
    const http5xx = summary.checks.find((c: { name: string }) => c.name === 'http_5xx');
    expect(http5xx).toMatchObject({ severity: 'error', new: 1, fixed: 0 });
    const technique = summary.health.find((p: { key: string }) => p.key === 'technique');
    expect(technique.delta).toBe(technique.score - technique.previous_score);
    expect(typeof technique.delta).toBe('number');

    // Filters: by kind, and by severity (issue kinds only).
    const added = (await json(await s.call('GET', `/v1/crawls/${second.id}/changes?kind=page_added`))).data;
    expect(added.map((c: { kind: string }) => c.kind)).toEqual(['page_added']);
    const errors = await all(s.call, `/v1/crawls/${second.id}/changes?severity=error`);
    expect(errors.length).toBe(summary.issues.new.error + summary.issues.fixed.error + summary.issues.gone_with_page.error + summary.issues.persisting.error);
    expect(errors.every((c) => c.severity === 'error' && String(c.kind).startsWith('issue_'))).toBe(true);
  });

  it('says why each pillar moved: every check whose cost moved, parts adding up to the exact movement, the fix list’s points for a single fix', async () => {
    type Attribution = { previous_score_exact: number; score_exact: number; exact_delta: number; other: number; checks: { name: string; previous_pages: number; pages: number; previous_cost: number; cost: number; points: number }[] };
    type Pillar = { key: string; score: number | null; previous_score: number | null; delta: number | null; attribution: Attribution | null };
    const s = await scenario({});
    const first = await s.crawl();
    const firstSummary = (await json(await s.call('GET', `/v1/crawls/${first.id}/changes/summary`))).data;
    expect(firstSummary.health.every((p: Pillar) => p.attribution === null)).toBe(true);
    const fixList = await all(s.call, `/v1/crawls/${first.id}/recommendations`);

    // One fix and nothing else: the image of /about gets its alt.
    s.pages['/about'] = { html: s.pages['/about'].html!.replace('<img src="/logo.png">', '<img src="/logo.png" alt="Logo">') };
    const second = await s.crawl();
    const summary = (await json(await s.call('GET', `/v1/crawls/${second.id}/changes/summary`))).data;
    const technique = summary.health.find((p: Pillar) => p.key === 'technique') as Pillar;
    expect(technique.attribution!.checks.map((c) => [c.name, c.previous_pages, c.pages])).toEqual([['image_missing_alt', 1, 0]]);
    // What the fix list said the fix would win is what it won.
    const promised = fixList.find((r) => r.name === 'image_missing_alt')!.score_points as number;
    expect(promised).toBeGreaterThan(0);
    expect(technique.attribution!.checks[0].points).toBe(promised);
    expect(technique.attribution!.exact_delta).toBe(promised);

    // Many changes at once: a page answering 500, a new page without a title, a broken link gone.
    s.change();
    const third = await s.crawl();
    const moved = (await json(await s.call('GET', `/v1/crawls/${third.id}/changes/summary`))).data;
    const card = (await json(await s.call('GET', `/v1/projects/${s.project.id}/scorecard`))).data;
    for (const p of moved.health as Pillar[]) {
      if (p.delta === null) {
        expect(p.attribution, p.key).toBeNull();
        continue;
      }
      const a = p.attribution!;
      // The parts add up, in tenths, to the exact movement; the published delta differs by rounding only.
      expect(a.checks.reduce((sum, c) => sum + Math.round(c.points * 10), Math.round(a.other * 10)), p.key).toBe(Math.round(a.exact_delta * 10));
      expect(Math.abs(a.exact_delta - (a.score_exact - a.previous_score_exact)), p.key).toBeLessThanOrEqual(0.05 + 1e-9);
      expect(Math.abs(p.delta - a.exact_delta), p.key).toBeLessThan(1);
      expect(Math.round(a.score_exact), p.key).toBe(p.score);
      expect(a.other, p.key).toBe(0);
      // The unrounded score is the scorecard's, for the latest crawl (PostgreSQL stores the
      // technique score as a `real`, to some seven digits).
      expect(a.score_exact, p.key).toBeCloseTo(card.pillars.find((c: { key: string }) => c.key === p.key).computation.exact, 4);
      const sizes = a.checks.map((c) => Math.abs(c.points));
      expect([...sizes].sort((x, y) => y - x), p.key).toEqual(sizes);
    }
    const why = (moved.health as Pillar[]).find((p) => p.key === 'technique')!.attribution!.checks;
    expect(why.find((c) => c.name === 'http_5xx')).toMatchObject({ previous_pages: 0, pages: 1, previous_cost: 0 });
    expect(why.find((c) => c.name === 'http_5xx')!.points).toBeLessThan(0);
  });

  it('counts occurrences: a second broken link on a page is new; issues of a page now broken or removed are gone with it, not fixed', async () => {
    const s = await scenario({});
    const first = await s.crawl();
    s.pages['/'] = { html: s.pages['/'].html!.replace('<a href="/missing">Missing</a>', '<a href="/missing">Missing</a> <a href="/gone">Gone</a>') };
    s.pages['/blog/post-1'] = { status: 404, html: '<html><body>Removed</body></html>' };
    s.pages['/about'] = { html: s.pages['/about'].html!.replace('<img src="/logo.png">', '<img src="/logo.png" alt="Logo">') };
    const second = await s.crawl();
    const summary = (await json(await s.call('GET', `/v1/crawls/${second.id}/changes/summary`, { headers: { 'accept-language': 'en' } }))).data;
    expect(summary).toMatchObject({ previous_crawl_id: first.id, basis: 'compared' });
    const changes = await all(s.call, `/v1/crawls/${second.id}/changes`);
    const of = (kind: string, name: string) => changes.filter((c) => c.kind === kind && c.name === name).map((c) => `${path(c.url)} ${c.details}`);

    // The home page had one broken link and now has two: one new, one persisting.
    expect(of('issue_new', 'broken_internal_link').filter((d) => d.startsWith('/ '))).toEqual([expect.stringContaining('/gone')]);
    expect(of('issue_persisting', 'broken_internal_link').filter((d) => d.startsWith('/ '))).toEqual([expect.stringContaining('/missing')]);
    // The post answers 404 now: its missing title is gone with it, not fixed.
    expect(of('issue_gone_with_page', 'title_missing').map((d) => d.split(' ')[0])).toEqual(['/blog/post-1']);
    expect(of('issue_fixed', 'title_missing')).toEqual([]);
    // The image got its alt on a page that is still there: fixed.
    expect(of('issue_fixed', 'image_missing_alt').map((d) => d.split(' ')[0])).toEqual(['/about']);

    const check = (name: string) => summary.checks.find((c: { name: string }) => c.name === name);
    expect(check('title_missing')).toMatchObject({ fixed: 0, gone_with_page: 1 });
    expect(check('image_missing_alt')).toMatchObject({ fixed: 1, gone_with_page: 0 });
    expect(check('broken_internal_link').new).toBeGreaterThanOrEqual(1);
    for (const [key, kind] of [['new', 'issue_new'], ['fixed', 'issue_fixed'], ['gone_with_page', 'issue_gone_with_page'], ['persisting', 'issue_persisting']] as const) {
      const counts = summary.issues[key];
      expect(counts.error + counts.warning + counts.info, key).toBe(changes.filter((c) => c.kind === kind).length);
    }
  });

  it('reads a page that became a meta-refresh stub as gone with its issues, not as fixed: the stub is a redirect', async () => {
    const s = await scenario({});
    const first = await s.crawl();
    // /blog/ now sends its readers to its one post, as a static site generator's stub does.
    s.pages['/blog/'] = { html: '<!DOCTYPE html><html><head><meta http-equiv="refresh" content="0; url=/blog/post-1"><title>Redirecting</title></head><body></body></html>' };
    const second = await s.crawl();
    const changes = await all(s.call, `/v1/crawls/${second.id}/changes`);
    const onBlog = (kind: string) => changes.filter((c) => c.kind === kind && path(c.url) === '/blog/').map((c) => c.name);
    const before = (await all(s.call, `/v1/crawls/${first.id}/issues`)).filter((i) => path(i.url) === '/blog/').map((i) => i.name);
    // Served over plain HTTP, like every page of the test site: what the page had went with it.
    expect(before).toContain('http_page');
    expect(onBlog('issue_fixed')).toEqual([]);
    expect(onBlog('issue_gone_with_page').sort()).toEqual([...before].sort());
    // The stub's own finding is new.
    expect(onBlog('issue_new')).toEqual(['meta_refresh']);
    const summary = (await json(await s.call('GET', `/v1/crawls/${second.id}/changes/summary`))).data;
    expect(summary.checks.find((c: { name: string }) => c.name === 'http_page')).toMatchObject({ fixed: 0, gone_with_page: 1 });
    expect(summary.issues.fixed).toEqual({ error: 0, warning: 0, info: 0 });
  });

  it('lists a page whose redirect changed with its status the same: a page turned into a meta-refresh stub, a 301 pointing elsewhere, a stub that is a page again', async () => {
    const s = await scenario({});
    const first = await s.crawl();
    const blog = s.pages['/blog/'];
    // /blog/ becomes a stub (200, as before), /old still answers 301 but to the post, /about becomes a 301 (its status changed).
    s.pages['/blog/'] = { html: '<!DOCTYPE html><html><head><meta http-equiv="refresh" content="0; url=/blog/post-1"><title>Redirecting</title></head><body></body></html>' };
    s.pages['/old'] = { status: 301, headers: { location: '/blog/post-1' } };
    s.pages['/about'] = { status: 301, headers: { location: '/' } };
    const second = await s.crawl();
    type Change = { kind: string; url: string; status_code: number | null; previous_status_code: number | null; redirect_url: string | null; previous_redirect_url: string | null };
    const target = (url: string | null) => (url === null ? null : path(url));
    const pageChanges = (changes: Record<string, unknown>[]) =>
      (changes as Change[])
        .filter((c) => !c.kind.startsWith('issue_'))
        .map((c) => [c.kind, path(c.url), c.previous_status_code, c.status_code, target(c.previous_redirect_url), target(c.redirect_url)]);
    const changes = await all(s.call, `/v1/crawls/${second.id}/changes`);
    // Kinds in their documented order; /about is a status change alone, with its new target.
    expect([...new Set(changes.map((c) => c.kind))]).toEqual(CHANGE_KINDS.filter((k) => changes.some((c) => c.kind === k)));
    const expected = [
      ['status_changed', '/about', 200, 301, null, '/'],
      ['redirect_changed', '/old', 301, 301, '/about', '/blog/post-1'],
      ['redirect_changed', '/blog/', 200, 200, null, '/blog/post-1'],
    ];
    expect(pageChanges(changes)).toHaveLength(expected.length);
    expect(pageChanges(changes)).toEqual(expect.arrayContaining(expected));
    const summary = (await json(await s.call('GET', `/v1/crawls/${second.id}/changes/summary`))).data;
    expect(summary.pages).toEqual({ added: 0, removed: 0, status_changed: 1, redirect_changed: 2 });
    // The kind filter; issue changes carry no target.
    const filtered = (await all(s.call, `/v1/crawls/${second.id}/changes?kind=redirect_changed`)) as Change[];
    expect(filtered.map((c) => path(c.url)).sort()).toEqual(['/blog/', '/old']);
    for (const c of changes as Change[]) if (c.kind.startsWith('issue_')) expect([c.redirect_url, c.previous_redirect_url]).toEqual([null, null]);

    // The stub is a page again.
    s.pages['/blog/'] = blog;
    const third = await s.crawl();
    expect(pageChanges(await all(s.call, `/v1/crawls/${third.id}/changes?kind=redirect_changed`))).toEqual([['redirect_changed', '/blog/', 200, 200, '/blog/post-1', null]]);
    expect((await json(await s.call('GET', `/v1/crawls/${third.id}/changes/summary`))).data.pages).toEqual({ added: 0, removed: 0, status_changed: 0, redirect_changed: 1 });
  });

  it('sends signal.detected and recommendations.ready when the campaign notifies, with the documented payload', async () => {
    const s = await scenario({ notify: true, regression_threshold: 'warning' });
    const first = await s.crawl();
    let events = await s.events();
    expect(events.map((e) => e.type)).toEqual(['crawl.completed', 'recommendations.ready']);
    const ready = events[1].body;
    expect(ready).toMatchObject({ type: 'recommendations.ready', data: { project_id: s.project.id, campaign_id: s.campaign.id, crawl_id: first.id } });
    const list = await all(s.call, `/v1/crawls/${first.id}/recommendations`);
    expect(ready.data.recommendations).toBe(list.length);
    expect(ready.data.top.map((t: { name: string }) => t.name)).toEqual(list.slice(0, 5).map((r) => r.name));

    s.change();
    const second = await s.crawl();
    events = (await s.events()).slice(2);
    expect(events.map((e) => e.type)).toEqual(['crawl.completed', 'signal.detected', 'recommendations.ready']);
    const signal = events[1].body;
    expect(signal.data).toMatchObject({
      kind: 'regression',
      severity: 'error',
      reasons: expect.arrayContaining(['new_issues']),
      project_id: s.project.id,
      campaign_id: s.campaign.id,
      crawl_id: second.id,
      previous_crawl_id: first.id,
      counts: { pages_added: 1, pages_removed: 1, status_changed: 1, redirect_changed: 0 },
    });
    expect(signal.data.counts.new.error).toBeGreaterThanOrEqual(1);
    expect(signal.data.top_new_checks[0]).toMatchObject({ severity: 'error' });
    expect(signal.data.top_new_checks.map((c: { name: string }) => c.name)).toContain('http_5xx');
    // The bodies are the documented payloads (docs/decisions/webhooks.md).
    for (const e of await s.events()) expect(WEBHOOK_EVENT_PAYLOADS[e.type as keyof typeof WEBHOOK_EVENT_PAYLOADS].safeParse(e.body).error).toBeUndefined();
  });

  it('sends no findings event when notify is false, and no signal when the threshold is off', async () => {
    const quiet = await scenario({ notify: false, regression_threshold: 'warning' });
    await quiet.crawl();
    quiet.change();
    const regressed = await quiet.crawl();
    expect((await quiet.events()).map((e) => e.type)).toEqual(['crawl.completed', 'crawl.completed']);
    // The comparison is made all the same: notify governs events only.
    expect((await json(await quiet.call('GET', `/v1/crawls/${regressed.id}/changes/summary`))).data.basis).toBe('compared');

    const off = await scenario({ notify: true, regression_threshold: 'off' });
    await off.crawl();
    off.change();
    await off.crawl();
    expect((await off.events()).map((e) => e.type)).toEqual(['crawl.completed', 'recommendations.ready', 'crawl.completed', 'recommendations.ready']);
  });

  it('signals a new warning at threshold warning, and not at threshold error', async () => {
    for (const [threshold, signals] of [['warning', 1], ['error', 0]] as const) {
      const s = await scenario({ notify: true, regression_threshold: threshold });
      await s.crawl();
      s.warn();
      const second = await s.crawl();
      const summary = (await json(await s.call('GET', `/v1/crawls/${second.id}/changes/summary`))).data;
      expect(summary.issues.new).toEqual({ error: 0, warning: 1, info: 0 });
      const sent = (await s.events()).filter((e) => e.type === 'signal.detected');
      expect(sent, threshold).toHaveLength(signals);
      if (signals) expect(sent[0].body.data).toMatchObject({ severity: 'warning', reasons: ['new_issues'], top_new_checks: [{ name: 'description_missing', severity: 'warning', new: 1 }] });
    }
  });

  it('lists recommendations by impact with the advice of the reports, in the caller’s language', async () => {
    const s = await scenario({});
    const crawl = await s.crawl();
    const en = (await json(await s.call('GET', `/v1/crawls/${crawl.id}/recommendations?limit=100`, { headers: { 'accept-language': 'en' } }))).data;
    expect(en.length).toBeGreaterThan(0);
    // Errors, warnings, notices; then most pages; then most score points won.
    const rank = { error: 0, warning: 1, info: 2 } as Record<string, number>;
    // A site-wide check is on every page (reported on one URL).
    const affected = (r: { name: string; pages: number }) => (isSiteWideCheck(r.name) ? Infinity : r.pages);
    for (let i = 1; i < en.length; i++) {
      const [a, b] = [en[i - 1], en[i]];
      expect(rank[a.severity] < rank[b.severity] || (a.severity === b.severity && (affected(a) > affected(b) || (affected(a) === affected(b) && a.score_points >= b.score_points))), `${a.name} before ${b.name}`).toBe(true);
    }
    // The 404 (an error on one page) comes before every notice, which win no point.
    const at = (name: string) => en.findIndex((r: { name: string }) => r.name === name);
    const notices = en.filter((r: { severity: string }) => r.severity === 'info');
    expect(notices.length).toBeGreaterThan(0);
    expect(at('http_4xx')).toBeLessThan(at(notices[0].name));
    for (const n of notices) expect(n.score_points).toBe(0);
    // The points a fix wins: the technique score recomputed without the check.
    const http4xx = en[at('http_4xx')];
    expect(http4xx.score_points).toBeGreaterThan(0);
    const broken = en.find((r: { name: string }) => r.name === 'broken_internal_link');
    expect(broken).toMatchObject({ severity: 'error', pillar: 'technique', label: 'Broken internal link', advice: 'Point these links at a live URL or remove them.' });
    expect(broken.impact).toBe(broken.pages);
    const fr = (await json(await s.call('GET', `/v1/crawls/${crawl.id}/recommendations?limit=100`))).data;
    expect(fr.find((r: { name: string }) => r.name === 'broken_internal_link').advice).toBe('Faites pointer ces liens vers une URL valide ou supprimez-les.');
  });

  it('answers 422 by field for any kind or severity outside their values, and only matching changes otherwise (property)', async () => {
    const s = await scenario({});
    const crawl = await s.crawl();
    const values = fc.oneof(fc.constantFrom(...CHANGE_KINDS, 'error', 'warning', 'info'), fc.string({ maxLength: 12 }));
    await fc.assert(
      fc.asyncProperty(fc.record({ kind: fc.option(values, { nil: undefined }), severity: fc.option(values, { nil: undefined }) }), async (query) => {
        const params = new URLSearchParams(Object.entries(query).filter(([, v]) => v !== undefined) as [string, string][]);
        const res = await s.call('GET', `/v1/crawls/${crawl.id}/changes?${params}`);
        const kindOk = query.kind === undefined || (CHANGE_KINDS as readonly string[]).includes(query.kind);
        const severityOk = query.severity === undefined || ['error', 'warning', 'info'].includes(query.severity);
        if (kindOk && severityOk) {
          expect(res.status).toBe(200);
          const body = await res.json();
          for (const c of body.data) {
            if (query.kind) expect(c.kind).toBe(query.kind);
            if (query.severity) expect(c.severity).toBe(query.severity);
          }
        } else {
          expect(res.status).toBe(422);
          const body = await res.json();
          expect(body.code).toBe('validation_failed');
          const fields = Object.keys(body.errors);
          if (!kindOk) expect(fields).toContain('kind');
          if (!severityOk) expect(fields).toContain('severity');
        }
      }),
      { numRuns: 40 },
    );
  });
});
