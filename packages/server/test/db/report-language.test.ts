/**
 * One language per answer: the same crawl of a small site with many defects, exported as PDF and
 * workbook and listed through the API in French and in English. Every word of each must be of
 * its language: the test fails on any word of the other language's list (the site's own text is
 * Latin placeholder, in neither, and URLs are left out). A page that hangs up without answering
 * gives a network failure (`fetch_failed`), read as a sentence in each language;
 * where Chromium is installed, the crawl checks accessibility too and axe's findings read in each
 * language (axe-core's French locale). An access log is imported so that the log section and
 * sheets (docs/decisions/exports.md#the-log-section) are read too.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_CHROMIUM } from '../../../../tests/support/rendering.js';
import { pdfPages } from '../../../../tests/support/pdf-read.js';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { accessLine, USER_AGENTS } from '../../../../tests/support/access-log.js';
import { exportedFile } from './support/exports.js';
import { startSite, type Site, type SitePage } from '../../../../tests/support/site.js';

const LOREM = 'Lorem ipsum dolor sit amet consectetur adipiscing elit sed eiusmod tempor incididunt labore dolore magna aliqua. ';
const head = (title: string, extra = '') => `<head><meta charset="utf-8"><title>${title}</title>${extra}</head>`;

/** Pages with the defects whose details the crawler writes as text. */
const PAGES: Record<string, SitePage> = {
  '/': {
    html: `<!doctype html><html lang="la">${head('Lorem ipsum dolor sit amet, consectetur', '<meta name="viewport" content="width=device-width"><link rel="canonical" href="/">')}<body><h1>Lorem</h1><h3>Ipsum</h3>
      <a href="/dolor">Dolor</a> <a href="/sit">Sit</a> <a href="/vetus">Vetus</a> <a href="/absens">Absens</a> <a href="/tempus">Tempus</a> <a href="/ruptus">Ruptus</a>
      <img src="/a.png"><p>${LOREM.repeat(40)}</p></body></html>`,
  },
  '/dolor': { html: `<!doctype html><html>${head('Dolor')}<body><p>${LOREM}</p><a href="/">Lorem</a></body></html>` },
  '/sit': { html: `<!doctype html><html lang="la">${head('Sit amet consectetur adipiscing elit sed do')}<body><h1>Sit</h1><h1>Amet</h1><p>${LOREM.repeat(40)}</p><a href="/">Lorem</a></body></html>` },
  '/vetus': { status: 301, headers: { location: '/sit' } },
  '/tempus': { status: 302, headers: { location: '/dolor' } },
  '/ruptus': { hangUp: true },
  '/absens': { status: 404, html: '<html><body>absens</body></html>' },
  '/robots.txt': { html: 'User-agent: *\nAllow: /\n', headers: { 'content-type': 'text/plain' } },
};

/** Words only English would print here, and words only French would. */
const ENGLISH = [
  'the', 'and', 'of', 'with', 'without', 'words', 'link', 'links', 'status', 'served', 'plain', 'missing', 'characters', 'followed', 'redirects',
  'summary', 'issues', 'details', 'severity', 'errors', 'warnings', 'notices', 'health', 'measured', 'crawled', 'discovered', 'started', 'finished',
  'fix', 'found', 'no', 'not', 'is', 'to', 'on', 'for', 'heading', 'report', 'without',
];
const FRENCH = [
  'le', 'la', 'les', 'des', 'du', 'une', 'et', 'avec', 'sans', 'pas', 'sur', 'dans', 'mots', 'lien', 'liens', 'statut', 'servie', 'chiffré', 'absent', 'absente',
  'caractères', 'suivi', 'redirige', 'synthèse', 'problèmes', 'gravité', 'détails', 'erreurs', 'avertissements', 'santé', 'mesuré', 'explorées', 'découvertes',
  'début', 'fin', 'corriger', 'titre', 'vide', 'rapport',
];

/** The words of a text, URLs and the site's placeholder text left out. */
function words(text: string): Set<string> {
  // URLs, tag names in details (<title>, <h1>) and the check codes the workbook keeps beside
  // their labels (broken_internal_link, a stable key for filters) are the same in every language.
  const stripped = text
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/\b127\.0\.0\.1:\d+\S*/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\b[a-z0-9]+(?:_[a-z0-9-]+)+\b/g, ' ');
  return new Set(stripped.toLowerCase().split(/[^\p{L}]+/u).filter(Boolean));
}

/** Where a word appears, to say what to translate. */
function context(text: string, word: string): string {
  const at = text.search(new RegExp(`(^|[^\\p{L}])${word}([^\\p{L}]|$)`, 'iu'));
  return text.slice(Math.max(0, at - 40), at + word.length + 40).replace(/\s+/g, ' ');
}

function foreign(text: string, language: 'fr' | 'en'): string[] {
  const found = words(text);
  return (language === 'fr' ? ENGLISH : FRENCH).filter((w) => found.has(w)).map((w) => `${w}: ${context(text, w)}`);
}

let h: Harness;
let site: Site;
let crawlId: string;

/** Googlebot inside and outside Google's ranges (a claim no lookup confirms), GPTBot, a browser. */
const ACCESS_LOG = [
  accessLine('66.249.66.1', 9, '/', 200, USER_AGENTS.googlebot),
  accessLine('66.249.66.1', 9, '/vetus', 301, USER_AGENTS.googlebot),
  accessLine('66.249.66.1', 9, '/orbus?x=1', 404, USER_AGENTS.googlebot),
  accessLine('203.0.113.9', 9, '/', 200, USER_AGENTS.googlebot),
  accessLine('20.171.207.1', 9, '/dolor', 200, USER_AGENTS.gptbot),
  accessLine('192.0.2.44', 9, '/', 200, USER_AGENTS.browser),
].join('\n');
const noDns = {
  reverse: async () => [] as string[],
  lookup: async () => [] as string[],
};

beforeAll(async () => {
  h = await startHarness({ logs: { resolver: noDns } });
  site = await startSite(PAGES);
  const project = (await (await h.call('POST', '/v1/projects', { body: { url: `${site.url}/`, name: 'Lorem' } })).json()).data;
  const campaign = (await (await h.call('GET', `/v1/projects/${project.id}/campaigns`)).json()).data[0];
  if (HAS_CHROMIUM) expect((await h.call('PATCH', `/v1/campaigns/${campaign.id}`, { body: { check_accessibility: true } })).status).toBe(200);
  crawlId = (await (await h.call('POST', `/v1/campaigns/${campaign.id}/crawls`, { headers: { 'idempotency-key': 'language-crawl' } })).json()).data.id;
  await h.server.jobs.idle();
  const logs = await fetch(`${h.url}/v1/projects/${project.id}/log-imports`, { method: 'POST', headers: { authorization: `Bearer ${h.token}`, 'content-type': 'text/plain' }, body: ACCESS_LOG });
  expect(logs.status).toBe(202);
  await h.server.jobs.idle();
}, 60_000);
afterAll(async () => {
  await h?.close();
  await site?.close();
});

const exported = (format: 'pdf' | 'xlsx', language: 'fr' | 'en') => exportedFile(h, crawlId, format, language);

async function workbookText(buffer: Buffer): Promise<{ sheets: string[]; text: string }> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buffer as never);
  const cells: string[] = [];
  for (const ws of wb.worksheets) {
    cells.push(ws.name);
    ws.eachRow((row) => row.eachCell((cell) => cells.push(String(cell.text ?? ''))));
  }
  return { sheets: wb.worksheets.map((ws) => ws.name), text: cells.join('\n') };
}

describe('one language per answer', () => {
  it('the crawl found defects whose details are text', async () => {
    const issues = (await (await h.call('GET', `/v1/crawls/${crawlId}/issues?limit=100`, { headers: { 'accept-language': 'en' } })).json()).data as { name: string; details: string }[];
    const names = new Set(issues.map((i) => i.name));
    for (const name of ['http_page', 'broken_internal_link', 'link_to_redirect', 'thin_content', 'h1_missing', 'h1_multiple', 'heading_skip', 'lang_missing', 'temporary_redirect']) {
      expect(names, name).toContain(name);
    }
    expect(issues.find((i) => i.name === 'http_page')!.details).toBe('served over plain HTTP');
    expect(names).toContain('fetch_failed');
    if (HAS_CHROMIUM) expect(names).toContain('a11y_image-alt');
  });

  it('reads a network failure as a sentence in each language, the raw error kept', async () => {
    const failure = async (language: 'fr' | 'en') =>
      ((await (await h.call('GET', `/v1/crawls/${crawlId}/issues?name=fetch_failed`, { headers: { 'accept-language': language } })).json()).data as { details: string }[])[0].details;
    const en = await failure('en');
    expect(en).toBe('connection closed by the server before the answer (connection: other side closed)');
    expect(await failure('fr')).toBe('connexion fermée par le serveur avant la réponse (connection: other side closed)');
  });

  it.skipIf(!HAS_CHROMIUM)('reads an axe finding with axe’s help in each language', async () => {
    const finding = async (language: 'fr' | 'en') =>
      ((await (await h.call('GET', `/v1/crawls/${crawlId}/issues?name=a11y_image-alt`, { headers: { 'accept-language': language } })).json()).data as { details: string }[])[0].details;
    expect(await finding('en')).toMatch(/^Images must have alternative text: 1 element, img$/);
    expect(await finding('fr')).toBe('Les images doivent avoir une alternative textuelle : 1 élément, img');
  });

  it.each(['fr', 'en'] as const)('the issues answered in %s carry details in that language', async (language) => {
    const issues = (await (await h.call('GET', `/v1/crawls/${crawlId}/issues?limit=100`, { headers: { 'accept-language': language } })).json()).data as { details: string }[];
    expect(foreign(issues.map((i) => i.details).join('\n'), language)).toEqual([]);
    if (language === 'fr') expect(issues.map((i) => i.details)).toContain('servie en HTTP non chiffré');
  });

  it.each(['fr', 'en'] as const)('the PDF in %s has no word of the other language', async (language) => {
    const text = (await pdfPages(await exported('pdf', language))).join('\n');
    expect(text.length).toBeGreaterThan(1000);
    expect(text).toContain(language === 'fr' ? 'Ce que les robots explorent' : 'What bots crawl');
    expect(foreign(text, language)).toEqual([]);
  });

  it.each(['fr', 'en'] as const)('the workbook in %s has no word of the other language, sheet names included', async (language) => {
    const { sheets, text } = await workbookText(await exported('xlsx', language));
    expect(sheets).toEqual(
      language === 'fr'
        ? ['Synthèse', 'Problèmes', 'Pages', 'PageSpeed', 'Évolutions', 'Journaux', 'Journaux – URL', 'Journaux – jours', 'Bilan par pilier']
        : ['Summary', 'Issues', 'Pages', 'PageSpeed', 'Changes', 'Logs', 'Log URLs', 'Log days', 'Scorecard'],
    );
    expect(foreign(text, language)).toEqual([]);
  });
});
