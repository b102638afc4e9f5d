/**
 * The reports' log section (docs/decisions/exports.md#the-log-section): two access logs imported
 * over HTTP into a crawled project, then the PDF read back as text and the workbook opened, in
 * French and in English; a project without logs has neither the section nor the sheets.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { urlStatStream } from '../../src/modules/logs/report-reads.js';
import type { DnsResolver } from '../../src/modules/logs/reverse-dns.js';
import { pdfPages } from '../../../../tests/support/pdf-read.js';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { accessLine, USER_AGENTS } from '../../../../tests/support/access-log.js';
import { exportedFile } from './support/exports.js';
import { manualClock } from '../../../../tests/support/http.js';
import { startSite, type Site } from '../../../../tests/support/site.js';

const clock = manualClock('2026-03-10T10:00:00.000Z');
/** No address outside the published ranges is a real crawler here. */
const resolver: DnsResolver = {
  async reverse() {
    throw Object.assign(new Error('queryPtr ENOTFOUND'), { code: 'ENOTFOUND' });
  },
  async lookup() {
    return [];
  },
};

const { googlebot: GOOGLEBOT, bingbot: BINGBOT, gptbot: GPTBOT, browser: BROWSER } = USER_AGENTS;
const line = accessLine;

/**
 * Against the test site (/, /about, /blog/, /blog/post-1 indexable; /old a 301, /missing a 404).
 * Trusted bot hits: Googlebot 7 (+1 in the second file), Bingbot 1, GPTBot 1; two claims from an
 * address outside Google's ranges; three human hits.
 */
const FIRST = [
  line('66.249.66.1', 8, '/', 200, GOOGLEBOT),
  line('66.249.66.1', 9, '/', 200, GOOGLEBOT),
  line('66.249.66.1', 9, '/about', 200, GOOGLEBOT),
  line('66.249.66.1', 9, '/orphan-page', 200, GOOGLEBOT),
  line('66.249.66.1', 9, '/orphan-page', 200, GOOGLEBOT),
  line('66.249.66.1', 9, '/old', 301, GOOGLEBOT),
  line('66.249.66.1', 9, '/missing?utm=x', 404, GOOGLEBOT),
  line('203.0.113.9', 9, '/wp-login.php', 404, GOOGLEBOT),
  line('203.0.113.9', 9, '/wp-login.php', 404, GOOGLEBOT),
  line('157.55.39.10', 9, '/about', 200, BINGBOT),
  line('20.171.207.1', 9, '/blog/', 200, GPTBOT),
  line('192.0.2.44', 9, '/', 200, BROWSER),
  line('192.0.2.45', 9, '/about', 200, BROWSER),
  line('192.0.2.46', 9, '/blog/', 200, BROWSER),
].join('\n');
const SECOND = line('66.249.66.1', 9, '/', 200, GOOGLEBOT);

let h: Harness;
let site: Site;
let logged: { project: string; crawl: string };
let plain: { crawl: string };

async function crawledProject(name: string): Promise<{ project: string; crawl: string }> {
  const project = (await (await h.call('POST', '/v1/projects', { body: { url: `${site.url}/`, name } })).json()).data;
  const campaign = (await (await h.call('GET', `/v1/projects/${project.id}/campaigns`)).json()).data[0];
  const crawl = (await (await h.call('POST', `/v1/campaigns/${campaign.id}/crawls`, { headers: { 'idempotency-key': `crawl-${name}` } })).json()).data;
  await h.server.jobs.idle();
  return { project: project.id, crawl: crawl.id };
}

async function upload(projectId: string, body: string): Promise<void> {
  const res = await fetch(`${h.url}/v1/projects/${projectId}/log-imports`, { method: 'POST', headers: { authorization: `Bearer ${h.token}`, 'content-type': 'text/plain' }, body });
  expect(res.status).toBe(202);
  await h.server.jobs.idle();
  const id = (await res.json()).data.id;
  expect((await (await h.call('GET', `/v1/projects/${projectId}/log-imports/${id}`)).json()).data.status).toBe('completed');
}

const exported = (crawlId: string, format: 'pdf' | 'xlsx', language: 'fr' | 'en') => exportedFile(h, crawlId, format, language);

/** The text of PDF pages with the spacing between drawn items made one space. */
const flat = (pages: string[]) => pages.join(' ').replace(/\s+/g, ' ');

async function workbook(buffer: Buffer): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buffer as never);
  return wb;
}

/** A sheet's rows below its header, as cell texts. */
function rows(sheet: ExcelJS.Worksheet): string[][] {
  const out: string[][] = [];
  sheet.eachRow((row, n) => {
    if (n > 1) out.push((row.values as unknown[]).slice(1).map((v) => (v instanceof Date ? v.toISOString() : String(v ?? ''))));
  });
  return out;
}

beforeAll(async () => {
  h = await startHarness({ clock: clock.clock, logs: { resolver } });
  site = await startSite();
  logged = await crawledProject('Logged');
  plain = await crawledProject('Plain');
  await upload(logged.project, FIRST);
  await upload(logged.project, SECOND);
}, 60_000);
afterAll(async () => {
  await h?.close();
  await site?.close();
});

describe('the log section of the reports', () => {
  it('streams every URL statistic in pages, merged over the imports, as the API lists them', async () => {
    const api = (await (await h.call('GET', `/v1/projects/${logged.project}/logs/urls?limit=100`)).json()).data as { path: string; family: string; verification: string }[];
    const key = (u: { path: string; family: string; verification: string }) => `${u.family} ${u.verification} ${u.path}`;
    // Pages of two rows: a key whose rows of both imports straddle a page still comes out once.
    const streamed = [];
    for await (const u of urlStatStream(h.knex, logged.project, 2)) streamed.push(u);
    expect(streamed.map(key).sort()).toEqual(api.map(key).sort());
    expect(streamed.find((u) => u.path === '/' && u.family === 'googlebot')).toMatchObject({ hits: 3, status_codes: { '200': 3 }, verification: 'verified' });
    expect(streamed.map((u) => u.path).filter((p, i, all) => all.indexOf(p) !== i)).toEqual(['/about']);
  });

  it('prints the section in the English PDF with the figures of the logs', async () => {
    const pages = await pdfPages(await exported(logged.crawl, 'pdf', 'en'));
    const at = pages.findIndex((p) => p.includes('What bots crawl (access logs)'));
    expect(at).toBeGreaterThan(0);
    // The section runs until the next one.
    const end = pages.findIndex((p, i) => i > at && p.includes('Issues by severity and category'));
    const text = flat(pages.slice(at, end));
    const card = (await (await h.call('GET', `/v1/projects/${logged.project}/scorecard`)).json()).data;
    const pillar = card.pillars.find((p: { key: string }) => p.key === 'logs');
    expect(pillar.status).toBe('measured');
    for (const expected of [
      'Access logs from 8 March 2026 at 08:15 UTC to 9 March 2026 at 08:15 UTC (2 imports)',
      'Bot hits (verified, or nothing to verify) 10',
      'Unverified bot claims (kept apart) 2',
      'Human hits (counted, never stored one by one) 3',
      'Googlebot (desktop) Verified 8 5',
      // Counted per day only: hits, no URL count, no last visit.
      'Googlebot (desktop) Claim not verified 2 — —',
      'Bingbot Verified 1 1',
      'AI training crawlers Nothing to verify 1 1',
      `Score ${pillar.score} / 100`,
      'Budget not spent on errors and redirects 80',
      'Indexable pages (2xx) 6 60%',
      'Redirects (3xx) 1 10%',
      'Client errors (4xx) 1 10%',
      'URLs with parameters 1 10%',
      'URLs the crawl did not find 3 30%',
      'URLs bots fetch that the crawl did not find (2) URL Hits Last visit (UTC) /orphan-page 2 9 March 2026 /missing?utm=x 1',
      'Indexable pages no bot visited (1) URL /blog/post-1',
      'AI training crawlers 1',
      'URLs fetched by AI agents 1',
      'Top 6 URLs by bot hits',
      '/ Googlebot (desktop) 200 × 3 3 9 March 2026',
      '/about Googlebot (desktop), Bingbot 200 × 2 2 9 March 2026',
    ]) {
      expect(text).toContain(expected);
    }
    for (const axis of pillar.axes as { key: string; score: number | null }[]) expect(axis.score).not.toBeNull();
    // Unverified claims keep no path: not among the top URLs, nowhere in the section.
    expect(text).not.toContain('/wp-login.php');
  });

  it('prints the section in the French PDF, in French', async () => {
    const text = flat(await pdfPages(await exported(logged.crawl, 'pdf', 'fr')));
    for (const expected of [
      'Ce que les robots explorent (journaux d’accès)',
      'Journaux d’accès du 8 mars 2026',
      'Passages de robots (vérifiés, ou sans vérification possible) 10',
      'Robots déclarés non vérifiés (comptés à part) 2',
      'Visites humaines (comptées, jamais stockées une à une) 3',
      'Googlebot (ordinateur) Vérifié 8 5',
      'Googlebot (ordinateur) Déclaration non vérifiée 2 — —',
      'Exploration des logs',
      'Redirections (3xx) 1 10 %',
      'URL visitées par les robots que le crawl n’a pas trouvées (2)',
      'Pages indexables qu’aucun robot n’a visitées (1)',
      'Robots IA d’entraînement 1',
      'Les 6 URL les plus visitées par les robots',
    ]) {
      expect(text).toContain(expected);
    }
    for (const english of ['What bots crawl', 'Bot hits', 'Verified', 'Top 6 URLs', 'Where the crawl budget goes']) expect(text).not.toContain(english);
  });

  it('adds the log sheets to the workbook, with a row per URL statistic and per day', async () => {
    const api = {
      urls: (await (await h.call('GET', `/v1/projects/${logged.project}/logs/urls?limit=100`)).json()).data as unknown[],
      days: (await (await h.call('GET', `/v1/projects/${logged.project}/logs/days?limit=100`)).json()).data as unknown[],
    };
    const en = await workbook(await exported(logged.crawl, 'xlsx', 'en'));
    expect(en.worksheets.map((s) => s.name).slice(-4)).toEqual(['Logs', 'Log URLs', 'Log days', 'Scorecard']);

    const urls = rows(en.getWorksheet('Log URLs')!);
    expect(urls).toHaveLength(api.urls.length);
    expect(urls).toContainEqual(['/', 'Googlebot (desktop)', 'Verified', '3', '15360', '200 × 3', '2026-03-09T08:15:00.000Z']);
    // Unverified claims are counted per day only: no row of the URL sheet is theirs.
    expect(urls.flat()).not.toContain('/wp-login.php');
    expect(urls.flat()).not.toContain('Claim not verified');

    const days = rows(en.getWorksheet('Log days')!);
    expect(days).toHaveLength(api.days.length);
    expect(days[0][0]).toBe('2026-03-09');
    expect(days).toContainEqual(['2026-03-09', 'Humans', 'Nothing to verify', '2xx', '3']);
    expect(days).toContainEqual(['2026-03-09', 'Googlebot (desktop)', 'Verified', '3xx', '1']);
    expect(days).toContainEqual(['2026-03-09', 'Googlebot (desktop)', 'Claim not verified', '4xx', '2']);

    const summary = rows(en.getWorksheet('Logs')!);
    expect(summary).toContainEqual(['Bot hits (verified, or nothing to verify)', '10']);
    expect(summary).toContainEqual(['Unverified bot claims (kept apart)', '2']);
    // Their family row: the hits, no URL count (their paths are not kept), no last visit.
    const claims = summary.find((r) => r[0] === 'Googlebot (desktop)' && r[1] === 'Claim not verified')!;
    expect(claims.slice(0, 3)).toEqual(['Googlebot (desktop)', 'Claim not verified', '2']);
    expect(claims.slice(3).filter((c) => c !== '')).toEqual([]);
    expect(summary.flat()).not.toContain('/wp-login.php');
    expect(summary).toContainEqual(['Human hits (counted, never stored one by one)', '3']);
    expect(summary).toContainEqual(['Redirects (3xx)', '1', '0.1']);
    expect(summary).toContainEqual(['URLs bots fetch that the crawl did not find (2)', '/orphan-page', '2', '2026-03-09T08:15:00.000Z']);
    expect(summary).toContainEqual(['Indexable pages no bot visited (1)', '/blog/post-1', '0']);

    const fr = await workbook(await exported(logged.crawl, 'xlsx', 'fr'));
    expect(fr.worksheets.map((s) => s.name).slice(-4)).toEqual(['Journaux', 'Journaux – URL', 'Journaux – jours', 'Bilan par pilier']);
    expect(rows(fr.getWorksheet('Journaux – jours')!)).toContainEqual(['2026-03-09', 'Humains', 'Sans vérification possible', '2xx', '3']);
  });

  it('leaves the section and the sheets out for a project without logs', async () => {
    for (const language of ['en', 'fr'] as const) {
      const text = flat(await pdfPages(await exported(plain.crawl, 'pdf', language)));
      expect(text).not.toContain(language === 'en' ? 'What bots crawl' : 'Ce que les robots explorent');
      expect(text).not.toContain(language === 'en' ? 'Bot hits' : 'Passages de robots');
    }
    const wb = await workbook(await exported(plain.crawl, 'xlsx', 'en'));
    expect(wb.worksheets.map((s) => s.name)).toEqual(['Summary', 'Issues', 'Pages', 'PageSpeed', 'Changes', 'Scorecard']);
  });
});
