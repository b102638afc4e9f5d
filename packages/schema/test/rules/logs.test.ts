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

  // A person in an app's browser carries the app's brand; counted as a bot, their paths and query
  // strings would be kept per path. Only the crawlers' own tokens make a bot.
  it.each([
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [Pinterest/iOS]',
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.6422.165 Mobile Safari/537.36 [Pinterest/Android]',
    'Mozilla/5.0 (Linux; Android 13; V2145A) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/91.0.4472.114 Mobile Safari/537.36 SogouMobileBrowser/5.28.11',
    'Mozilla/5.0 (Linux; Android 12; SM-G991N Build/SP1A.210812.016; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/114.0.5735.196 Mobile Safari/537.36 DaumApps/8.5.0 DaumDevice/mobile',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 YaBrowser/24.6.0.0 Safari/537.36',
    'Mozilla/5.0 (Linux; Android 11; M2101K6G) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/118.0.5993.111 YaApp_Android/23.93.1 YandexSearch/23.93.1 Mobile Safari/537.36',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 SP-engine/2.94.0 main%2F1.0 baiduboxapp/13.58.0.10 (Baidu; P2 17.5) NABar/1.0',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) GSA/318.0.636488555 Mobile/15E148 Safari/604.1',
    'Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP2A.240705.005; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/126.0.6478.134 Mobile Safari/537.36 GoogleApp/15.26.36.29.arm64',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 DuckDuckGo/7 Safari/605.1.15',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0.0.0 Safari/537.36 Edg/122.0.0.0 BingSapphire/28.1',
    'Mozilla/5.0 (Linux; Android 13; SM-S911B Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/120.0.6099.230 Mobile Safari/537.36 WhatsApp/2.24.1.6',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) coc_coc_browser/120.0.226 Chrome/114.0.5735.226 Safari/537.36',
  ])('a person in an app or a browser is human: %s', (ua) => {
    expect(botFamily(ua)).toBe(null);
  });

  it.each([
    ['Mozilla/5.0 (compatible; Pinterestbot/1.0; +http://www.pinterest.com/bot.html)', 'social_preview'],
    ['Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/41.0.2272.96 Mobile Safari/537.36 (compatible; Pinterestbot/1.0; +http://www.pinterest.com/bot.html)', 'social_preview'],
    ['Pinterest/0.2 (+http://www.pinterest.com/bot.html)', 'social_preview'],
    ['WhatsApp/2.23.20.0 A', 'social_preview'],
    ['Sogou web spider/4.0(+http://www.sogou.com/docs/help/webmasters.htm#07)', 'other_search_engine'],
    ['Sogou inst spider/4.0(+http://www.sogou.com/docs/help/webmasters.htm#07)', 'other_search_engine'],
    ['Sogou Pic Spider/3.0(+http://www.sogou.com/docs/help/webmasters.htm#07)', 'other_search_engine'],
    ['Mozilla/5.0 (compatible; MSIE or Firefox mutant; not on Windows server;) Daumoa/4.0', 'other_search_engine'],
    ['Mozilla/5.0 (compatible; MojeekBot/0.11; +https://www.mojeek.com/bot.html)', 'other_search_engine'],
    ['Mozilla/5.0 (compatible; YandexImages/3.0; +http://yandex.com/bots)', 'yandexbot'],
    ['Mozilla/5.0 (compatible; YandexMetrika/2.0; +http://yandex.com/bots)', 'yandexbot'],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 13_3_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.0.5 Mobile/15E148 Safari/604.1 (compatible; Baiduspider-render/2.0; +http://www.baidu.com/search/spider.html)', 'baiduspider'],
    ['FeedFetcher-Google; (+http://www.google.com/feedfetcher.html)', 'google_other'],
  ])('a crawler is still its family: %s → %s', (ua, family) => {
    expect(botFamily(ua)).toBe(family);
  });
});
