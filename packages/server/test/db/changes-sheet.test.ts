/**
 * The workbook's Changes sheet says what a page without a status became: a page that robots.txt
 * now disallows reads "Blocked by robots.txt" in its Status cell, in English and in French, where
 * the cell was blank; a redirect that points elsewhere says where it pointed and where it points.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { PAGES, startSite, type Site } from '../../../../tests/support/site.js';
import { crawlToSettled, projectWithCampaign } from './support/crawl-flow.js';
import { exportedFile } from './support/exports.js';

let h: Harness;
let site: Site;
let crawlId: string;

beforeAll(async () => {
  h = await startHarness();
  const pages = structuredClone(PAGES);
  site = await startSite(pages);
  const { campaign } = await projectWithCampaign(h, site.url);
  await crawlToSettled(h, campaign.id);
  pages['/robots.txt'] = { ...pages['/robots.txt'], html: 'User-agent: *\nDisallow: /about\n' };
  // /old still answers 301, now to the blog.
  pages['/old'] = { status: 301, headers: { location: '/blog/' } };
  crawlId = (await crawlToSettled(h, campaign.id)).id;
});
afterAll(async () => {
  await h?.close();
  await site?.close();
});

describe('the Changes sheet', () => {
  it('says a page became blocked by robots.txt, in English and in French', async () => {
    for (const [language, sheetName, kind, blocked] of [
      ['en', 'Changes', 'Status code changed', 'Blocked by robots.txt'],
      ['fr', 'Évolutions', 'Code de statut modifié', 'Bloquée par robots.txt'],
    ] as const) {
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load((await exportedFile(h, crawlId, 'xlsx', language)) as unknown as ArrayBuffer);
      const rows: unknown[][] = [];
      wb.getWorksheet(sheetName)!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
      const about = rows.find((r) => r[0] === kind && typeof r[4] === 'string' && new URL(r[4]).pathname === '/about');
      expect(about, language).toBeDefined();
      // Status now, then before.
      expect(about!.slice(6, 8), language).toEqual([blocked, 200]);
    }
  });

  it('says where a redirect pointed and where it points now, in English and in French', async () => {
    for (const [language, sheetName, kind, none] of [
      ['en', 'Changes', 'Redirect changed', 'no redirect'],
      ['fr', 'Évolutions', 'Redirection modifiée', 'pas de redirection'],
    ] as const) {
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load((await exportedFile(h, crawlId, 'xlsx', language)) as unknown as ArrayBuffer);
      const rows: unknown[][] = [];
      wb.getWorksheet(sheetName)!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
      const changed = rows.filter((r) => r[0] === kind);
      expect(changed.map((r) => [new URL(String(r[4])).pathname, r[5], r[6], r[7]]), language).toEqual([['/old', `${site.url}/about → ${site.url}/blog/`, 301, 301]]);
      expect(String(changed[0][5]), language).not.toContain(none);
    }
  });
});
