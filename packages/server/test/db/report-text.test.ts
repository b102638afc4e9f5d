/**
 * The reports of a real crawl, over HTTP on both databases: the PDF and the workbook list the
 * checks in the order GET /v1/crawls/{crawl}/recommendations gives them (errors, warnings,
 * notices, then pages affected, then the score points a fix would win), with the same pages and
 * points; the PDF's text (pdf.js and poppler's pdftotext) has its formulas' glyphs, no `?` for a
 * character and no label cut, in French and in English.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSiteWideCheck } from '@siteaudit/schema/rules';
import { pdfPages, pdftotext } from '../../../../tests/support/pdf-read.js';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { startSite, type Site } from '../../../../tests/support/site.js';
import { crawlToSettled, projectWithCampaign } from './support/crawl-flow.js';
import { exportedFile } from './support/exports.js';

let h: Harness;
let site: Site;
let crawlId: string;
let fixes: { name: string; label: string; severity: string; pages: number; occurrences: number; score_points: number; pillar: string }[];
/** The points are of the check's pillar: the reports name it. */
let scoredPages: Record<string, number | null>;
const PILLAR_EN: Record<string, string> = { technique: 'Technical', contenu: 'Content and GEO', accessibilite: 'Accessibility' };

beforeAll(async () => {
  h = await startHarness();
  site = await startSite();
  const { project, campaign } = await projectWithCampaign(h, site.url);
  crawlId = (await crawlToSettled(h, campaign.id)).id;
  const pillars = (await (await h.call('GET', `/v1/projects/${project.id}/scorecard`)).json()).data.pillars;
  scoredPages = Object.fromEntries(pillars.map((p: { key: string; computation: { scored_pages: number | null } }) => [p.key, p.computation.scored_pages]));
  const res = await h.call('GET', `/v1/crawls/${crawlId}/recommendations?limit=100`, { headers: { 'accept-language': 'en' } });
  expect(res.status).toBe(200);
  fixes = (await res.json()).data;
});
afterAll(async () => {
  await h?.close();
  await site?.close();
});

describe('the reports of a real crawl', () => {
  it('is the API fix list: errors, warnings, notices, then pages affected, then score points', () => {
    expect(fixes.length).toBeGreaterThan(3);
    const rank = { error: 0, warning: 1, info: 2 } as Record<string, number>;
    // A site-wide check is on every page (reported on one URL).
    const affected = (r: { name: string; pages: number }) => (isSiteWideCheck(r.name) ? Infinity : r.pages);
    for (let i = 1; i < fixes.length; i++) {
      const [a, b] = [fixes[i - 1], fixes[i]];
      expect(rank[a.severity] < rank[b.severity] || (a.severity === b.severity && (affected(a) > affected(b) || (affected(a) === affected(b) && a.score_points >= b.score_points)))).toBe(true);
    }
  });

  it('the workbook lists the checks in that order, with their pages, score points and the pillar of the points', async () => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await exportedFile(h, crawlId, 'xlsx', 'en')) as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    wb.getWorksheet('Summary')!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    const header = rows.findIndex((r) => r[0] === 'Issue');
    expect(rows[header]).toEqual(['Issue', 'Label', 'Severity', 'Category', 'Occurrences', 'Pages affected', 'Scope', 'Score points', 'Pillar']);
    // The groups run to the template decisions, listed below them.
    const decisions = rows.findIndex((r) => r[0] === 'Template decisions');
    const listed = rows.slice(header + 1, decisions < 0 ? undefined : decisions).filter((r) => typeof r[0] === 'string' && r[0] !== '');
    expect(listed.map((r) => r[0])).toEqual(fixes.map((f) => f.name));
    // A site-wide check is found on one URL and concerns every page: every scored page, a number
    // (the column sorts and sums), and "whole site" as its scope, as the PDF says.
    expect(listed.map((r) => [r[5], r[6] ?? '', r[7], r[8]])).toEqual(
      fixes.map((f) => (isSiteWideCheck(f.name) ? [scoredPages[f.pillar], 'whole site'] : [f.pages, '']).concat([f.score_points, PILLAR_EN[f.pillar]])),
    );
    expect(listed.map((r) => r[6])).toContain('whole site');
    expect(listed.every((r) => typeof r[5] === 'number')).toBe(true);
    // A content check's points are the Content and GEO pillar's, and say so.
    expect(listed.map((r) => r[8])).toContain('Content and GEO');
  });

  it('both reports print the issue summary\'s template decisions, one line each, in both languages', async () => {
    const res = await h.call('GET', `/v1/crawls/${crawlId}/issues/summary`, { headers: { 'accept-language': 'en' } });
    const groups: { name: string; templates: { section: string | null; pages: number; share: number; details: string; examples: string[] }[] }[] = (await res.json()).data.groups;
    const expected = groups.flatMap((g) => g.templates.map((t) => ({ name: g.name, ...t })));
    // The test site is served over plain HTTP: http_page is a decision of the whole site.
    expect(expected.find((t) => t.name === 'http_page')).toMatchObject({ section: null, share: 1 });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await exportedFile(h, crawlId, 'xlsx', 'en')) as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    wb.getWorksheet('Summary')!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    const title = rows.findIndex((r) => r[0] === 'Template decisions');
    const listed = rows.slice(title + 2).map((r) => [r[0], r[3], r[4], r[5], r[6]]);
    expect(listed.map((r) => r[0]).sort()).toEqual(expected.map((t) => t.name).sort());
    for (const t of expected) expect(listed).toContainEqual([t.name, t.pages, t.share, t.details, t.examples.join('\n')]);
    for (const language of ['en', 'fr'] as const) {
      const text = (await pdfPages(await exportedFile(h, crawlId, 'pdf', language))).join(' ').replace(/\s+/g, ' ');
      expect(text).toContain(language === 'en' ? 'Template decisions' : 'Décisions de modèle');
      const http = expected.find((t) => t.name === 'http_page')!;
      expect(text).toContain(language === 'en' ? `whole site: ${http.pages} pages (100%)` : `tout le site : ${http.pages} pages (100 %)`);
      for (const url of http.examples) expect(text).toContain(url);
    }
  });

  it('the PDF lists its top issues and its issue tables in that order, in both languages', async () => {
    for (const language of ['en', 'fr'] as const) {
      const res = await h.call('GET', `/v1/crawls/${crawlId}/recommendations?limit=100`, { headers: { 'accept-language': language } });
      const list: typeof fixes = (await res.json()).data;
      const pages = (await pdfPages(await exportedFile(h, crawlId, 'pdf', language))).map((p) => p.replace(/\s+/g, ' '));
      const topStart = pages.findIndex((p) => p.includes(language === 'en' ? 'Top issues' : 'Principaux problèmes'));
      const top = pages.slice(topStart).join(' ');
      const section = top.slice(top.indexOf(language === 'en' ? 'Top issues' : 'Principaux problèmes'));
      const positions = list.slice(0, 10).map((f) => section.indexOf(`${f.label} `));
      expect(positions.every((p) => p >= 0), language).toBe(true);
      expect([...positions].sort((a, b) => a - b)).toEqual(positions);
      // Each with its pages and points, as the API gives them.
      const first = list[0];
      expect(section).toContain(language === 'en' ? `pages affected: ${first.pages}` : `pages touchées : ${first.pages}`);
      if (language === 'en') for (const f of list.slice(0, 10)) expect(section).toContain(`score points: +${f.score_points} (${PILLAR_EN[f.pillar]})`);
      // A site-wide check (sitemap_missing here) is on the whole site, as the scorecard prints it, not on "1" page.
      const siteWide = list.slice(0, 10).filter((f) => isSiteWideCheck(f.name));
      expect(siteWide.length).toBeGreaterThan(0);
      for (const f of siteWide) {
        const at = section.indexOf(`${f.label} `);
        expect(section.slice(at, at + 400)).toContain(language === 'en' ? 'pages affected: whole site' : 'pages touchées : tout le site');
      }
    }
  });

  it('prints formulas with real glyphs, no ? for a character and no label cut, in French and in English', async () => {
    for (const language of ['fr', 'en'] as const) {
      const pdf = await exportedFile(h, crawlId, 'pdf', language);
      for (const text of [(await pdfPages(pdf)).join('\n'), pdftotext(pdf)]) {
        if (text === null) continue;
        const squeezed = text.replace(/\s+/g, ' ');
        const own = squeezed.replace(/https?:\/\/\S+/g, '').replace(/\/\S*/g, '');
        expect(own, language).not.toContain('?');
        expect(own.match(/\p{L}…/gu), language).toBeNull();
        expect(squeezed).toMatch(/exp\(−/);
        expect(squeezed).toMatch(/× √0[.,]\d{3}/);
      }
    }
  });

  it("lists the content checks in the technical pillar's fixes too: the health score counts them", async () => {
    const text = (await pdfPages(await exportedFile(h, crawlId, 'pdf', 'en'))).join(' ').replace(/\s+/g, ' ');
    const scorecard = text.slice(text.indexOf('Five pillars'));
    const technical = scorecard.slice(scorecard.search(/Technical \d+ \/ 100/), scorecard.search(/Content and GEO \d+ \/ 100/));
    const fixes = technical.slice(technical.indexOf('What to fix'));
    expect(technical).toContain('Content and GEO checks');
    expect(fixes).toContain('Title missing or empty');
    expect(fixes).toContain('Broken internal link');
  });
});
