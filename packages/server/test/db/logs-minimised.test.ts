/**
 * What a bot's request keeps of its target (docs/decisions/logs.md, Privacy), over HTTP and in the
 * tables, on both databases: an e-mail address in a path or query is never stored (`(email)`
 * stands for it), and a request a person set off (a link preview, an AI assistant fetching the
 * page its user gave it, Google's feed fetcher) keeps its path without the query string and
 * without a secret-looking segment (`(token)`), as crawlers, which find their URLs on the public
 * web, do not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationSource } from '../../src/store/migrations/index.js';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { accessLine, USER_AGENTS } from '../../../../tests/support/access-log.js';
import { manualClock } from '../../../../tests/support/http.js';

const { googlebot, gptbot } = USER_AGENTS;
const CHATGPT_USER = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot';
const CLAUDE_USER = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)';
const FEEDFETCHER = 'FeedFetcher-Google; (+http://www.google.com/feedfetcher.html)';
const FACEBOOK = 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)';
const SLACK = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';
const LOG = [
  // Googlebot, from Google's published ranges: a crawler keeps its query, never the address in it.
  accessLine('66.249.66.1', 9, '/users/profile.html?email=bob%40example.com&tab=2', 200, googlebot),
  accessLine('66.249.66.1', 9, '/contact/alice.smith@example.org', 404, googlebot),
  accessLine('66.249.66.1', 9, '/img/logo@2x.png', 200, googlebot),
  // User-triggered fetchers: no query string.
  accessLine('23.98.142.176', 9, '/reset.html?token=CHATGPT-TOKEN&email=gina%40example.com', 200, CHATGPT_USER),
  accessLine('160.79.104.10', 9, '/users/profile.html?token=CLAUDE-TOKEN', 200, CLAUDE_USER),
  accessLine('66.249.66.5', 9, '/feed.xml?private_token=FEED-TOKEN', 200, FEEDFETCHER),
  accessLine('31.13.103.1', 9, '/users/frank@example.com/profile', 404, FACEBOOK),
  // A reset link shared in a chat: its token is a key to an account.
  accessLine('54.209.1.1', 9, '/reset/MQ/5ur-3d2f2f0c9b7e4a6c8d1e/', 200, SLACK),
  accessLine('31.13.103.1', 9, '/blog/2026-11-30-my-first-post', 200, FACEBOOK),
  // The same kind of segment fetched by a crawler stays: it found the URL on the public web.
  accessLine('66.249.66.1', 9, '/files/ABCDEF0123456789PUBLIC', 200, googlebot),
  // An AI crawler: a crawler, its query kept.
  accessLine('20.171.207.1', 9, '/catalogue?page=2', 200, gptbot),
].join('\n');

const clock = manualClock('2026-03-10T10:00:00.000Z');
let h: Harness;
let project: string;
let importId: string;

beforeAll(async () => {
  h = await startHarness({ clock: clock.clock, logs: { resolver: null } });
  project = (await (await h.call('POST', '/v1/projects', { body: { url: 'https://shop.example/', name: 'Minimised' } })).json()).data.id;
  const res = await fetch(`${h.url}/v1/projects/${project}/log-imports`, { method: 'POST', headers: { authorization: `Bearer ${h.token}`, 'content-type': 'text/plain' }, body: LOG });
  expect(res.status).toBe(202);
  importId = (await res.json()).data.id;
  await h.server.jobs.idle();
});
afterAll(async () => {
  await h?.close();
});

describe('what a bot request keeps of its target', () => {
  it('over HTTP: e-mail addresses replaced, user-triggered fetches without their query, crawlers with theirs', async () => {
    const res = await h.call('GET', `/v1/projects/${project}/logs/urls?limit=100`);
    expect(res.status).toBe(200);
    const urls = (await res.json()).data.map((u: { family: string; verification: string; path: string }) => `${u.family} ${u.verification} ${u.path}`);
    expect(urls.sort()).toEqual(
      [
        'ai_search not_applicable /reset.html',
        'ai_search not_applicable /users/profile.html',
        'ai_training not_applicable /catalogue?page=2',
        'google_other verified /feed.xml',
        'googlebot verified /contact/(email)',
        'googlebot verified /img/logo@2x.png',
        'googlebot verified /users/profile.html?email=(email)&tab=2',
        'social_preview not_applicable /users/(email)/profile',
        'social_preview not_applicable /reset/MQ/(token)/',
        'social_preview not_applicable /blog/2026-11-30-my-first-post',
        'googlebot verified /files/ABCDEF0123456789PUBLIC',
      ].sort(),
    );
  });

  it('in the tables: no address, no token of a person anywhere', async () => {
    const rows = JSON.stringify([await h.knex('log_url_stats').select(), await h.knex('log_day_stats').select(), await h.knex('log_imports').select()]);
    for (const needle of ['example.com', 'example.org', '%40', 'TOKEN', '3d2f2f0c', 'bob', 'alice', 'gina', 'frank']) expect(rows).not.toContain(needle);
  });

  it('rewrites at migration 033 the paths an import made before the rule kept with an address, adding a row to the one already under the new path', async () => {
    const options = { migrationSource, tableName: 'siteaudit_migrations' };
    await h.knex.migrate.down({ ...options, name: '033-log-email-paths' });
    const row = { import_id: importId, project_id: project, family: 'googlebot', verification: 'verified', last_visit: '2026-03-09T09:00:00.000Z', bytes: 100 };
    // Rows as imports kept them before: one meets the rewritten path already there, one does not.
    await h.knex('log_url_stats').insert([
      { ...row, path: '/users/profile.html?email=carol%40example.net&tab=2', hits: 2, status_codes: '{"200":1,"304":1}' },
      { ...row, path: '/team/dan@example.net/', hits: 1, status_codes: '{"200":1}' },
    ]);
    await h.knex.migrate.latest(options);
    const stats = (await h.knex('log_url_stats').where({ project_id: project, family: 'googlebot' }).orderBy('path').select('path', 'hits', 'bytes', 'last_visit', 'status_codes')).map((r) => ({ ...r, hits: Number(r.hits), bytes: Number(r.bytes), status_codes: JSON.parse(r.status_codes) }));
    expect(stats).toEqual([
      { path: '/contact/(email)', hits: 1, bytes: 5120, last_visit: '2026-03-09T08:15:00.000Z', status_codes: { 404: 1 } },
      { path: '/files/ABCDEF0123456789PUBLIC', hits: 1, bytes: 5120, last_visit: '2026-03-09T08:15:00.000Z', status_codes: { 200: 1 } },
      { path: '/img/logo@2x.png', hits: 1, bytes: 5120, last_visit: '2026-03-09T08:15:00.000Z', status_codes: { 200: 1 } },
      { path: '/team/(email)/', hits: 1, bytes: 100, last_visit: '2026-03-09T09:00:00.000Z', status_codes: { 200: 1 } },
      { path: '/users/profile.html?email=(email)&tab=2', hits: 3, bytes: 5220, last_visit: '2026-03-09T09:00:00.000Z', status_codes: { 200: 2, 304: 1 } },
    ]);
    expect(JSON.stringify(await h.knex('log_url_stats').select())).not.toMatch(/example\.net|%40/);
  });
});
