/**
 * Bot families as analysts expect them (docs/decisions/logs.md, "Bot families"): SEO tools, AI
 * crawlers, link previews and the other search engines are named families, never humans; our
 * own crawler is recognised as ours; a 304 answer is not crawl waste. Read over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { manualClock } from '../../../../tests/support/http.js';

const clock = manualClock('2026-03-10T10:00:00.000Z');
let h: Harness;
let projectId: string;

const AGENTS: [string, string][] = [
  ['Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)', 'seo_tool'],
  ['Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)', 'seo_tool'],
  ['Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/)', 'seo_tool'],
  ['Mozilla/5.0 (compatible; DotBot/1.2; +https://opensiteexplorer.org/dotbot; help@moz.com)', 'seo_tool'],
  ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)', 'ai_training'],
  ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)', 'ai_training'],
  ['CCBot/2.0 (https://commoncrawl.org/faq/)', 'ai_training'],
  ['Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)', 'ai_training'],
  ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)', 'ai_search'],
  ['facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)', 'social_preview'],
  ['Twitterbot/1.0', 'social_preview'],
  ['LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)', 'social_preview'],
  ['Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)', 'social_preview'],
  ['DuckDuckBot/1.1; (+http://duckduckgo.com/duckduckbot.html)', 'duckduckbot'],
  ['Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)', 'yandexbot'],
  ['Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)', 'baiduspider'],
  ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)', 'applebot'],
  ['Mozilla/5.0 (compatible; SeznamBot/4.0; +https://o-seznam.cz/napoveda/vyhledavani/en/seznambot-crawler/)', 'other_search_engine'],
  ['Mozilla/5.0 (compatible; SiteAuditBot/1.0; +https://siteaudit.dev/bot)', 'siteaudit'],
];
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64; rv:130.0) Gecko/20100101 Firefox/130.0';
const line = (path: string, status: number, ua: string) => `192.0.2.9 - - [09/Mar/2026:08:00:00 +0000] "GET ${path} HTTP/1.1" ${status} 10 "-" "${ua}"`;

beforeAll(async () => {
  h = await startHarness({ clock: clock.clock, logs: { resolver: null } });
  projectId = (await (await h.call('POST', '/v1/projects', { body: { url: 'https://example.com/', name: 'Families' } })).json()).data.id;
  const log = [...AGENTS.map(([ua], i) => line(`/p${i}`, 200, ua)), line('/a', 200, BROWSER), line('/fresh', 304, AGENTS[0][0]), line('/fresh', 304, AGENTS[0][0])].join('\n');
  const res = await fetch(`${h.url}/v1/projects/${projectId}/log-imports`, { method: 'POST', headers: { authorization: `Bearer ${h.token}`, 'content-type': 'text/plain' }, body: log });
  expect(res.status).toBe(202);
  await h.server.jobs.idle();
});
afterAll(async () => {
  await h?.close();
});

describe('bot families', () => {
  it('names each bot family in the URL statistics, and counts only the browser as human', async () => {
    const urls = (await (await h.call('GET', `/v1/projects/${projectId}/logs/urls?limit=100`)).json()).data as { path: string; family: string; verification: string }[];
    for (const [i, [, family]] of AGENTS.entries()) expect(urls.find((u) => u.path === `/p${i}`), family).toMatchObject({ family, verification: 'not_applicable' });
    const insights = (await (await h.call('GET', `/v1/projects/${projectId}/logs/insights`)).json()).data;
    expect(insights.hits).toEqual({ bots: AGENTS.length + 2, unverified_claims: 0, humans: 1 });
  });

  it('does not count 304 answers as crawl waste', async () => {
    const card = (await (await h.call('GET', `/v1/projects/${projectId}/scorecard`)).json()).data;
    const logs = card.pillars.find((p: { key: string }) => p.key === 'logs');
    expect(logs.axes.find((a: { key: string }) => a.key === 'waste').score).toBe(100);
  });
});
