/**
 * Log exploration over HTTP (extension, docs/decisions/logs.md): a gzip access log uploaded,
 * parsed by its job in a worker thread, bot claims verified (published ranges, then reverse DNS
 * through a stand-in resolver), analysed against the crawl, scored, and deleted with the project.
 */
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DnsResolver } from '../../src/modules/logs/reverse-dns.js';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { expectProblem, manualClock } from '../../../../tests/support/http.js';
import { startSite, type Site } from '../../../../tests/support/site.js';
import { accessLine, USER_AGENTS } from '../../../../tests/support/access-log.js';

const clock = manualClock('2026-03-10T10:00:00.000Z');
let h: Harness;
let site: Site;
let projectId: string;

/** The stand-in DNS: one Googlebot address outside the copied ranges whose PTR and forward lookup agree, one that has no PTR. */
const lookups: string[] = [];
const resolver: DnsResolver = {
  async reverse(ip) {
    lookups.push(ip);
    if (ip === '198.51.100.7') return ['crawl-198-51-100-7.googlebot.com.'];
    if (ip === '198.51.100.8') return ['crawl-198-51-100-8.googlebot.com.evil.example.'];
    throw Object.assign(new Error('queryPtr ENOTFOUND'), { code: 'ENOTFOUND' });
  },
  async lookup(host) {
    return host === 'crawl-198-51-100-7.googlebot.com' ? ['198.51.100.7'] : [];
  },
};

const { googlebot: GOOGLEBOT, bingbot: BINGBOT, gptbot: GPTBOT, browser: BROWSER } = USER_AGENTS;
const GOOGLEBOT_SMARTPHONE = 'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const line = accessLine;

const LOG = [
  line('66.249.66.1', 8, '/', 200, GOOGLEBOT),
  line('66.249.66.1', 9, '/', 200, GOOGLEBOT),
  line('66.249.66.1', 9, '/about', 200, GOOGLEBOT_SMARTPHONE),
  line('66.249.66.1', 9, '/orphan-page', 200, GOOGLEBOT),
  line('66.249.66.1', 9, '/old', 301, GOOGLEBOT),
  line('66.249.66.1', 9, '/missing?utm=x', 404, GOOGLEBOT),
  line('198.51.100.7', 9, '/blog/', 200, GOOGLEBOT),
  line('198.51.100.8', 9, '/', 200, GOOGLEBOT),
  line('203.0.113.9', 9, '/wp-login.php', 404, GOOGLEBOT),
  line('157.55.39.10', 9, '/about', 200, BINGBOT),
  line('20.171.207.1', 9, '/blog/', 200, GPTBOT),
  line('192.0.2.44', 9, '/', 200, BROWSER),
  line('192.0.2.45', 9, '/about', 200, BROWSER),
  '192.0.2.46 - - [09/Mar/2026:08:15:00 +0000] "GET / HTTP/1.1" 200 512',
  JSON.stringify({ time: '2026-03-09T09:00:00Z', remote_addr: '66.249.66.2', request: 'GET /blog/post-1 HTTP/1.1', status: 200, body_bytes_sent: 100, http_user_agent: GOOGLEBOT }),
  'this is not a log line',
  '',
].join('\n');

const upload = (body: Buffer | string, headers: Record<string, string> = {}, token?: string) =>
  fetch(`${h.url}/v1/projects/${projectId}/log-imports`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token ?? h.token}`, 'content-type': 'application/gzip', ...headers },
    body: body as BodyInit,
  });

beforeAll(async () => {
  h = await startHarness({ clock: clock.clock, logs: { resolver }, plans: { tiny: { api: 'write', rateLimits: { minute: 100, day: 1000 }, limits: { 'projects.max': 1, 'logs.import_max_bytes': 100 } } } });
  site = await startSite();
  const project = (await (await h.call('POST', '/v1/projects', { body: { url: `${site.url}/`, name: 'Logged Site' } })).json()).data;
  projectId = project.id;
  const campaign = (await (await h.call('GET', `/v1/projects/${project.id}/campaigns`)).json()).data[0];
  await h.call('POST', `/v1/campaigns/${campaign.id}/crawls`, { headers: { 'idempotency-key': 'logs-crawl' } });
  await h.server.jobs.idle();
});
afterAll(async () => {
  await h?.close();
  await site?.close();
});

describe('log imports', () => {
  let importId: string;

  it('before any import, the logs pillar is measurable but null, never 0', async () => {
    const card = (await (await h.call('GET', `/v1/projects/${projectId}/scorecard`)).json()).data;
    expect(card.pillars.find((p: { key: string }) => p.key === 'logs')).toMatchObject({ score: null, available: true, status: 'not_measured', blocked_reason: 'no_logs' });
  });

  it('takes a gzip upload (202, queued, Location), replays it for the same Idempotency-Key, and parses it as a job', async () => {
    const gz = gzipSync(LOG);
    const res = await upload(gz, { 'idempotency-key': 'log-upload-1' });
    expect(res.status).toBe(202);
    const queued = (await res.json()).data;
    importId = queued.id;
    expect(res.headers.get('location')).toMatch(new RegExp(`/v1/projects/${projectId}/log-imports/${queued.id}$`));
    expect(queued).toMatchObject({ status: 'queued', size_bytes: gz.length, lines: { read: 0, kept: 0, refused: 0 } });

    const again = await upload(gz, { 'idempotency-key': 'log-upload-1' });
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await again.json()).data.id).toBe(importId);

    await h.server.jobs.idle();
    const done = (await (await h.call('GET', `/v1/projects/${projectId}/log-imports/${importId}`)).json()).data;
    expect(done).toMatchObject({
      status: 'completed',
      format: 'combined',
      lines: { read: 16, kept: 15, refused: 1 },
      refusals: [{ line: 16, reason: 'unrecognised_format' }],
      human_hits: 3,
      bot_hits: 12,
      period: { from: '2026-03-08T08:15:00.000Z', to: '2026-03-09T09:00:00.000Z' },
    });
    const list = (await (await h.call('GET', `/v1/projects/${projectId}/log-imports`)).json()).data;
    expect(list.map((i: { id: string }) => i.id)).toEqual([importId]);
  });

  it('verifies Google claims by the published ranges, then by reverse DNS, and counts unverified claims per day only', async () => {
    const verified = (await (await h.call('GET', `/v1/projects/${projectId}/logs/urls?family=googlebot&verification=verified&limit=100`)).json()).data;
    expect(verified.map((u: { path: string }) => u.path)).toEqual(['/', '/blog/', '/blog/post-1', '/missing?utm=x', '/old', '/orphan-page']);
    expect(verified[0]).toMatchObject({ hits: 2, status_codes: { '200': 2 }, bytes: 10240, last_visit: '2026-03-09T08:15:00.000Z' });
    // A PTR outside googlebot.com, and no PTR at all: both stay claims, counted per day, no path (the filter is still accepted).
    const unverified = await h.call('GET', `/v1/projects/${projectId}/logs/urls?verification=unverified`);
    expect(unverified.status).toBe(200);
    expect((await unverified.json()).data).toEqual([]);
    const all = (await (await h.call('GET', `/v1/projects/${projectId}/logs/urls?limit=100`)).json()).data;
    expect(all.map((u: { path: string }) => u.path)).not.toContain('/wp-login.php');
    const days = (await (await h.call('GET', `/v1/projects/${projectId}/logs/days?family=googlebot&limit=100`)).json()).data;
    expect(days.filter((d: { verification: string }) => d.verification === 'unverified')).toEqual([
      { date: '2026-03-09', family: 'googlebot', verification: 'unverified', status_class: '2xx', hits: 1 },
      { date: '2026-03-09', family: 'googlebot', verification: 'unverified', status_class: '4xx', hits: 1 },
    ]);
    // Only the addresses outside the ranges were looked up.
    expect([...new Set(lookups)].sort()).toEqual(['198.51.100.7', '198.51.100.8', '203.0.113.9']);
    const bing = (await (await h.call('GET', `/v1/projects/${projectId}/logs/urls?family=bingbot`)).json()).data;
    expect(bing).toMatchObject([{ path: '/about', verification: 'verified', hits: 1 }]);
  });

  it('pages through URL statistics with a cursor', async () => {
    const first = await (await h.call('GET', `/v1/projects/${projectId}/logs/urls?limit=2`)).json();
    expect(first.data).toHaveLength(2);
    expect(first.meta.has_more).toBe(true);
    const second = await (await h.call('GET', `/v1/projects/${projectId}/logs/urls?limit=2&cursor=${first.meta.next_cursor}`)).json();
    expect(second.data[0].path >= first.data[1].path).toBe(true);
    expect(second.data.map((u: { path: string; family: string }) => u.path + u.family)).not.toContain(first.data[1].path + first.data[1].family);
  });

  it('counts hits per day, family and status class, humans included as counts only', async () => {
    const days = (await (await h.call('GET', `/v1/projects/${projectId}/logs/days?limit=100`)).json()).data;
    expect(days[0].date).toBe('2026-03-09');
    expect(days).toContainEqual({ date: '2026-03-09', family: 'human', verification: 'not_applicable', status_class: '2xx', hits: 3 });
    expect(days).toContainEqual({ date: '2026-03-08', family: 'googlebot', verification: 'verified', status_class: '2xx', hits: 1 });
    expect(days).toContainEqual({ date: '2026-03-09', family: 'googlebot', verification: 'verified', status_class: '3xx', hits: 1 });
  });

  it('joins the logs with the crawl: URLs the crawl did not find, indexable pages no bot visited, the budget, AI activity', async () => {
    const orphans = (await (await h.call('GET', `/v1/projects/${projectId}/logs/findings?kind=not_in_crawl`)).json()).data;
    expect(orphans.map((f: { path: string }) => f.path)).toContain('/orphan-page');
    expect(orphans.map((f: { path: string }) => f.path)).not.toContain('/wp-login.php');
    const insights = (await (await h.call('GET', `/v1/projects/${projectId}/logs/insights`)).json()).data;
    expect(insights.hits).toEqual({ bots: 10, unverified_claims: 2, humans: 3 });
    expect(insights.families).toContainEqual({ family: 'googlebot', verification: 'unverified', hits: 2, urls: 0, last_visit: null });
    expect(insights.ai).toMatchObject({ training_hits: 1, search_hits: 0, urls: 1 });
    const bucket = (name: string) => insights.budget.find((b: { bucket: string }) => b.bucket === name).hits;
    expect(bucket('redirect')).toBe(1);
    expect(bucket('client_error')).toBe(1);
    expect(bucket('parameterised')).toBe(1);
    expect(insights.coverage.indexable_pages).toBeGreaterThan(0);
  });

  it('measures the logs pillar once logs cover the period', async () => {
    const card = (await (await h.call('GET', `/v1/projects/${projectId}/scorecard`)).json()).data;
    const logs = card.pillars.find((p: { key: string }) => p.key === 'logs');
    expect(logs).toMatchObject({ available: true, status: 'measured', as_of: '2026-03-09T09:00:00.000Z' });
    expect(logs.score).toBeGreaterThan(0);
    expect(logs.axes.map((a: { key: string }) => a.key)).toEqual(['indexable_hits', 'coverage', 'waste', 'freshness']);
    expect(logs.axes.find((a: { key: string }) => a.key === 'waste').score).toBe(80);
  });

  it('stores no client address and no raw line', async () => {
    for (const table of ['log_imports', 'log_url_stats', 'log_day_stats']) {
      const text = JSON.stringify(await h.knex(table).select());
      for (const ip of ['66.249.66.1', '198.51.100.7', '203.0.113.9', '192.0.2.44', '157.55.39.10']) expect(text).not.toContain(ip);
      expect(text).not.toContain('Mozilla');
    }
  });

  it('refuses a body that is neither text nor gzip (415), and a file above the plan limit (413)', async () => {
    await expectProblem(await upload('{}', { 'content-type': 'application/json' }), 415, 'log_import.unsupported_media_type');
    const token = await h.tokenFor({ team: 'tiny', plan: 'tiny' });
    const small = (await (await h.call('POST', '/v1/projects', { token, body: { url: `${site.url}/`, name: 'Tiny' } })).json()).data;
    const res = await fetch(`${h.url}/v1/projects/${small.id}/log-imports`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' }, body: LOG });
    await expectProblem(res, 413, 'log_import.too_large');
  });

  it('answers any Content-Type and Content-Encoding with 202 or 415, never a 500 (property)', async () => {
    let sent = 0;
    const accepted = ['text/plain', 'application/gzip', 'application/x-gzip', 'application/octet-stream', 'application/x-ndjson', 'application/jsonl'];
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.constantFrom(...accepted, 'application/json', 'multipart/form-data; boundary=x', 'TEXT/PLAIN; charset=utf-8', ''), fc.stringMatching(/^[a-z]{1,8}\/[a-z0-9.+-]{1,12}$/)),
        fc.constantFrom(undefined, 'gzip', 'identity', 'br', 'GZIP'),
        async (type, encoding) => {
          const headers: Record<string, string> = { 'content-type': type };
          if (encoding) headers['content-encoding'] = encoding;
          // Bytes of their own each time: the same bytes again are a duplicate (409).
          const res = await upload(`66.249.66.1 - - [09/Mar/2026:08:15:00 +0000] "GET /${++sent} HTTP/1.1" 200 1\n`, headers);
          const ok = accepted.includes(type.split(';')[0].trim().toLowerCase()) && (encoding === undefined || ['gzip', 'identity'].includes(encoding.toLowerCase()));
          if (ok) expect({ status: res.status, text: await res.text() }).toMatchObject({ status: 202 });
          else await expectProblem(res, 415, 'log_import.unsupported_media_type');
        },
      ),
      // Each accepted upload is parsed by a job in a thread of its own: few runs, and time for them.
      { numRuns: 15 },
    );
    await h.server.jobs.idle();
  }, 90_000);

  it('deletes everything with the project', async () => {
    expect((await h.call('DELETE', `/v1/projects/${projectId}`)).status).toBe(204);
    for (const table of ['log_imports', 'log_url_stats', 'log_day_stats']) expect(await h.knex(table).where({ project_id: projectId })).toEqual([]);
  });
});
