import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { pendingClaims, settleVerifications } from '@siteaudit/schema';
import { publishedRangeCheck } from '../../src/modules/logs/bot-ranges.js';
import { parseLogFile } from '../../src/modules/logs/parse-file.js';
import { verifyByReverseDns, type DnsResolver } from '../../src/modules/logs/reverse-dns.js';

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
  const resolver: DnsResolver = {
    reverse: async (ip) => ({ '1.1.1.1': ['crawl-1-1-1-1.googlebot.com'], '2.2.2.2': ['crawl.googlebot.com.attacker.example'], '3.3.3.3': ['msnbot-3-3-3-3.search.msn.com.'], '4.4.4.4': ['crawl-4.googlebot.com'] })[ip] ?? Promise.reject(new Error('ENOTFOUND')),
    lookup: async (host) => ({ 'crawl-1-1-1-1.googlebot.com': ['1.1.1.1'], 'msnbot-3-3-3-3.search.msn.com': ['3.3.3.3'], 'crawl-4.googlebot.com': ['9.9.9.9'] })[host] ?? [],
  };
  it('needs the PTR in the operator domain and the forward lookup back to the address', async () => {
    const claims = new Map([['1.1.1.1', 'google'], ['2.2.2.2', 'google'], ['3.3.3.3', 'bing'], ['4.4.4.4', 'google'], ['5.5.5.5', 'google'], ['1.1.1.1 ', 'bing']] as const);
    expect([...(await verifyByReverseDns(resolver, new Map(claims)))].sort()).toEqual(['1.1.1.1', '3.3.3.3']);
  });
  it('verifies nothing when the step is off', async () => {
    expect((await verifyByReverseDns(null, new Map([['1.1.1.1', 'google']]))).size).toBe(0);
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
      settleVerifications(agg, new Set());
      expect([...agg.urls.keys()].every((k) => k.startsWith('googlebot\tunverified\t/p/'))).toBe(true);
      expect(agg.urls.size).toBe(7);
    }
  });
});
