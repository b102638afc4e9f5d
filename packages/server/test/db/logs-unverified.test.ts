/**
 * A request that claims to be Googlebot from an address that is not Google's is, by the
 * product's own check, not Googlebot: it is counted per day and family, as a person is, and its
 * path and query string are never stored (docs/decisions/logs.md, Privacy). Over HTTP and in the
 * tables, on both databases; imports made before the rule lose their rows at migration 031.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationSource } from '../../src/store/migrations/index.js';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { accessLine, USER_AGENTS } from '../../../../tests/support/access-log.js';
import { manualClock } from '../../../../tests/support/http.js';

const { googlebot, browser } = USER_AGENTS;
const PRIVATE = '/users/jane.doe@example.com/profile?phone=+33699999999';
const LOG = [
  accessLine('66.249.66.1', 9, '/', 200, googlebot),
  // Outside Google's published ranges, and no reverse DNS here (`resolver: null`): a failed claim.
  accessLine('203.0.113.50', 9, PRIVATE, 200, googlebot),
  accessLine('203.0.113.50', 9, '/admin', 404, googlebot),
  accessLine('192.0.2.1', 9, '/users/someone@example.com', 200, browser),
].join('\n');

const clock = manualClock('2026-03-10T10:00:00.000Z');
let h: Harness;
let project: string;
let importId: string;

const get = async (path: string) => {
  const res = await h.call('GET', `/v1/projects/${project}/${path}`);
  expect(res.status).toBe(200);
  return (await res.json()).data;
};

beforeAll(async () => {
  h = await startHarness({ clock: clock.clock, logs: { resolver: null } });
  project = (await (await h.call('POST', '/v1/projects', { body: { url: 'https://shop.example/', name: 'Claims' } })).json()).data.id;
  const res = await fetch(`${h.url}/v1/projects/${project}/log-imports`, { method: 'POST', headers: { authorization: `Bearer ${h.token}`, 'content-type': 'text/plain' }, body: LOG });
  expect(res.status).toBe(202);
  importId = (await res.json()).data.id;
  await h.server.jobs.idle();
});
afterAll(async () => {
  await h?.close();
});

describe('Google claims that fail verification', () => {
  it('keep no path: the URL list has the verified hit only, and the unverified filter answers an empty list', async () => {
    expect(await get(`log-imports/${importId}`)).toMatchObject({ status: 'completed', bot_hits: 3, human_hits: 1 });
    const urls = await get('logs/urls?limit=100');
    expect(urls.map((u: { family: string; verification: string; path: string }) => `${u.family} ${u.verification} ${u.path}`)).toEqual(['googlebot verified /']);
    expect(await get('logs/urls?verification=unverified')).toEqual([]);
    expect(await get('logs/urls?verification=unverified&family=googlebot')).toEqual([]);
  });

  it('are counted per day and family, in the days and the insights', async () => {
    const days = await get('logs/days?family=googlebot&limit=100');
    expect(days).toEqual([
      { date: '2026-03-09', family: 'googlebot', verification: 'unverified', status_class: '2xx', hits: 1 },
      { date: '2026-03-09', family: 'googlebot', verification: 'unverified', status_class: '4xx', hits: 1 },
      { date: '2026-03-09', family: 'googlebot', verification: 'verified', status_class: '2xx', hits: 1 },
    ]);
    const insights = await get('logs/insights');
    expect(insights.hits).toEqual({ bots: 1, unverified_claims: 2, humans: 1 });
    expect(insights.families).toEqual([
      { family: 'googlebot', verification: 'unverified', hits: 2, urls: 0, last_visit: null },
      { family: 'googlebot', verification: 'verified', hits: 1, urls: 1, last_visit: '2026-03-09T08:15:00.000Z' },
    ]);
  });

  it('leave no row with their path in the tables, only day counts', async () => {
    expect(await h.knex('log_url_stats').where({ project_id: project }).pluck('path')).toEqual(['/']);
    expect(await h.knex('log_url_stats').where('path', 'like', '%example.com%').pluck('path')).toEqual([]);
    const claims = await h.knex('log_day_stats').where({ project_id: project, verification: 'unverified' }).orderBy('status_class').select('family', 'status_class', 'hits');
    expect(claims.map((r) => ({ ...r, hits: Number(r.hits) }))).toEqual([
      { family: 'googlebot', status_class: '2xx', hits: 1 },
      { family: 'googlebot', status_class: '4xx', hits: 1 },
    ]);
  });

  it('measure nothing in the logs pillar when they are a recent import\'s only bot hits (no_bot_hits, as on the mock)', async () => {
    const other = (await (await h.call('POST', '/v1/projects', { body: { url: 'https://other.example/', name: 'Only claims' } })).json()).data.id;
    const res = await fetch(`${h.url}/v1/projects/${other}/log-imports`, { method: 'POST', headers: { authorization: `Bearer ${h.token}`, 'content-type': 'text/plain' }, body: accessLine('203.0.113.50', 9, PRIVATE, 200, googlebot) });
    expect(res.status).toBe(202);
    await h.server.jobs.idle();
    const card = (await (await h.call('GET', `/v1/projects/${other}/scorecard`)).json()).data;
    expect(card.pillars.find((p: { key: string }) => p.key === 'logs')).toMatchObject({ score: null, status: 'not_measured', blocked_reason: 'no_bot_hits' });
  });

  it('lose the rows an import made before the rule at migration 031, their counts kept', async () => {
    const options = { migrationSource, tableName: 'siteaudit_migrations' };
    await h.knex.migrate.down({ ...options, name: '031-log-unverified-paths' });
    // A row as imports kept them before: the claim's path and query string.
    await h.knex('log_url_stats').insert({ import_id: importId, project_id: project, path: PRIVATE, family: 'googlebot', verification: 'unverified', hits: 1, last_visit: '2026-03-09T08:15:00.000Z', status_codes: '{"200":1}', bytes: 5120 });
    await h.knex.migrate.latest(options);
    expect(await h.knex('log_url_stats').where({ project_id: project }).pluck('path')).toEqual(['/']);
    expect((await get('logs/insights')).hits).toEqual({ bots: 1, unverified_claims: 2, humans: 1 });
  });
});
