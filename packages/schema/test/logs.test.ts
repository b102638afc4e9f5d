import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  botFamily,
  createLogAggregator,
  mergeAggregates,
  OPERATOR_OF,
  parseClfTime,
  parseLogLine,
  pendingClaims,
  settleVerifications,
  statusClass,
  statusRecord,
  type LogAggregate,
} from '../src/index.js';

const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

describe('log lines', () => {
  it('reads the Combined Log Format, with an escaped quote in the user agent', () => {
    const parsed = parseLogLine('66.249.66.1 - frank [10/Oct/2025:13:55:36 -0700] "GET /a?b=1 HTTP/1.1" 200 2326 "http://x/" "Bot \\"quoted\\" 1.0" 0.003');
    expect(parsed).toEqual({
      ok: true,
      format: 'combined',
      request: { time: Date.parse('2025-10-10T20:55:36Z'), ip: '66.249.66.1', method: 'GET', path: '/a?b=1', status: 200, bytes: 2326, userAgent: 'Bot "quoted" 1.0' },
    });
  });

  it('reads the Common Log Format (no user agent) and an absolute target, "-" bytes as 0', () => {
    const parsed = parseLogLine('::1 - - [01/Jan/2026:00:00:00 +0000] "GET http://example.com/x HTTP/1.0" 304 -');
    expect(parsed).toMatchObject({ ok: true, format: 'common', request: { ip: '::1', path: '/x', status: 304, bytes: 0, userAgent: '' } });
  });

  it('reads JSON lines by the documented field mapping', () => {
    expect(parseLogLine(JSON.stringify({ '@timestamp': '2026-01-02T03:04:05Z', client_ip: '1.2.3.4', request: 'GET /p HTTP/2', status_code: '404', bytes_sent: 10, user_agent: GOOGLEBOT }))).toMatchObject({
      ok: true,
      format: 'json',
      request: { time: Date.parse('2026-01-02T03:04:05Z'), ip: '1.2.3.4', method: 'GET', path: '/p', status: 404, bytes: 10, userAgent: GOOGLEBOT },
    });
    expect(parseLogLine('{"time": 1767323045, "path": "/q", "status": 200}')).toMatchObject({ ok: true, request: { time: 1767323045000, path: '/q' } });
    expect(parseLogLine('{"path": "/q", "status": 200}')).toEqual({ ok: false, reason: 'missing_time' });
    expect(parseLogLine('{"time": "2026-01-01T00:00:00Z", "status": 200}')).toEqual({ ok: false, reason: 'missing_path' });
    expect(parseLogLine('{nope')).toEqual({ ok: false, reason: 'invalid_json' });
  });

  it('refuses what is not a log line, with a reason', () => {
    expect(parseLogLine('hello')).toEqual({ ok: false, reason: 'unrecognised_format' });
    expect(parseLogLine('1.2.3.4 - - [99/Foo/2026:00:00:00 +0000] "GET / HTTP/1.1" 200 1')).toEqual({ ok: false, reason: 'bad_time' });
    expect(parseLogLine('1.2.3.4 - - [01/Jan/2026:00:00:00 +0000] "-" 400 0')).toEqual({ ok: false, reason: 'bad_request_line' });
  });

  it('reads %t with its offset', () => {
    expect(parseClfTime('10/Oct/2000:13:55:36 -0700')).toBe(Date.parse('2000-10-10T20:55:36Z'));
    expect(parseClfTime('10/Oct/2000:13:55:36 +0200')).toBe(Date.parse('2000-10-10T11:55:36Z'));
  });

  it('never throws on any text, and a refusal always says why', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        const parsed = parseLogLine(text);
        if (!parsed.ok) expect(parsed.reason).toMatch(/^[a-z_]+$/);
        else expect(Number.isFinite(parsed.request.time)).toBe(true);
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 500) },
    );
  });
});

describe('bot families', () => {
  it.each([
    [GOOGLEBOT, 'googlebot'],
    ['Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X) Chrome/130 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'googlebot_smartphone'],
    ['Googlebot-Image/1.0', 'googlebot_image'],
    ['Googlebot-Video/1.0', 'googlebot_video'],
    ['Googlebot-News', 'googlebot_news'],
    ['Mozilla/5.0 (compatible; GoogleOther)', 'google_other'],
    ['AdsBot-Google (+http://www.google.com/adsbot.html)', 'google_other'],
    ['Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)', 'bingbot'],
    ['Mozilla/5.0 (Macintosh) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)', 'applebot'],
    ['Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)', 'yandexbot'],
    ['Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)', 'baiduspider'],
    ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)', 'ai_training'],
    ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot', 'ai_search'],
    ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; PerplexityBot/1.0', 'ai_search'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/130.0 Safari/537.36', null],
    ['', null],
  ])('%s → %s', (ua, family) => {
    expect(botFamily(ua)).toBe(family);
  });
});

describe('aggregation', () => {
  it('counts humans per day only, keeps Google claims outside the ranges pending, then settles them without addresses', () => {
    const { aggregate, add } = createLogAggregator((_op, ip) => ip === '66.249.66.1');
    add(`66.249.66.1 - - [09/Mar/2026:08:00:00 +0000] "GET / HTTP/1.1" 200 10 "-" "${GOOGLEBOT}"`);
    add(`10.0.0.9 - - [09/Mar/2026:08:00:00 +0000] "GET / HTTP/1.1" 200 10 "-" "${GOOGLEBOT}"`);
    add(`10.0.0.7 - - [09/Mar/2026:08:00:00 +0000] "GET / HTTP/1.1" 200 10 "-" "${GOOGLEBOT}"`);
    add('192.0.2.1 - - [09/Mar/2026:08:00:00 +0000] "GET /me HTTP/1.1" 200 10 "-" "Firefox"');
    add('junk');
    expect(aggregate).toMatchObject({ linesRead: 5, kept: 4, refused: 1, humanHits: 1, botHits: 3 });
    expect([...pendingClaims(aggregate)]).toEqual([['10.0.0.9', 'google'], ['10.0.0.7', 'google']]);
    settleVerifications(aggregate, new Set(['10.0.0.9']));
    expect(Object.fromEntries([...aggregate.urls].map(([k, v]) => [k, v.hits]))).toEqual({ 'googlebot\tverified\t/': 2, 'googlebot\tunverified\t/': 1 });
    expect(JSON.stringify([...aggregate.urls, ...aggregate.days])).not.toMatch(/10\.0\.0|192\.0\.2|\/me/);
  });

  it('read = kept + refused, whatever the lines', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.constant(`1.2.3.4 - - [09/Mar/2026:08:00:00 +0000] "GET / HTTP/1.1" 200 10 "-" "${GOOGLEBOT}"`))), (lines) => {
        const { aggregate, add } = createLogAggregator(() => true);
        for (const line of lines) add(line);
        expect(aggregate.kept + aggregate.refused).toBe(aggregate.linesRead);
        expect(aggregate.humanHits + aggregate.botHits).toBe(aggregate.kept);
      }),
      { numRuns: 200 },
    );
  });

  /** The fold as first written: every line through parseLogLine, string keys (what the fast path must equal). */
  function referenceFold(lines: readonly string[], verify: (ip: string) => boolean) {
    const urls = new Map<string, { hits: number; last: number; statuses: Record<string, number>; bytes: number }>();
    const days = new Map<string, number>();
    const out = { format: null as string | null, linesRead: 0, kept: 0, refused: 0, refusals: [] as { line: number; reason: string }[], humanHits: 0, botHits: 0, from: null as number | null, to: null as number | null };
    for (const raw of lines) {
      if (raw.length === 0 || raw === '\r') continue;
      out.linesRead++;
      const parsed = parseLogLine(raw.endsWith('\r') ? raw.slice(0, -1) : raw);
      if (!parsed.ok) {
        out.refused++;
        if (out.refusals.length < 10) out.refusals.push({ line: out.linesRead, reason: parsed.reason });
        continue;
      }
      out.kept++;
      out.format ??= parsed.format;
      const r = parsed.request;
      if (out.from === null || r.time < out.from) out.from = r.time;
      if (out.to === null || r.time > out.to) out.to = r.time;
      const family = botFamily(r.userAgent);
      const day = new Date(r.time).toISOString().slice(0, 10);
      if (family === null) {
        out.humanHits++;
        const key = `${day}\thuman\tnot_applicable\t${statusClass(r.status)}`;
        days.set(key, (days.get(key) ?? 0) + 1);
        continue;
      }
      out.botHits++;
      const verification = OPERATOR_OF[family] === undefined ? 'not_applicable' : verify(r.ip) ? 'verified' : `?${r.ip}`;
      const dayKey = `${day}\t${family}\t${verification}\t${statusClass(r.status)}`;
      days.set(dayKey, (days.get(dayKey) ?? 0) + 1);
      const key = `${family}\t${verification}\t${r.path}`;
      const url = urls.get(key) ?? { hits: 0, last: r.time, statuses: {}, bytes: 0 };
      url.hits++;
      url.last = Math.max(url.last, r.time);
      url.statuses[r.status] = (url.statuses[r.status] ?? 0) + 1;
      url.bytes += r.bytes;
      urls.set(key, url);
    }
    return { ...out, urls: Object.fromEntries(urls), days: Object.fromEntries(days) };
  }

  const comparable = (agg: LogAggregate) => ({
    ...agg,
    urls: Object.fromEntries([...agg.urls].map(([key, v]) => [key, { ...v, statuses: statusRecord(v.statuses) }])),
    days: Object.fromEntries(agg.days),
  });

  // Lines near the Combined format: the fast path must read what it accepts exactly as
  // parseLogLine does, and leave everything else to it.
  const part = (...options: string[]) => fc.constantFrom(...options);
  const logLine = fc
    .tuple(
      part('66.249.66.1', '10.0.0.7', '2001:4860:4801:10::1', '157.55.39.1', '', 'a\tb', 'é'),
      part('- -', 'ident frank', '-'),
      part('10/Oct/2025:13:55:36 -0700', '01/Jan/2026:00:00:00 +0000', '31/Dec/2025:23:59:59 +0130', '99/Foo/2026:00:00:00 +0000', '1/Jan/2026:00:00:00 +0000', '01/Jan/2026:00:00:00 +0000 x', '01-Jan-2026 00:00:00 Z0000', '01/Jan/2026:00:00:00 +00'),
      part('GET /a?b=1 HTTP/1.1', 'HEAD / HTTP/1.0', 'GET http://host/x HTTP/1.1', 'GET /q\\"x HTTP/1.1', '-', 'GET  /double HTTP/1.1', 'GET /only', 'POST /é?ü=1 HTTP/2'),
      part('200', '301', '404', '503', '099', '1000', 'abc'),
      part('2326', '-', '0', '12345678901234567890', '12x'),
      part(' "-" ', ' "http://r/" ', ' "a\\"b" ', '', ' "-"'),
      part(`"${GOOGLEBOT}"`, '"Mozilla/5.0 (compatible; bingbot/2.0)"', '"GPTBot/1.2"', '"Firefox"', '""', '"Bot \\"quoted\\" 1.0"', '"Googlebot-Image/1.0'),
      part('', ' 0.003', '\r', ' "x"'),
    )
    .map(([ip, who, time, request, status, bytes, referer, agent, tail]) => `${ip} ${who} [${time}] "${request}" ${status} ${bytes}${referer}${referer ? agent : ''}${tail}`);
  const lines = fc.array(fc.oneof({ weight: 8, arbitrary: logLine }, { weight: 1, arbitrary: fc.string() }, { weight: 1, arbitrary: fc.constant('{"time": 1767323045, "path": "/j", "status": 200, "ua": "GPTBot"}') }), { maxLength: 40 });
  const verifyIp = (ip: string) => ip.startsWith('66.249.') || ip.startsWith('157.55.');

  it('reads every line as the reference parser does (the fast path changes nothing)', () => {
    fc.assert(
      fc.property(lines, (input) => {
        const { aggregate, add } = createLogAggregator((_op, ip) => verifyIp(ip));
        for (const line of input) add(line);
        expect(comparable(aggregate)).toEqual(referenceFold(input, verifyIp));
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 500) },
    );
  });

  it('settles claims in place as settleVerifications does, and lists them as pendingClaims does', () => {
    fc.assert(
      fc.property(lines, fc.boolean(), (input, verifyFirst) => {
        const aggregator = createLogAggregator((_op, ip) => verifyIp(ip));
        for (const line of input) aggregator.add(line);
        const reference = aggregator.result();
        expect(aggregator.claims(500)).toEqual([...pendingClaims(reference)]);
        const verified = new Set(verifyFirst ? aggregator.claims(1).map(([ip]) => ip) : []);
        settleVerifications(reference, verified);
        aggregator.settle(verified);
        expect(comparable(aggregator.aggregate)).toEqual(comparable(reference));
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 500) },
    );
  });

  it('gives the same aggregate from parts of a file merged as from the whole file (the parse threads)', () => {
    fc.assert(
      fc.property(lines, fc.array(fc.nat(), { maxLength: 3 }), (input, cuts) => {
        const whole = createLogAggregator((_op, ip) => verifyIp(ip));
        for (const line of input) whole.add(line);
        const bounds = [0, ...cuts.map((c) => c % (input.length + 1)).sort((a, b) => a - b), input.length];
        const parts = bounds.slice(1).map((end, i) => {
          const one = createLogAggregator((_op, ip) => verifyIp(ip));
          for (const line of input.slice(bounds[i], end)) one.add(line);
          return one.result();
        });
        expect(comparable(mergeAggregates(parts))).toEqual(comparable(whole.result()));
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 300) },
    );
  });
});

