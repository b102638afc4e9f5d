/**
 * The crawl's PageSpeed step over HTTP: skipped honestly without a provider; with the PageSpeed
 * Insights adapter (against its msw stand-in) the sample (home and category pages) is measured
 * on mobile and desktop, averaged per strategy with the pages measured and failed, combined,
 * `lighthouse_mobile_slow` raised on a page under 50, and the health score adjusted; every
 * measurement refused reads `failed`. Lighthouse on the local Chromium runs the same step for real.
 */
import ExcelJS from 'exceljs';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { healthWithPageSpeed } from '../../src/modules/crawls/pagespeed-step.js';
import { scoredPages } from '../../src/modules/crawls/check-counts.js';
import { createLighthousePageSpeed, createPageSpeedInsights } from '../../src/providers/index.js';
import { pageSpeedStandIn } from '../../../../tests/support/pagespeed-stand-in.js';
import { BROWSER_TIMEOUT, CHROME, HAS_CHROMIUM, SKIP_NOTE } from '../../../../tests/support/rendering.js';
import { onPostgres, startHarness, type Harness } from '../../../../tests/support/harness.js';
import { allIssues, crawlToSettled, pathOf, projectWithCampaign } from './support/crawl-flow.js';
import { startSite, type Site } from '../../../../tests/support/site.js';
import { closedPort } from '../../../../tests/support/receiver.js';
import { exportedFile } from './support/exports.js';

const stand = pageSpeedStandIn({ apiKey: 'psi-key' });
const msw = setupServer(...stand.handlers);

let site: Site;
let plain: Harness;
let psi: Harness;

beforeAll(async () => {
  msw.listen({ onUnhandledRequest: 'bypass' });
  site = await startSite();
  plain = await startHarness();
  psi = await startHarness({ providers: { pagespeed: createPageSpeedInsights({ apiKey: 'psi-key', retryDelayMs: 0 }) } });
});
afterAll(async () => {
  await plain?.close();
  await psi?.close();
  await site?.close();
  msw.close();
});

const pagespeedOf = async (h: Harness, crawlId: string) => {
  const res = await h.call('GET', `/v1/crawls/${crawlId}/pagespeed`);
  expect(res.status).toBe(200);
  return (await res.json()).data;
};
const step = (crawl: { stage_plan: { steps: { stage: string }[] } }) => crawl.stage_plan.steps.find((s) => s.stage === 'pagespeed');

/** Every write of a crawl's `stage` and `stage_plan`, as the database saw it (a trigger's log). */
async function logStages(h: Harness): Promise<(crawlId: string) => Promise<{ stage: string; steps: { stage: string; state: string }[] }[]>> {
  const knex = h.server.knex;
  if (onPostgres) {
    await knex.raw('create table stage_log (n serial primary key, crawl_id uuid, stage text, plan text)');
    await knex.raw(`create function stage_log_row() returns trigger as $$ begin
      insert into stage_log (crawl_id, stage, plan) values (new.id, new.stage, new.stage_plan::text); return new; end $$ language plpgsql`);
    await knex.raw('create trigger stage_log_on_update after update on crawls for each row execute function stage_log_row()');
  } else {
    await knex.raw('create table stage_log (n integer primary key, crawl_id text, stage text, plan text)');
    await knex.raw('create trigger stage_log_on_update after update on crawls begin insert into stage_log (crawl_id, stage, plan) values (new.id, new.stage, new.stage_plan); end');
  }
  return async (crawlId) =>
    ((await knex('stage_log').where({ crawl_id: crawlId }).orderBy('n')) as { stage: string; plan: string }[]).map((r) => ({ stage: r.stage, steps: JSON.parse(r.plan) }));
}

describe('stage and stage_plan', () => {
  it('shows the step the stage names as running, never pending, at every write of a crawl', async () => {
    for (const h of [plain, psi]) {
      const written = await logStages(h);
      const { campaign } = await projectWithCampaign(h, site.url, { pagespeed: true });
      const crawl = await crawlToSettled(h, campaign.id);
      const log = await written(crawl.id);
      const seenRunning = new Set<string>();
      for (const { stage, steps } of log) {
        const named = steps.find((s) => s.stage === stage);
        if (named) expect(named.state, `${stage} at write ${JSON.stringify(steps)}`).not.toBe('pending');
        for (const s of steps) if (s.state === 'running') seenRunning.add(s.stage);
      }
      expect(log.at(-1)?.stage).toBe('done');
      const done = crawl.stage_plan.steps.filter((s: { state: string }) => s.state === 'done').map((s: { stage: string }) => s.stage);
      expect(done).toEqual(expect.arrayContaining(['fetching', 'analysing', 'scoring', 'comparing']));
      expect([...seenRunning]).toEqual(expect.arrayContaining(done));
    }
  });
});

describe('PageSpeed step without a provider', () => {
  it('is skipped with no_provider and null strategies, never zeros', async () => {
    const { campaign } = await projectWithCampaign(plain, site.url, { pagespeed: true });
    const crawl = await crawlToSettled(plain, campaign.id);
    expect(step(crawl)).toEqual({ stage: 'pagespeed', state: 'skipped', skip_reason: 'no_provider' });
    expect(await pagespeedOf(plain, crawl.id)).toEqual({
      crawl_id: crawl.id,
      status: 'unconfigured',
      provider: null,
      skip_reason: 'no_provider',
      mobile: null,
      desktop: null,
      combined: null,
      failed: false,
      sample: [],
      measured_at: null,
    });
  });

  it('is skipped with not_requested when the campaign does not ask, even with a provider', async () => {
    const { campaign } = await projectWithCampaign(psi, site.url, { pagespeed: false });
    const crawl = await crawlToSettled(psi, campaign.id);
    expect(step(crawl)).toMatchObject({ state: 'skipped', skip_reason: 'not_requested' });
    expect(await pagespeedOf(psi, crawl.id)).toMatchObject({ status: 'not_requested', provider: null, mobile: null, desktop: null });
  });
});

// A crawl that failed never reaches its PageSpeed step: `not_requested` would say the campaign
// did not ask, `unconfigured` that no provider could measure; neither is true here.
describe('PageSpeed of a crawl that failed', { timeout: 30_000 }, () => {
  it('reads not_run with crawl_failed when the campaign asked, not_requested when it did not, in the API and the workbook', async () => {
    const unreachable = `http://127.0.0.1:${await closedPort()}`;
    const { campaign: asked } = await projectWithCampaign(psi, unreachable, { pagespeed: true, retries: 0 });
    const failed = await crawlToSettled(psi, asked.id);
    expect(failed.status).toBe('failed');
    expect(await pagespeedOf(psi, failed.id)).toEqual({
      crawl_id: failed.id,
      status: 'not_run',
      provider: null,
      skip_reason: 'crawl_failed',
      mobile: null,
      desktop: null,
      combined: null,
      failed: false,
      sample: [],
      measured_at: null,
    });
    const { campaign: notAsked } = await projectWithCampaign(psi, unreachable, { pagespeed: false, retries: 0 });
    const alsoFailed = await crawlToSettled(psi, notAsked.id);
    expect(await pagespeedOf(psi, alsoFailed.id)).toMatchObject({ status: 'not_requested', skip_reason: 'not_requested' });

    // The reports read the same result, in words.
    const sheetText = async (language: 'en' | 'fr') => {
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load((await exportedFile(psi, failed.id, 'xlsx', language)) as never);
      return JSON.stringify(workbook.getWorksheet('PageSpeed')!.getSheetValues());
    };
    const en = await sheetText('en');
    expect(en).toContain('Not run');
    expect(en).toContain('The crawl failed before it could be measured.');
    expect(await sheetText('fr')).toContain('Le crawl a échoué avant de pouvoir être mesuré.');
  });
});

describe('PageSpeed step with PageSpeed Insights', () => {
  it('measures the home and category pages on both strategies and summarises them', async () => {
    stand.reset();
    // Home slow on mobile; /blog/ fast; /about cannot be loaded by Lighthouse (not in the stand-in).
    stand.scores.set(`${site.url}/`, { mobile: 0.35, desktop: 0.8 });
    stand.scores.set(`${site.url}/blog/`, { mobile: 0.9, desktop: 0.95 });

    const { campaign: without } = await projectWithCampaign(psi, site.url, { pagespeed: false });
    const base = await crawlToSettled(psi, without.id);
    const { campaign } = await projectWithCampaign(psi, site.url, { pagespeed: true });
    const crawl = await crawlToSettled(psi, campaign.id);
    expect(step(crawl)).toEqual({ stage: 'pagespeed', state: 'done', skip_reason: null });

    const result = await pagespeedOf(psi, crawl.id);
    expect(result).toMatchObject({
      crawl_id: crawl.id,
      status: 'measured',
      provider: 'pagespeed_insights',
      skip_reason: null,
      mobile: { score: 62.5, pages_measured: 2, pages_failed: 1 },
      desktop: { score: 87.5, pages_measured: 2, pages_failed: 1 },
      combined: 75,
      failed: false,
    });
    expect(result.sample).toEqual([
      { url: `${site.url}/`, role: 'home', mobile: 35, desktop: 80, error: null },
      { url: `${site.url}/blog/`, role: 'category', mobile: 90, desktop: 95, error: null },
      { url: `${site.url}/about`, role: 'category', mobile: null, desktop: null, error: 'FAILED_DOCUMENT_REQUEST' },
    ]);
    expect(Date.parse(result.measured_at)).not.toBeNaN();
    // Sample pages only, each on both strategies, performance only.
    expect(stand.calls.filter((c) => c.url?.startsWith(site.url)).map((c) => `${pathOf(c.url!)} ${c.strategy}`).sort()).toEqual(
      ['/ desktop', '/ mobile', '/about desktop', '/about mobile', '/blog/ desktop', '/blog/ mobile'],
    );
    expect(stand.calls.every((c) => c.categories.join() === 'performance')).toBe(true);

    const slow = await allIssues(psi, crawl.id, '&name=lighthouse_mobile_slow');
    expect(slow).toEqual([
      { name: 'lighthouse_mobile_slow', severity: 'warning', category: 'performance_security', url: `${site.url}/`, details: 'mobile performance score 35 (under 50), measured with pagespeed_insights' },
    ]);
    // Counts include the new warning; the summary agrees.
    expect(crawl.issue_counts.warning).toBe(base.issue_counts.warning + 1);
    const summary = (await (await psi.call('GET', `/v1/crawls/${crawl.id}/issues/summary`)).json()).data;
    expect(summary.totals).toEqual(crawl.issue_counts);

    // The health score takes the slow page and the combined score in (docs/decisions/scorecard.md).
    const rows = await psi.knex('crawls').whereIn('id', [base.id, crawl.id]).select('id', 'health_score');
    const baseScore = Number(rows.find((r) => r.id === base.id).health_score);
    const scored = await scoredPages(psi.knex, crawl.id);
    expect(Number(rows.find((r) => r.id === crawl.id).health_score)).toBeCloseTo(healthWithPageSpeed(baseScore, scored, 1, 75), 3); // PostgreSQL stores a real
    const project = crawl.project_id;
    const technique = (await (await psi.call('GET', `/v1/projects/${project}/scorecard`)).json()).data.pillars.find((p: { key: string }) => p.key === 'technique');
    expect(technique.score).toBe(Math.round(healthWithPageSpeed(baseScore, scored, 1, 75)));
    expect(technique.axes).toContainEqual({ key: 'pagespeed', score: 75, weight: 1, factor: Math.exp(-0.35 * 0.25), checks: [] });
    // Its axes multiply to the score, PageSpeed and the slow page included.
    expect(Math.round(technique.computation.exact)).toBe(technique.score);
  });

  it('reads failed when every measurement was refused, with null strategies', async () => {
    stand.reset();
    const { campaign } = await projectWithCampaign(psi, site.url, { pagespeed: true });
    const crawl = await crawlToSettled(psi, campaign.id);
    const result = await pagespeedOf(psi, crawl.id);
    expect(result).toMatchObject({ status: 'failed', failed: true, mobile: null, desktop: null, combined: null, provider: 'pagespeed_insights' });
    expect(result.sample.map((s: { error: string }) => s.error)).toEqual(['FAILED_DOCUMENT_REQUEST', 'FAILED_DOCUMENT_REQUEST', 'FAILED_DOCUMENT_REQUEST']);
    expect(await allIssues(psi, crawl.id, '&name=lighthouse_mobile_slow')).toEqual([]);
  });

  it('drops lighthouse_mobile_slow on a URL the campaign excludes from issues', async () => {
    stand.reset();
    stand.scores.set(`${site.url}/`, { mobile: 0.2, desktop: 0.3 });
    const { campaign } = await projectWithCampaign(psi, site.url, { pagespeed: true, issue_exclusion_patterns: `${site.url}/` });
    const crawl = await crawlToSettled(psi, campaign.id);
    expect((await pagespeedOf(psi, crawl.id)).mobile).toEqual({ score: 20, pages_measured: 1, pages_failed: 2 });
    expect(await allIssues(psi, crawl.id, '&name=lighthouse_mobile_slow')).toEqual([]);
  });
});

// Lighthouse measures the same page on either database, and storing its result is the step the
// PageSpeed Insights cases above cover on both: the real run is the SQLite project's only.
describe.skipIf(!HAS_CHROMIUM || onPostgres)(`PageSpeed step with Lighthouse on the local Chromium${onPostgres ? ' (SQLite project only)' : SKIP_NOTE}`, () => {
  it(
    'measures the home page of a one-page site for real',
    async () => {
      const one = await startSite({
        '/': { html: '<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width"><title>One page site for Lighthouse</title></head><body><h1>Hello</h1><p>Some text.</p></body></html>' },
        '/robots.txt': { html: 'User-agent: *\nAllow: /\n', headers: { 'content-type': 'text/plain' } },
      });
      const h = await startHarness({ providers: { pagespeed: createLighthousePageSpeed({ chromePath: CHROME, allowPrivateAddresses: true }) } });
      try {
        const { campaign } = await projectWithCampaign(h, one.url, { pagespeed: true });
        const crawl = await crawlToSettled(h, campaign.id);
        const result = await pagespeedOf(h, crawl.id);
        expect(result).toMatchObject({ status: 'measured', provider: 'lighthouse', failed: false });
        expect(result.sample).toHaveLength(1);
        expect(result.sample[0]).toMatchObject({ url: `${one.url}/`, role: 'home', error: null });
        expect(result.mobile).toMatchObject({ pages_measured: 1, pages_failed: 0 });
        expect(result.desktop).toMatchObject({ pages_measured: 1, pages_failed: 0 });
        expect(result.combined).toBeCloseTo((result.mobile.score + result.desktop.score) / 2, 1);
      } finally {
        await h.close();
        await one.close();
      }
    },
    BROWSER_TIMEOUT * 2,
  );
});
