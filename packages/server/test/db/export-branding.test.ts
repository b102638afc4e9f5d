/**
 * Cover branding of an export over HTTP, on both databases (docs/decisions/export-branding.md):
 * the agency's name and logo on the PDF's cover, the name in the workbook; a logo that is not a
 * small PNG or JPEG is refused with 422 at `branding.logo`; branding is part of what makes two
 * requests in progress the same export.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfPages } from '../../../../tests/support/pdf-read.js';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { dataUrl, png } from '../../../../tests/support/images.js';
import { startSite, type Site } from '../../../../tests/support/site.js';
import { crawlToSettled, projectWithCampaign } from './support/crawl-flow.js';

let h: Harness;
let site: Site;
let crawlId: string;
const LOGO = dataUrl('png', png(160, 48, [18, 120, 200]));

beforeAll(async () => {
  h = await startHarness();
  site = await startSite();
  const { campaign } = await projectWithCampaign(h, site.url);
  crawlId = (await crawlToSettled(h, campaign.id)).id;
});
afterAll(async () => {
  await h?.close();
  await site?.close();
});

const request = (body: unknown, language = 'en') => h.call('POST', `/v1/crawls/${crawlId}/exports`, { body, headers: { 'accept-language': language } });

async function download(id: string): Promise<Buffer> {
  await h.server.jobs.idle();
  const file = await h.call('GET', `/v1/exports/${id}/download`);
  expect(file.status).toBe(200);
  return Buffer.from(await file.arrayBuffer());
}

describe('export branding', () => {
  it("puts the agency's name and logo on the PDF cover, in the report's language", async () => {
    for (const [language, prepared] of [['en', 'Prepared by Agence Dupont & Fils'], ['fr', 'Préparé par Agence Dupont & Fils']] as const) {
      const res = await request({ format: 'pdf', branding: { agency_name: 'Agence Dupont & Fils', logo: LOGO } }, language);
      expect(res.status).toBe(202);
      const pdf = await download((await res.json()).data.id);
      const [cover] = await pdfPages(pdf);
      expect(cover.replace(/\s+/g, ' ')).toContain(prepared);
      // The logo is embedded as an image on the cover.
      expect(pdf.toString('latin1')).toMatch(/\/Subtype \/Image/);
    }
    // Without branding: no image, no agency line.
    const plain = await download((await (await request({ format: 'pdf' })).json()).data.id);
    expect(plain.toString('latin1')).not.toMatch(/\/Subtype \/Image/);
    expect((await pdfPages(plain))[0]).not.toContain('Prepared by');
  });

  it("prints the agency's name in the workbook", async () => {
    const res = await request({ format: 'xlsx', branding: { agency_name: 'Agence Dupont' } });
    expect(res.status).toBe(202);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await download((await res.json()).data.id)) as unknown as ArrayBuffer);
    const values: unknown[] = [];
    wb.getWorksheet('Summary')!.eachRow((row) => values.push(...(row.values as unknown[]).slice(1)));
    expect(values).toEqual(expect.arrayContaining(['Prepared by', 'Agence Dupont']));
  });

  it('refuses a logo that is not a small PNG or JPEG, and an empty or unknown branding field, with 422', async () => {
    const cases: [unknown, string][] = [
      [{ logo: 'https://agency.example/logo.png' }, 'branding.logo'],
      [{ logo: dataUrl('png', Buffer.from('GIF89a not a png')) }, 'branding.logo'],
      [{ logo: dataUrl('png', png(2, 2, [0, 0, 0], 300 * 1024)) }, 'branding.logo'],
      [{ agency_name: '' }, 'branding.agency_name'],
      [{}, 'branding'],
      [{ agency_name: 'A', colour: 'red' }, 'branding'],
    ];
    for (const [branding, field] of cases) {
      const res = await request({ format: 'pdf', branding }, 'fr');
      expect(res.status, JSON.stringify(branding).slice(0, 80)).toBe(422);
      const problem = await res.json();
      expect(Object.keys(problem.errors ?? {}).some((k) => k === field || k.startsWith(`${field}.`)), `${field} in ${JSON.stringify(problem.errors)}`).toBe(true);
    }
  });

  it('returns the export in progress only for the same branding', async () => {
    const body = { format: 'pdf', branding: { agency_name: 'Same Agency' } };
    const first = (await (await request(body)).json()).data;
    const again = (await (await request(body)).json()).data;
    const other = (await (await request({ format: 'pdf', branding: { agency_name: 'Other Agency' } })).json()).data;
    expect(again.id).toBe(first.id);
    expect(other.id).not.toBe(first.id);
    await h.server.jobs.idle();
  });
});
