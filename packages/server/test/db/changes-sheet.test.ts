/**
 * The workbook's Changes sheet says what a page without a status became: a page that robots.txt
 * now disallows reads "Blocked by robots.txt" in its Status cell, in English and in French, where
 * the cell was blank.
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
});
