/**
 * A crawler's path keeps no credential, session id or phone number (docs/privacy.md, rule 3), over
 * HTTP, in the exports and in the tables, on both databases: a Combined log of a verified
 * Googlebot (from Google's published ranges) and GPTBot following leaked links is imported into a
 * crawled project; each listed parameter keeps its name and shows `(redacted)` for its value, other
 * parameters stay, and a URL the crawl found with a session id of its own still joins the logged
 * one. Migration 035 rewrites the paths that imports made before the rule kept.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationSource } from '../../src/store/migrations/index.js';
import { pdfPages } from '../../../../tests/support/pdf-read.js';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { accessLine, USER_AGENTS } from '../../../../tests/support/access-log.js';
import { manualClock } from '../../../../tests/support/http.js';
import { PAGES, startSite, type Site } from '../../../../tests/support/site.js';
import { exportedFile } from './support/exports.js';

const { googlebot, gptbot } = USER_AGENTS;
const LOG = [
  // Leaked links a crawler followed: the values are secrets.
  accessLine('66.249.66.1', 9, '/catalogue?PHPSESSID=9h3kq0v1SECRET1&page=2', 200, googlebot),
  accessLine('66.249.66.1', 9, '/catalogue?phpsessid=SECRET2&page=2', 200, googlebot),
  accessLine('66.249.66.1', 9, '/cart;jsessionid=0A1B2C3DSECRET3', 200, googlebot),
  accessLine('66.249.66.1', 9, '/oauth/callback?code=4%2F0AdeuSECRET4&state=SECRET5', 302, googlebot),
  accessLine('66.249.66.1', 9, '/files/report.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIASECRET6%2F20260309%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Signature=SECRET7', 403, googlebot),
  accessLine('66.249.66.1', 9, '/account?access_token=SECRET8&tab=orders', 401, googlebot),
  accessLine('66.249.66.1', 9, '/login?Password=SECRET9+again&user=shop', 200, googlebot),
  accessLine('66.249.66.1', 9, '/api/map?key=AIzaSECRET10', 200, googlebot),
  accessLine('66.249.66.1', 9, '/contact?phone=%2B33612345678', 200, googlebot),
  accessLine('66.249.66.1', 9, '/login?next=%2Faccount%3Ftoken%3DSECRET11', 200, googlebot),
  // Nothing to redact: kept as fetched.
  accessLine('66.249.66.1', 9, '/search?q=shoes&page=2', 200, googlebot),
  accessLine('66.249.66.1', 9, '/promo?code=SUMMER20', 200, googlebot),
  accessLine('20.171.207.1', 9, '/catalogue?sid=SECRET12', 200, gptbot),
].join('\n');
const SECRETS = ['SECRET', '9h3kq0v1', 'AIza', 'AKIA', '33612345678', 'again'];

/** The site crawled: its links carry session ids of their own, which the join must look past. */
const html = (title: string, body = '') => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1>${body}<p>${'Words of content. '.repeat(40)}</p></body></html>`;
const SITE = {
  '/': { html: html('Home', '<a href="/catalogue?PHPSESSID=CRAWLSESSION1&amp;page=2">Catalogue</a> <a href="/cart;jsessionid=CRAWLSESSION2">Cart</a>') },
  '/catalogue': { html: html('Catalogue') },
  '/cart;jsessionid=CRAWLSESSION2': { html: html('Cart') },
  '/robots.txt': PAGES['/robots.txt'],
};

const clock = manualClock('2026-03-10T10:00:00.000Z');
let h: Harness;
let site: Site;
let project: string;
let crawl: string;
let importId: string;

beforeAll(async () => {
  h = await startHarness({ clock: clock.clock, logs: { resolver: null } });
  site = await startSite(SITE);
  project = (await (await h.call('POST', '/v1/projects', { body: { url: `${site.url}/`, name: 'Leaked links' } })).json()).data.id;
  const campaign = (await (await h.call('GET', `/v1/projects/${project}/campaigns`)).json()).data[0];
  crawl = (await (await h.call('POST', `/v1/campaigns/${campaign.id}/crawls`, { headers: { 'idempotency-key': 'crawl-leaked' } })).json()).data.id;
  await h.server.jobs.idle();
  const res = await fetch(`${h.url}/v1/projects/${project}/log-imports`, { method: 'POST', headers: { authorization: `Bearer ${h.token}`, 'content-type': 'text/plain' }, body: LOG });
  expect(res.status).toBe(202);
  importId = (await res.json()).data.id;
  await h.server.jobs.idle();
  expect((await (await h.call('GET', `/v1/projects/${project}/log-imports/${importId}`)).json()).data).toMatchObject({ status: 'completed', bot_hits: 13 });
}, 60_000);
afterAll(async () => {
  await h?.close();
  await site?.close();
});

describe('credentials and session ids in the paths crawlers fetched', () => {
  it('over HTTP: the name kept, the value (redacted); other parameters as fetched', async () => {
    const urls = (await (await h.call('GET', `/v1/projects/${project}/logs/urls?limit=100`)).json()).data.map((u: { family: string; verification: string; path: string; hits: number }) => `${u.family} ${u.verification} ${u.path} ${u.hits}`);
    expect(urls.sort()).toEqual(
      [
        'googlebot verified /catalogue?PHPSESSID=(redacted)&page=2 1',
        'googlebot verified /catalogue?phpsessid=(redacted)&page=2 1',
        'googlebot verified /cart;jsessionid=(redacted) 1',
        'googlebot verified /oauth/callback?code=(redacted)&state=(redacted) 1',
        'googlebot verified /files/report.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=(redacted)&X-Amz-Signature=(redacted) 1',
        'googlebot verified /account?access_token=(redacted)&tab=orders 1',
        'googlebot verified /login?Password=(redacted)&user=shop 1',
        'googlebot verified /api/map?key=(redacted) 1',
        'googlebot verified /contact?phone=(redacted) 1',
        'googlebot verified /login?next=%2Faccount%3Ftoken%3D(redacted) 1',
        'googlebot verified /search?q=shoes&page=2 1',
        'googlebot verified /promo?code=SUMMER20 1',
        'ai_training not_applicable /catalogue?sid=(redacted) 1',
      ].sort(),
    );
  });

  it('joins the crawl as before: a crawled URL with a session id of its own meets the logged one; the budget still counts the parameterised hits', async () => {
    const notInCrawl = (await (await h.call('GET', `/v1/projects/${project}/logs/findings?kind=not_in_crawl&limit=100`)).json()).data.map((f: { path: string }) => f.path);
    expect(notInCrawl).not.toContain('/catalogue?PHPSESSID=(redacted)&page=2');
    expect(notInCrawl).not.toContain('/cart;jsessionid=(redacted)');
    expect(notInCrawl).toContain('/oauth/callback?code=(redacted)&state=(redacted)');
    const insights = (await (await h.call('GET', `/v1/projects/${project}/logs/insights`)).json()).data;
    expect(insights.crawl_id).toBe(crawl);
    // Every hit but the cart's has a query string.
    expect(insights.budget.find((b: { bucket: string }) => b.bucket === 'parameterised').hits).toBe(12);
    expect(insights.budget.find((b: { bucket: string }) => b.bucket === 'indexable').hits).toBe(2);
  });

  it('in the exports: the workbook and the PDF show the redacted paths, never a value', async () => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await exportedFile(h, crawl, 'xlsx', 'en')) as never);
    const cells: string[] = [];
    for (const sheet of wb.worksheets) sheet.eachRow((row) => cells.push(...(row.values as unknown[]).map((v) => String(v ?? ''))));
    expect(cells).toContain('/cart;jsessionid=(redacted)');
    expect(cells).toContain('/oauth/callback?code=(redacted)&state=(redacted)');
    const text = (await pdfPages(await exportedFile(h, crawl, 'pdf', 'en'))).join(' ');
    expect(text).toContain('(redacted)');
    for (const secret of SECRETS) {
      expect(cells.join('\n')).not.toContain(secret);
      expect(text).not.toContain(secret);
    }
  });

  it('in the tables: no value of a listed parameter anywhere', async () => {
    const rows = JSON.stringify([await h.knex('log_url_stats').select(), await h.knex('log_day_stats').select(), await h.knex('log_imports').select()]);
    for (const secret of SECRETS) expect(rows).not.toContain(secret);
  });

  it('rewrites at migration 035 the paths an import made before the rule kept, adding a row to the one already under the new path', async () => {
    const options = { migrationSource, tableName: 'siteaudit_migrations' };
    await h.knex.migrate.down({ ...options, name: '035-log-credential-paths' });
    const row = { import_id: importId, project_id: project, family: 'googlebot', verification: 'verified', last_visit: '2026-03-09T09:00:00.000Z', bytes: 100 };
    // Rows as imports kept them before: some meet the rewritten path already there, some do not;
    // more than a batch of them, so the rewrite reads past its first page.
    const many = Array.from({ length: 1205 }, (_, i) => ({ ...row, path: `/many?sid=OLD${String(i).padStart(4, '0')}`, hits: 1, status_codes: '{"200":1}', last_visit: i === 700 ? '2026-03-09T23:00:00.000Z' : row.last_visit }));
    await h.knex.batchInsert('log_url_stats', [
      { ...row, path: '/cart;jsessionid=OLDSESSION', hits: 2, status_codes: '{"200":1,"304":1}' },
      { ...row, path: '/account?access_token=OLDTOKEN&tab=orders', hits: 1, status_codes: '{"401":1}' },
      { ...row, path: '/(S(oldaspsessionid55))/default.aspx', hits: 1, status_codes: '{"200":1}' },
      { ...row, path: '/plain?page=3', hits: 1, status_codes: '{"200":1}' },
      ...many,
    ], 100);
    await h.knex.migrate.latest(options);
    const stats = (await h.knex('log_url_stats').where({ project_id: project, family: 'googlebot' }).select('path', 'hits', 'bytes', 'last_visit', 'status_codes')).map((r) => ({ ...r, hits: Number(r.hits), bytes: Number(r.bytes), status_codes: JSON.parse(r.status_codes) }));
    const at = (path: string) => stats.find((s) => s.path === path);
    expect(at('/cart;jsessionid=(redacted)')).toEqual({ path: '/cart;jsessionid=(redacted)', hits: 3, bytes: 5220, last_visit: '2026-03-09T09:00:00.000Z', status_codes: { 200: 2, 304: 1 } });
    expect(at('/account?access_token=(redacted)&tab=orders')).toEqual({ path: '/account?access_token=(redacted)&tab=orders', hits: 2, bytes: 5220, last_visit: '2026-03-09T09:00:00.000Z', status_codes: { 401: 2 } });
    expect(at('/(S((redacted)))/default.aspx')).toEqual({ path: '/(S((redacted)))/default.aspx', hits: 1, bytes: 100, last_visit: '2026-03-09T09:00:00.000Z', status_codes: { 200: 1 } });
    expect(at('/plain?page=3')).toMatchObject({ hits: 1 });
    expect(at('/many?sid=(redacted)')).toEqual({ path: '/many?sid=(redacted)', hits: 1205, bytes: 120_500, last_visit: '2026-03-09T23:00:00.000Z', status_codes: { 200: 1205 } });
    expect(stats).toHaveLength(15);
    expect(JSON.stringify(await h.knex('log_url_stats').select())).not.toMatch(/OLD|SECRET/);
  });
});
