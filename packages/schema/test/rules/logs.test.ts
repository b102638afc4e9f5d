import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { botFamily, localDate, parseClfTime, parseLogLine } from '../../src/rules/logs.js';

const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

describe('log lines', () => {
  it('reads the Combined Log Format, with an escaped quote in the user agent', () => {
    const parsed = parseLogLine('66.249.66.1 - frank [10/Oct/2025:13:55:36 -0700] "GET /a?b=1 HTTP/1.1" 200 2326 "http://x/" "Bot \\"quoted\\" 1.0" 0.003');
    expect(parsed).toEqual({
      ok: true,
      format: 'combined',
      request: { time: Date.parse('2025-10-10T20:55:36Z'), offset: -420, ip: '66.249.66.1', method: 'GET', path: '/a?b=1', status: 200, bytes: 2326, userAgent: 'Bot "quoted" 1.0' },
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

  it("keeps the offset written on the line: the day is the date in it, not the UTC date", () => {
    const at = (line: string) => {
      const parsed = parseLogLine(line);
      if (!parsed.ok) throw new Error(parsed.reason);
      return localDate(parsed.request.time, parsed.request.offset);
    };
    expect(at('1.2.3.4 - - [28/Nov/2026:00:30:00 +1300] "GET / HTTP/1.1" 200 1')).toBe('2026-11-28');
    expect(at('1.2.3.4 - - [27/Nov/2026:23:30:00 -0800] "GET / HTTP/1.1" 200 1')).toBe('2026-11-27');
    expect(at('1.2.3.4 - - [27/Nov/2026:23:59:59 +0000] "GET / HTTP/1.1" 200 1')).toBe('2026-11-27');
    expect(at(JSON.stringify({ time: '2026-11-28T00:30:00+13:00', path: '/', status: 200 }))).toBe('2026-11-28');
    expect(at(JSON.stringify({ time: '2026-11-27T23:30:00.250-0800', path: '/', status: 200 }))).toBe('2026-11-27');
    expect(at(JSON.stringify({ time_local: '28/Nov/2026:00:30:00 +1300', path: '/', status: 200 }))).toBe('2026-11-28');
    // No offset written: read as written, whatever the server process's zone.
    expect(at(JSON.stringify({ time: '2026-11-27T23:30:00', path: '/', status: 200 }))).toBe('2026-11-27');
    expect(at(JSON.stringify({ time: 1795786200, path: '/', status: 200 }))).toBe(new Date(1795786200000).toISOString().slice(0, 10));
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
