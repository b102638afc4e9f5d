import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { startSite, type Site } from '../../../../tests/support/site.js';
import { pdfPages } from '../../../../tests/support/pdf-read.js';
import { isSiteWideCheck } from '@siteaudit/schema/rules';
import { exportStrings } from '../../src/reports/i18n.js';
import { exportedFile } from './support/exports.js';

let h: Harness;
let site: Site;
let now = new Date('2026-03-10T10:00:00.000Z');
let crawlId: string;
let projectId: string;

/** The PDF's text, read by pdf.js with its standard fonts (no warning about a missing font). */
async function pdfText(bytes: Uint8Array): Promise<string> {
  return (await pdfPages(Buffer.from(bytes))).join(' ');
}

beforeAll(async () => {
  h = await startHarness({ clock: () => now });
  site = await startSite();
  const project = (await (await h.call('POST', '/v1/projects', { body: { url: `${site.url}/`, name: 'Exported Site' } })).json()).data;
  projectId = project.id;
  const campaign = (await (await h.call('GET', `/v1/projects/${project.id}/campaigns`)).json()).data[0];
  crawlId = (await (await h.call('POST', `/v1/campaigns/${campaign.id}/crawls`, { headers: { 'idempotency-key': 'export-crawl' } })).json()).data.id;
  await h.server.jobs.idle();
});
afterAll(async () => {
  await h.close();
  await site.close();
});

const request = (format: string, headers: Record<string, string> = {}) => h.call('POST', `/v1/crawls/${crawlId}/exports`, { body: { format }, headers });

describe('exports', () => {
  it('generates a PDF holding the project name and issue names, downloadable as an attachment', async () => {
    const res = await request('pdf', { 'accept-language': 'en' });
    expect(res.status).toBe(202);
    const queued = (await res.json()).data;
    expect(res.headers.get('location')).toMatch(new RegExp(`/v1/exports/${queued.id}$`));
    expect(queued).toMatchObject({ status: 'queued', format: 'pdf', download_url: null });
    expect((await h.call('GET', `/v1/exports/${queued.id}/download`)).status).toBe(409);

    await h.server.jobs.idle();
    const ready = (await (await h.call('GET', `/v1/exports/${queued.id}`)).json()).data;
    expect(ready.status).toBe('ready');
    expect(ready.size_bytes).toBeGreaterThan(1000);
    expect(ready.download_url).toMatch(/\/v1\/exports\/.+\/download$/);
    expect(Date.parse(ready.expires_at)).toBeGreaterThan(Date.parse(ready.finished_at));

    const file = await h.call('GET', new URL(ready.download_url).pathname);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-disposition')).toMatch(/^attachment; filename=".+\.pdf"$/);
    const bytes = new Uint8Array(await file.arrayBuffer());
    expect(bytes.length).toBe(ready.size_bytes);
    const text = await pdfText(bytes);
    expect(text).toContain('Exported Site');
    expect(text).toContain('Broken internal link');
    // The 301 row shows its target where a page shows its title.
    expect(text.replace(/\s+/g, ' ')).toContain(`${site.url}/old 301 Redirects to /about`);
  });

  it('returns the identical export in progress instead of a second one', async () => {
    const [a, b] = [await request('pdf'), await request('pdf')];
    expect((await a.json()).data.id).toBe((await b.json()).data.id);
    await h.server.jobs.idle();
  });

  it('returns one export to identical requests sent at the same time', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => request('pdf', { 'accept-language': 'en' })));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(202));
    const ids = new Set(await Promise.all(answers.map(async (a) => (await a.json()).data.id)));
    expect(ids.size).toBe(1);
    await h.server.jobs.idle();
  });

  it('builds a workbook with summary, issues, pages and PageSpeed sheets', async () => {
    const id = (await (await request('xlsx')).json()).data.id;
    await h.server.jobs.idle();
    const file = await h.call('GET', `/v1/exports/${id}/download`);
    expect(file.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(await file.arrayBuffer()) as never);
    expect(workbook.worksheets.map((w) => w.name)).toEqual(['Synthèse', 'Problèmes', 'Pages', 'PageSpeed', 'Évolutions', 'Bilan par pilier']); // French, the default
    const crawl = (await (await h.call('GET', `/v1/crawls/${crawlId}`)).json()).data;
    const summary = (await (await h.call('GET', `/v1/crawls/${crawlId}/issues/summary`)).json()).data;
    const occurrences = summary.totals.error + summary.totals.warning + summary.totals.info;
    expect(workbook.getWorksheet('Problèmes')!.actualRowCount).toBe(occurrences + 1);
    const pages = (await (await h.call('GET', `/v1/crawls/${crawlId}/pages?limit=100`)).json()).data.length;
    expect(workbook.getWorksheet('Pages')!.actualRowCount).toBe(pages + 1);
    expect(crawl.status).toBe('completed');
    // A 301 row says where it leads (the fixture's /old redirects to /about).
    const sheet = workbook.getWorksheet('Pages')!;
    const header = (sheet.getRow(1).values as unknown[]).map(String);
    const target = header.indexOf('Redirige vers');
    expect(target).toBeGreaterThan(0);
    const rows = sheet.getRows(2, sheet.actualRowCount - 1)!.map((r) => r.values as unknown[]);
    const old = rows.find((r) => JSON.stringify(r[1]).includes(`${site.url}/old`))!;
    expect(old[target]).toBe(`${site.url}/about`);
    expect(rows.filter((r) => r[target] !== undefined && r[target] !== null && r[target] !== '')).toHaveLength(1);
  });

  // The site has no XML sitemap: sitemap_missing, a site-wide check, is found on one URL (the
  // home page) and concerns every page. The PDF says "whole site"; the workbook said 1, then
  // "whole site" in a column of numbers: now every scored page as a number, and its scope beside it.
  it('counts a site-wide check on every scored page, as a number, with "whole site" in the scope column, in English and French', async () => {
    const summary = (await (await h.call('GET', `/v1/crawls/${crawlId}/issues/summary`)).json()).data;
    const names: string[] = summary.groups.map((g: { name: string }) => g.name);
    const siteWide = names.filter(isSiteWideCheck);
    expect(siteWide).toContain('sitemap_missing');
    const pageChecks = names.filter((n) => !isSiteWideCheck(n));
    expect(pageChecks.length).toBeGreaterThan(0);
    const pillars = (await (await h.call('GET', `/v1/projects/${projectId}/scorecard`)).json()).data.pillars;
    const scored: number = pillars.find((p: { key: string }) => p.key === 'technique').computation.scored_pages;
    expect(scored).toBeGreaterThan(1);

    for (const [language, sheets, wholeSite] of [
      ['en', { summary: 'Summary', scorecard: 'Scorecard' }, 'whole site'],
      ['fr', { summary: 'Synthèse', scorecard: 'Bilan par pilier' }, 'tout le site'],
    ] as const) {
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load((await exportedFile(h, crawlId, 'xlsx', language)) as never);
      const t = exportStrings(language);
      /** Pages affected and scope by check name, read under the sheet's header row that names the columns. */
      const pagesAffectedIn = (name: string) => {
        const rows = (workbook.getWorksheet(name)!.getSheetValues() as unknown[][]).filter(Boolean);
        const header = rows.findIndex((r) => r.includes(t.pagesAffected) && r.includes(t.issue));
        expect(header, `${language} ${name}`).toBeGreaterThanOrEqual(0);
        const [issue, pages, scope] = [rows[header].indexOf(t.issue), rows[header].indexOf(t.pagesAffected), rows[header].indexOf(t.scope)];
        expect(scope, `${language} ${name} scope column`).toBeGreaterThan(0);
        // The table ends where the next one starts (the template decisions, on the summary sheet).
        const after = rows.slice(header + 1);
        const end = after.findIndex((r) => r.includes(t.issue) || r.includes(t.templateDecisions));
        const table = end < 0 ? after : after.slice(0, end);
        return new Map(table.filter((r) => typeof r[issue] === 'string').map((r) => [r[issue] as string, { pages: r[pages], scope: r[scope] ?? '' }]));
      };
      for (const sheet of [sheets.summary, sheets.scorecard]) {
        const cells = pagesAffectedIn(sheet);
        expect(cells.get('sitemap_missing'), `${language} ${sheet}`).toEqual({ pages: scored, scope: wholeSite });
        for (const [name, { pages, scope }] of cells) {
          // One type in the column: a number, or blank for a check outside the fix list.
          expect(typeof pages === 'number' || pages === '' || pages === undefined || pages === null, `${language} ${sheet} ${name}: ${String(pages)}`).toBe(true);
          if (!isSiteWideCheck(name)) expect(scope, `${language} ${sheet} ${name}`).not.toBe(wholeSite);
        }
        if (sheet === sheets.summary) for (const name of pageChecks) expect(cells.get(name)?.scope, `${language} summary ${name}`).not.toBe(wholeSite);
        expect([...cells.values()].some(({ pages, scope }) => typeof pages === 'number' && pages > 1 && scope === '')).toBe(true);
      }
    }
  });

  it('answers 410 once the export has expired and been removed', async () => {
    const id = (await (await request('pdf', { 'accept-language': 'fr' })).json()).data.id;
    await h.server.jobs.idle();
    now = new Date(now.getTime() + 8 * 86_400_000);
    const gone = await h.call('GET', `/v1/exports/${id}/download`);
    expect(gone.status).toBe(410);
    expect((await gone.json()).code).toBe('export.expired');
    const row = (await (await h.call('GET', `/v1/exports/${id}`)).json()).data;
    expect(row).toMatchObject({ status: 'expired', download_url: null });
  });

  it('refuses Excel on a plan without it, naming the plan that includes it', async () => {
    const token = await h.tokenFor({ team: 'pro-team', plan: 'pro' });
    const project = (await (await h.call('POST', '/v1/projects', { token, body: { url: `${site.url}/` } })).json()).data;
    const campaign = (await (await h.call('GET', `/v1/projects/${project.id}/campaigns`, { token })).json()).data[0];
    const crawl = (await (await h.call('POST', `/v1/campaigns/${campaign.id}/crawls`, { token, headers: { 'idempotency-key': 'pro' } })).json()).data.id;
    await h.server.jobs.idle();
    const refused = await h.call('POST', `/v1/crawls/${crawl}/exports`, { token, body: { format: 'xlsx' } });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'plan_limit.exports.excel', upgrade_to: 'agency' });
    expect((await h.call('POST', `/v1/crawls/${crawl}/exports`, { token, body: { format: 'pdf' } })).status).toBe(202);
    await h.server.jobs.idle();
  });

  it('names a missing format as required, and an unknown one as a value outside the list', async () => {
    const crawl = crawlId;
    const missing = await (await h.call('POST', `/v1/crawls/${crawl}/exports`, { body: {} })).json();
    expect(missing.errors.format.map((e: { code: string }) => e.code)).toEqual(['required']);
    const unknown = await (await h.call('POST', `/v1/crawls/${crawl}/exports`, { body: { format: 'csv' } })).json();
    expect(unknown.errors.format.map((e: { code: string }) => e.code)).toEqual(['invalid_value']);
  });

  it('refuses an export of a crawl that has not finished', async () => {
    const project = (await (await h.call('POST', '/v1/projects', { body: { url: `${site.url}/` } })).json()).data;
    const campaign = (await (await h.call('GET', `/v1/projects/${project.id}/campaigns`)).json()).data[0];
    const release = site.hold();
    const crawl = (await (await h.call('POST', `/v1/campaigns/${campaign.id}/crawls`, { headers: { 'idempotency-key': 'running' } })).json()).data.id;
    const refused = await h.call('POST', `/v1/crawls/${crawl}/exports`, { body: { format: 'pdf' } });
    release();
    expect(refused.status).toBe(409);
    expect((await refused.json()).code).toBe('crawl.not_finished');
    await h.server.jobs.idle();
  });

  it('reports a later crawl in French with the scorecard pillars and the health score of both comparable crawls', async () => {
    const first = (await (await h.call('GET', `/v1/crawls/${crawlId}`)).json()).data;
    now = new Date(now.getTime() + 3 * 86_400_000);
    const second = (await (await h.call('POST', `/v1/campaigns/${first.campaign_id}/crawls`, { headers: { 'idempotency-key': 'second-crawl' } })).json()).data.id;
    await h.server.jobs.idle();
    const later = (await (await h.call('GET', `/v1/crawls/${second}`)).json()).data;
    expect(later.status).toBe('completed');

    const id = (await (await h.call('POST', `/v1/crawls/${second}/exports`, { body: { format: 'pdf' }, headers: { 'accept-language': 'fr' } })).json()).data.id;
    await h.server.jobs.idle();
    const text = await pdfText(new Uint8Array(await (await h.call('GET', `/v1/exports/${id}/download`)).arrayBuffer()));
    expect(text).toContain('Exported Site');
    for (const pillar of ['Technique', 'Contenu et GEO', 'Accessibilité']) expect(text).toContain(pillar);
    expect(text).toContain('Score de santé des derniers crawls comparables');
    // Both crawls sit on the chart's axis, under their finishing day.
    const day = new Intl.DateTimeFormat('fr', { day: 'numeric', month: 'short', timeZone: 'UTC' });
    for (const crawl of [first, later]) expect(text).toContain(day.format(new Date(crawl.finished_at)));
    expect(text).not.toContain('links_images');
  });
});
