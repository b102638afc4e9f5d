/**
 * Reverse DNS never asks about an address of a private or local network (docs/decisions/logs.md,
 * "Bots, verified" and Privacy): a Google claim from a loopback, private, link-local, CGNAT or
 * unique-local address (a proxy's own, a site's internal network), or from text that is no
 * address, fails without a question, so the resolver never learns them. An IPv4-mapped address is asked about as IPv4, and a forward
 * answer written in another IPv6 spelling still verifies. Over HTTP, both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DnsResolver } from '../../src/modules/logs/reverse-dns.js';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { accessLine, USER_AGENTS } from '../../../../tests/support/access-log.js';
import { manualClock } from '../../../../tests/support/http.js';

const { googlebot } = USER_AGENTS;
/** Public addresses outside Google's published ranges, with the PTR names a Google crawler's would have. */
const PTR: Record<string, string> = {
  '8.8.4.4': 'crawl-8-8-4-4.googlebot.com',
  '9.9.9.9': 'crawl-9-9-9-9.googlebot.com',
  '2a00:1450:4001:829::200e': 'crawl-v6.googlebot.com',
  // Apple, Yandex and Baidu publish no ranges: every claim of theirs goes to reverse DNS.
  '17.58.101.7': '17-58-101-7.applebot.apple.com',
  '5.255.253.1': 'spider-5-255-253-1.yandex.com',
  '180.76.15.9': 'baiduspider-180-76-15-9.crawl.baidu.com',
  // Names in the right domain that do not resolve back, and a name in another domain.
  '198.51.100.7': 'spoof.applebot.apple.com',
  '198.51.100.8': 'crawler.yandex.com.evil.example',
};
const FORWARD: Record<string, string[]> = {
  'crawl-8-8-4-4.googlebot.com': ['8.8.4.4'],
  'crawl-9-9-9-9.googlebot.com': ['9.9.9.9'],
  // Another spelling of the same IPv6 address.
  'crawl-v6.googlebot.com': ['2a00:1450:4001:0829:0000:0000:0000:200e'],
  '17-58-101-7.applebot.apple.com': ['17.58.101.7'],
  'spider-5-255-253-1.yandex.com': ['5.255.253.1'],
  'baiduspider-180-76-15-9.crawl.baidu.com': ['180.76.15.9'],
  'spoof.applebot.apple.com': ['17.58.101.8'],
  'crawler.yandex.com.evil.example': ['198.51.100.8'],
};
const APPLEBOT = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)';
const YANDEXBOT = 'Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)';
const BAIDUSPIDER = 'Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)';
const asked: string[] = [];
const resolver: DnsResolver = {
  async reverse(ip) {
    asked.push(ip);
    const name = PTR[ip];
    if (!name) throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
    return [name];
  },
  lookup: async (host) => FORWARD[host] ?? [],
};

const LOG = [
  accessLine('127.0.0.1', 9, '/loopback', 200, googlebot),
  accessLine('10.1.2.3', 9, '/private', 200, googlebot),
  accessLine('192.168.0.9', 9, '/private', 200, googlebot),
  accessLine('100.64.0.1', 9, '/cgnat', 200, googlebot),
  accessLine('::1', 9, '/loopback', 200, googlebot),
  accessLine('fe80::1', 9, '/link-local', 200, googlebot),
  accessLine('fd00::7', 9, '/unique-local', 200, googlebot),
  JSON.stringify({ time: '2026-03-09T08:15:00Z', client: 'jane-laptop.corp.example', path: '/name', status: 200, user_agent: googlebot }),
  accessLine('8.8.4.4', 9, '/public', 200, googlebot),
  accessLine('::ffff:9.9.9.9', 9, '/mapped', 200, googlebot),
  accessLine('2a00:1450:4001:0829:0000:0000:0000:200e', 9, '/v6', 200, googlebot),
  accessLine('17.58.101.7', 9, '/apple', 200, APPLEBOT),
  accessLine('5.255.253.1', 9, '/yandex', 200, YANDEXBOT),
  accessLine('180.76.15.9', 9, '/baidu', 200, BAIDUSPIDER),
  accessLine('198.51.100.7', 9, '/spoofed-apple', 200, APPLEBOT),
  accessLine('198.51.100.8', 9, '/spoofed-yandex', 200, YANDEXBOT),
  accessLine('10.0.0.8', 9, '/private-baidu', 200, BAIDUSPIDER),
  // Apple's address, claiming to be Baidu: its name verifies Applebot claims only.
  accessLine('17.58.101.7', 9, '/apple-as-baidu', 200, BAIDUSPIDER),
].join('\n');

const clock = manualClock('2026-03-10T10:00:00.000Z');
let h: Harness;
let project: string;

beforeAll(async () => {
  h = await startHarness({ clock: clock.clock, logs: { resolver } });
  project = (await (await h.call('POST', '/v1/projects', { body: { url: 'https://shop.example/', name: 'Reverse DNS' } })).json()).data.id;
  const res = await fetch(`${h.url}/v1/projects/${project}/log-imports`, { method: 'POST', headers: { authorization: `Bearer ${h.token}`, 'content-type': 'text/plain' }, body: LOG });
  expect(res.status).toBe(202);
  await h.server.jobs.idle();
});
afterAll(async () => {
  await h?.close();
});

describe('reverse DNS of crawler claims (Google, Apple, Yandex, Baidu)', () => {
  it('asks about no address of a private or local network, IPv4-mapped ones as IPv4, IPv6 in one spelling', () => {
    expect([...asked].sort()).toEqual(['17.58.101.7', '180.76.15.9', '198.51.100.7', '198.51.100.8', '2a00:1450:4001:829::200e', '5.255.253.1', '8.8.4.4', '9.9.9.9']);
  });

  it('verifies the other claims whose names resolve back (whatever the spelling) and counts the others as unverified, per day only', async () => {
    const urls = (await (await h.call('GET', `/v1/projects/${project}/logs/urls?limit=100`)).json()).data;
    expect(urls.map((u: { family: string; verification: string; path: string }) => `${u.family} ${u.verification} ${u.path}`).sort()).toEqual([
      'applebot verified /apple',
      'baiduspider verified /baidu',
      'googlebot verified /mapped',
      'googlebot verified /public',
      'googlebot verified /v6',
      'yandexbot verified /yandex',
    ]);
    const insights = (await (await h.call('GET', `/v1/projects/${project}/logs/insights`)).json()).data;
    // The spoofed Apple and Yandex claims, the private-address Baidu one and Apple's address as Baidu: counted as people are.
    expect(insights.hits).toMatchObject({ bots: 6, unverified_claims: 12 });
    const families = Object.fromEntries(insights.families.map((f: { family: string; verification: string; hits: number }) => [`${f.family} ${f.verification}`, f.hits]));
    expect(families).toMatchObject({ 'applebot verified': 1, 'applebot unverified': 1, 'yandexbot verified': 1, 'yandexbot unverified': 1, 'baiduspider verified': 1, 'baiduspider unverified': 2 });
  });
});
