/**
 * The server's log (docs/operations.md, "Logs"): one line per request with its operation, team,
 * status, duration and cost; crawl, export and delivery lines; and no token, webhook secret or
 * crawl credential in any line, whatever was called.
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggerOptions } from '../../src/observability/logger.js';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { crawlToSettled, projectWithCampaign } from './support/crawl-flow.js';
import { startSite, type Site } from '../../../../tests/support/site.js';

const lines: string[] = [];
const capture = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  },
});
const entries = () => lines.map((line) => JSON.parse(line) as Record<string, any>);

let h: Harness;
let site: Site;
/** Webhooks must be https: nothing listens there, so every delivery fails (and is logged). */
const receiverUrl = 'https://127.0.0.1:9/hook';

beforeAll(async () => {
  // Every level, so a secret logged at debug would be caught too.
  h = await startHarness({ logger: pino(loggerOptions('trace'), capture) });
  site = await startSite();
});
afterAll(async () => {
  await h.close();
  await site.close();
});

describe('the request line', () => {
  it('has the request id, operation, team, method, path, status, duration and cost', async () => {
    const res = await h.call('GET', '/v1/projects?limit=5');
    expect(res.status).toBe(200);
    const requestId = res.headers.get('x-request-id');
    const team = (await h.knex('teams').where({ slug: 'acme' }).first('id')).id;
    const line = entries().find((e) => e.req_id === requestId);
    expect(line).toMatchObject({ msg: 'request', module: 'http', op: 'listProjects', team, method: 'GET', path: '/v1/projects', status: 200, cost: 1, level: 30 });
    expect(typeof line!.ms).toBe('number');
  });

  it('is written for refusals and unknown paths too, with their status', async () => {
    const unauthenticated = await h.call('GET', '/v1/projects', { token: 'sa_live_not-a-real-token' });
    expect(unauthenticated.status).toBe(401);
    expect(entries().find((e) => e.req_id === unauthenticated.headers.get('x-request-id'))).toMatchObject({ op: 'listProjects', status: 401, cost: 0 });
    const missing = await h.call('GET', '/v1/nowhere');
    expect(entries().find((e) => e.req_id === missing.headers.get('x-request-id'))).toMatchObject({ op: 'unrouted', status: 404 });
  });
});

describe('job lines', () => {
  it('logs a crawl started and finished with its pages and duration, and an export ready', async () => {
    const { campaign } = await projectWithCampaign(h, site.url);
    const crawl = await crawlToSettled(h, campaign.id);
    expect(entries().find((e) => e.msg === 'crawl started' && e.crawl === crawl.id)).toMatchObject({ module: 'crawls', campaign: campaign.id });
    const finished = entries().find((e) => e.msg === 'crawl finished' && e.crawl === crawl.id);
    expect(finished).toMatchObject({ module: 'crawls', status: 'completed', pages: crawl.pages.crawled });
    expect(finished!.pages).toBeGreaterThan(0);
    expect(finished!.duration_ms).toBeGreaterThanOrEqual(0);
    // Its summary: the issues found, by severity, as the crawl answers them.
    expect(finished!.issues).toEqual(crawl.issue_counts);
    // Each stage change between started and finished, in order.
    const mine = entries().filter((e) => e.crawl === crawl.id && e.module === 'crawls');
    const stages = mine.filter((e) => e.msg === 'crawl stage').map((e) => e.stage);
    expect(stages).toEqual(['analysing', 'pagespeed', 'scoring', 'comparing']);
    const order = mine.map((e) => e.msg).filter((m) => m !== 'crawl progress');
    expect(order[0]).toBe('crawl started');
    expect(order.at(-1)).toBe('crawl finished');

    const queued = (await (await h.call('POST', `/v1/crawls/${crawl.id}/exports`, { body: { format: 'xlsx' } })).json()).data;
    await h.server.jobs.idle();
    expect(entries().find((e) => e.msg === 'export ready' && e.export === queued.id)).toMatchObject({ module: 'exports', format: 'xlsx', crawl: crawl.id });
  });
});

describe('secrets never reach the log', () => {
  it('leaves out tokens, webhook secrets, crawl credentials and Authorization headers, whatever is called', async () => {
    const password = 'Pa55-word-never-logged';
    const user = 'crawl-user-never-logged';
    await projectWithCampaign(h, 'https://secret-site.example', { http_user: user, http_password: password });
    const created = await h.call('POST', '/v1/webhooks', { body: { url: receiverUrl, events: ['crawl.completed'] } });
    expect(created.status).toBe(201);
    const hook = (await created.json()).data;
    const rotated = await h.call('POST', `/v1/webhooks/${hook.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const newSecret = (await rotated.json()).data.secret;
    expect(newSecret).toMatch(/^whsec_/);
    // A delivery that fails: its line is written, its signature is not.
    expect((await h.call('POST', `/v1/webhooks/${hook.id}/test`)).status).toBe(202);
    await h.server.jobs.idle();
    const failed = entries().find((e) => e.msg === 'webhook delivery failed' && e.webhook === hook.id);
    expect(failed).toMatchObject({ module: 'webhooks', event_type: 'webhook.test', attempt: 1 });
    expect(typeof failed!.reason).toBe('string');

    // Something was logged for each of those calls: the check below is not vacuous.
    const logged = new Set(entries().filter((e) => e.msg === 'request').map((e) => e.op));
    for (const op of ['createCampaign', 'createWebhook', 'rotateWebhookSecret', 'testWebhook']) expect(logged).toContain(op);
    const text = lines.join('\n');
    for (const secret of [h.token, password, user, hook.secret, newSecret, hook.secret.slice('whsec_'.length), newSecret.slice('whsec_'.length)]) {
      expect(text.includes(secret), `a log line contains ${secret.slice(0, 10)}…`).toBe(false);
    }
    expect(text).not.toMatch(/Bearer /i);
  });

  it('redacts those fields when a log call is given them by mistake', () => {
    const own: string[] = [];
    const logger = pino(loggerOptions('info'), { write: (line: string) => void own.push(line) });
    logger.info({ authorization: 'Bearer sa_live_x', headers: { authorization: 'Bearer sa_live_y' }, campaign: { http_user: 'u-1', http_password: 'p-1' }, webhook: { secret: 'whsec_z' }, token: 'sa_live_w' }, 'oops');
    const line = JSON.parse(own[0]);
    expect(line).toMatchObject({
      authorization: '[redacted]',
      headers: { authorization: '[redacted]' },
      campaign: { http_user: '[redacted]', http_password: '[redacted]' },
      webhook: { secret: '[redacted]' },
      token: '[redacted]',
    });
    expect(own[0]).not.toMatch(/sa_live_|whsec_|p-1|u-1/);
  });
});

describe('the secret key', () => {
  it('warns at start-up when none is configured, and not when one is', async () => {
    const warned: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
          const entry = JSON.parse(line) as { level: number; msg: string };
          if (entry.level === 40) warned.push(entry.msg);
        }
        done();
      },
    });
    const saved = process.env.SITEAUDIT_SECRET_KEY;
    delete process.env.SITEAUDIT_SECRET_KEY;
    try {
      const keyless = await startHarness({ secretKey: undefined, logger: pino(loggerOptions('info'), sink) });
      await keyless.close();
      expect(warned.filter((m) => m.includes('SITEAUDIT_SECRET_KEY'))).toHaveLength(1);
      warned.length = 0;
      const keyed = await startHarness({ logger: pino(loggerOptions('info'), sink) });
      await keyed.close();
      expect(warned.filter((m) => m.includes('SITEAUDIT_SECRET_KEY'))).toEqual([]);
    } finally {
      if (saved !== undefined) process.env.SITEAUDIT_SECRET_KEY = saved;
    }
  });
});
