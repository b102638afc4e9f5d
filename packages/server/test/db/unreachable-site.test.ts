/**
 * A crawl whose site cannot be reached (docs/decisions/crawl-lifecycle.md): it ends `failed`,
 * blocked `unreachable`, with the cause as a sentence in the caller's language, a site-level
 * finding, the cause in the log line and `crawl.failed`; its PDF is the cover and one line.
 */
import { createServer } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggerOptions } from '../../src/observability/logger.js';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { pdfPages } from '../../../../tests/support/pdf-read.js';
import { crawlToSettled, projectWithCampaign } from './support/crawl-flow.js';
import { exportedFile } from './support/exports.js';

const lines: string[] = [];
const capture = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  },
});

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ logger: pino(loggerOptions('info'), capture) });
});
afterAll(async () => {
  await h.close();
});

/** A local port nothing listens on: a connection there is refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('a crawl of a site that cannot be reached', { timeout: 30_000 }, () => {
  it('fails with blocked_reason unreachable, the cause in the caller’s language, a site finding, the log line, crawl.failed and a one-line PDF', async () => {
    const siteUrl = `http://127.0.0.1:${await closedPort()}`;
    // No retries: the refusal is the point, not its persistence.
    const { campaign } = await projectWithCampaign(h, siteUrl, { retries: 0 });
    await h.call('POST', '/v1/webhooks', { body: { url: 'https://127.0.0.1:9/hook', events: ['crawl.completed', 'crawl.failed'] } });
    const settled = await crawlToSettled(h, campaign.id);

    const en = (await (await h.call('GET', `/v1/crawls/${settled.id}`, { headers: { 'accept-language': 'en' } })).json()).data;
    expect(en).toMatchObject({ status: 'failed', active: false, blocked: true, blocked_reason: 'unreachable', pages: { crawled: 1 }, issue_counts: { error: 1 } });
    expect(en.error).toMatch(/^crawl\.site_unreachable: The site could not be reached: connection refused by the server \(connection: .*ECONNREFUSED.*\)\.$/);
    const fr = (await (await h.call('GET', `/v1/crawls/${settled.id}`, { headers: { 'accept-language': 'fr' } })).json()).data;
    expect(fr.error).toMatch(/^crawl\.site_unreachable: Le site n’a pas pu être joint : connexion refusée par le serveur \(connection: .*ECONNREFUSED.*\)\.$/);

    // The site-level finding, with the cause.
    const issues = (await (await h.call('GET', `/v1/crawls/${settled.id}/issues`, { headers: { 'accept-language': 'en' } })).json()).data;
    expect(issues.map((i: { name: string }) => i.name)).toContain('site_unreachable');
    expect(issues.find((i: { name: string }) => i.name === 'site_unreachable')).toMatchObject({ severity: 'error', url: `${siteUrl}/`, details: expect.stringContaining('connection refused by the server') });
    // Read by its URL too, as a page's findings are.
    const ofUrl = (await (await h.call('GET', `/v1/crawls/${settled.id}/issues?url=${encodeURIComponent(`${siteUrl}/`)}`)).json()).data;
    expect(ofUrl.map((i: { name: string }) => i.name)).toContain('site_unreachable');

    // The log line that ends the crawl names the cause.
    const failed = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'crawl failed' && l.crawl === settled.id);
    expect(failed).toMatchObject({ status: 'failed', error: expect.stringContaining('ECONNREFUSED') });

    // crawl.failed, never crawl.completed.
    const events = (await h.knex('webhook_deliveries').select('event_type', 'body')).map((r: { event_type: string; body: string }) => ({ type: r.event_type, body: JSON.parse(r.body) }));
    const mine = events.filter((e) => e.body.data?.crawl?.id === settled.id);
    expect(mine.map((e) => e.type)).toEqual(['crawl.failed']);
    expect(mine[0].body.data.crawl).toMatchObject({ status: 'failed', blocked_reason: 'unreachable', error: expect.stringContaining('The site could not be reached') });

    // The report: the cover and the cause in one line, in each language; the file names carry the language.
    const [frPage, ...frRest] = await pdfPages(await exportedFile(h, settled.id, 'pdf', 'fr'));
    expect(frRest).toEqual([]);
    expect(frPage).toContain('Le site n’a pas pu être joint : connexion refusée par le serveur');
    const [enPage, ...enRest] = await pdfPages(await exportedFile(h, settled.id, 'pdf', 'en'));
    expect(enRest).toEqual([]);
    expect(enPage).toContain('The site could not be reached: connection refused by the server');
  });
});
