import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createLogAggregator, pendingClaims, settleVerifications } from '@siteaudit/schema/rules';
import { publishedRangeCheck } from '../../src/modules/logs/bot-ranges.js';
import { parseLogFile } from '../../src/modules/logs/parse-file.js';
import { reverseDnsLookup, type DnsResolver } from '../../src/modules/logs/reverse-dns.js';

describe('published ranges', () => {
  const inRanges = publishedRangeCheck();
  it('verifies Googlebot and special crawlers in IPv4 and IPv6, Bingbot in IPv4, nothing else', () => {
    expect(inRanges('google', '66.249.66.1')).toBe(true);
    expect(inRanges('google', '2001:4860:4801:10::1')).toBe(true);
    expect(inRanges('google', '::ffff:66.249.66.1')).toBe(true);
    expect(inRanges('google', '8.8.8.8')).toBe(false);
    expect(inRanges('bing', '157.55.39.10')).toBe(true);
    expect(inRanges('bing', '40.77.188.255')).toBe(true);
    expect(inRanges('bing', '66.249.66.1')).toBe(false);
    expect(inRanges('google', 'not an address')).toBe(false);
  });
});

describe('reverse DNS', () => {
  const names: Record<string, string[]> = {
    '1.1.1.1': ['crawl-1-1-1-1.googlebot.com'],
    '2.2.2.2': ['crawl.googlebot.com.attacker.example'],
    '3.3.3.3': ['msnbot-3-3-3-3.search.msn.com.'],
    '4.4.4.4': ['crawl-4.googlebot.com'],
    // Any Google Cloud VM: its PTR is Google's and resolves back, yet it is a customer's machine.
    '6.6.6.6': ['6.6.6.6.bc.googleusercontent.com'],
    '7.7.7.7': ['7-7-7-7.gae.googleusercontent.com'],
    '8.8.4.4': ['rate-limited-proxy-8-8-4-4.google.com'],
    '9.9.4.4': ['geo-crawl-9-9-4-4.geo.googlebot.com'],
  };
  const resolver: DnsResolver = {
    reverse: async (ip) => names[ip] ?? Promise.reject(new Error('ENOTFOUND')),
    lookup: async (host) => {
      if (host === 'crawl-4.googlebot.com') return ['9.9.9.9'];
      const ip = Object.keys(names).find((key) => names[key].some((name) => name.replace(/\.$/, '') === host));
      return ip ? [ip] : [];
    },
  };
  const verdict = reverseDnsLookup(resolver);
  /** The families an address verifies for, sorted. */
  const lookup = async (ip: string, operator: 'google' | 'bing') => {
    const answer = await verdict(ip, operator);
    return typeof answer === 'boolean' ? answer : [...answer].sort();
  };
  const GOOGLE_CRAWLERS = ['googlebot', 'googlebot_smartphone', 'googlebot_image', 'googlebot_video', 'googlebot_news', 'google_other'];

  it('needs the PTR in the operator domain and the forward lookup back to the address', async () => {
    expect(await lookup('1.1.1.1', 'google')).toEqual([...GOOGLE_CRAWLERS].sort());
    expect(await lookup('2.2.2.2', 'google')).toEqual([]);
    expect(await lookup('3.3.3.3', 'bing')).toEqual(['bingbot']);
    expect(await lookup('4.4.4.4', 'google')).toEqual([]);
    expect(await lookup('5.5.5.5', 'google')).toEqual([]);
    expect(await lookup('1.1.1.1', 'bing')).toEqual([]);
  });

  it("takes googlebot.com, geo.googlebot.com and google.com for Google's crawlers, gae.googleusercontent.com only for its fetchers (google_other), no other googleusercontent.com", async () => {
    expect(await lookup('9.9.4.4', 'google')).toEqual([...GOOGLE_CRAWLERS].sort());
    expect(await lookup('8.8.4.4', 'google')).toEqual([...GOOGLE_CRAWLERS].sort());
    expect(await lookup('7.7.7.7', 'google')).toEqual(['google_other']);
    expect(await lookup('6.6.6.6', 'google')).toEqual([]);
  });

  it('settles each family of one address by its own domains: a Googlebot claim from a fetcher\'s address stays a claim, counted per day only', () => {
    const aggregator = createLogAggregator(() => false, { onClaim: () => {} });
    const at = (path: string, ua: string) => `7.7.7.7 - - [09/Mar/2026:08:00:00 +0000] "GET ${path} HTTP/1.1" 200 10 "-" "${ua}"`;
    aggregator.add(at('/feed.xml', 'FeedFetcher-Google; (+http://www.google.com/feedfetcher.html)'));
    aggregator.add(at('/a', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'));
    aggregator.decide('7.7.7.7', ['google_other']);
    // Claims met after the answer are settled by it too.
    aggregator.add(at('/b', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'));
    expect([...aggregator.urlEntries()].map(([family, verification, path]) => `${family} ${verification} ${path}`).sort()).toEqual(['google_other verified /feed.xml']);
    expect([...aggregator.dayEntries()].map(([date, family, verification, klass, hits]) => `${date} ${family} ${verification} ${klass} ${hits}`).sort()).toEqual(['2026-03-09 google_other verified 2xx 1', '2026-03-09 googlebot unverified 2xx 2']);
  });

  it('verifies nothing when the step is off', async () => {
    expect(await reverseDnsLookup(null)('1.1.1.1', 'google')).toBe(false);
  });
});

describe('parsing a file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'logs-parse-'));
  const lines = Array.from({ length: 5000 }, (_, i) => `192.0.2.${i % 250} - - [09/Mar/2026:08:00:00 +0000] "GET /p/${i % 7} HTTP/1.1" 200 10 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"`);
  it('reads plain and gzip files alike, split across chunks, with CRLF endings and an overlong line refused', async () => {
    const text = [...lines, 'x'.repeat(70_000), 'tail'].join('\r\n');
    writeFileSync(join(dir, 'a.log'), text);
    writeFileSync(join(dir, 'a.log.gz'), gzipSync(text));
    for (const name of ['a.log', 'a.log.gz']) {
      const agg = (await parseLogFile(join(dir, name))).aggregate;
      expect(agg).toMatchObject({ linesRead: 5002, kept: 5000, refused: 2, botHits: 5000 });
      expect(agg.refusals).toEqual([{ line: 5001, reason: 'line_too_long' }, { line: 5002, reason: 'unrecognised_format' }]);
      // Claims outside the ranges wait for reverse DNS, one entry per address, until settled.
      expect(pendingClaims(agg).size).toBe(250);
      expect(agg.urls.size).toBe(250 * 7);
      // None passes: the claims leave their day counts, no path.
      settleVerifications(agg, new Set());
      expect(agg.urls.size).toBe(0);
      expect([...agg.days]).toEqual([['2026-03-09\tgooglebot\tunverified\t2xx', 5000]]);
    }
  });

  it('refuses a line of many chunks, two-byte characters cut at their edges, and reads the line after it whole', async () => {
    // 600 KB of "é" (chunks of 64 KiB are skipped undecoded once the line is too long), then a line.
    const text = ['é'.repeat(300_000), lines[0], 'é'.repeat(100_001) + '\n' + lines[1]].join('\n');
    writeFileSync(join(dir, 'b.log'), text);
    writeFileSync(join(dir, 'b.log.gz'), gzipSync(text));
    for (const name of ['b.log', 'b.log.gz']) {
      const agg = (await parseLogFile(join(dir, name))).aggregate;
      expect(agg).toMatchObject({ linesRead: 4, kept: 2, refused: 2, botHits: 2 });
      expect(agg.refusals).toEqual([{ line: 1, reason: 'line_too_long' }, { line: 3, reason: 'line_too_long' }]);
    }
  });
});
