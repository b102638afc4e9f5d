/**
 * Google's robots.txt test suite, ported: the assertions of robots_test.cc from
 * github.com/google/robotstxt (commit 22b355f), Copyright 2019 Google LLC, licensed under the
 * Apache License, Version 2.0 (https://www.apache.org/licenses/LICENSE-2.0). Changes from the
 * original: rewritten in TypeScript against our parser; where Google's parser departs from
 * RFC 9309 we assert the RFC (marked "RFC, not Google" with the reason), see
 * docs/decisions/robots-txt.md.
 */
import { describe, expect, it } from 'vitest';
import { isValidProductToken, normalise, parseRobotsTxt, readDirectives, robotsPathOf } from '../../../src/crawler/fetch/robots-txt.js';

function allowed(robotstxt: string | Uint8Array, agent: string, url: string): boolean {
  return parseRobotsTxt(robotstxt).rulesFor(agent).allows(robotsPathOf(url));
}

/** RobotsStatsReporter: records Google's handler would see (rules, user-agents and sitemaps) and unknown ones. */
function stats(robotstxt: string | Uint8Array) {
  const ds = readDirectives(robotstxt);
  const known = ds.filter((d) => d.kind === 'user-agent' || d.kind === 'allow' || d.kind === 'disallow' || d.kind === 'sitemap');
  return { valid: known.length, unknown: ds.length - known.length, lastLine: ds.at(-1)?.line ?? 0, sitemap: ds.filter((d) => d.kind === 'sitemap').map((d) => d.value).join('') };
}

describe('google/robotstxt robots_test.cc', () => {
  it('GoogleOnly_SystemTest', () => {
    const robotstxt = 'user-agent: FooBot\ndisallow: /\n';
    expect(allowed('', 'FooBot', '')).toBe(true);
    expect(allowed(robotstxt, '', '')).toBe(true);
    // An empty URL is the path "/".
    expect(allowed(robotstxt, 'FooBot', '')).toBe(false);
    expect(allowed('', '', '')).toBe(true);
  });

  it('ID_LineSyntax_Line: a missing colon is accepted', () => {
    const url = 'http://foo.bar/x/y';
    expect(allowed('user-agent: FooBot\ndisallow: /\n', 'FooBot', url)).toBe(false);
    expect(allowed('foo: FooBot\nbar: /\n', 'FooBot', url)).toBe(true);
    expect(allowed('user-agent FooBot\ndisallow /\n', 'FooBot', url)).toBe(false);
  });

  it('ID_LineSyntax_Groups', () => {
    const robotstxt =
      'allow: /foo/bar/\n\nuser-agent: FooBot\ndisallow: /\nallow: /x/\nuser-agent: BarBot\ndisallow: /\nallow: /y/\n\n\nallow: /w/\n' +
      'user-agent: BazBot\n\nuser-agent: FooBot\nallow: /z/\ndisallow: /\n';
    const [w, x, y, z, foo] = ['/w/a', '/x/b', '/y/c', '/z/d', '/foo/bar/'].map((p) => `http://foo.bar${p}`);
    expect(allowed(robotstxt, 'FooBot', x)).toBe(true);
    expect(allowed(robotstxt, 'FooBot', z)).toBe(true);
    expect(allowed(robotstxt, 'FooBot', y)).toBe(false);
    expect(allowed(robotstxt, 'BarBot', y)).toBe(true);
    expect(allowed(robotstxt, 'BarBot', w)).toBe(true);
    expect(allowed(robotstxt, 'BarBot', z)).toBe(false);
    expect(allowed(robotstxt, 'BazBot', z)).toBe(true);
    // Rules outside groups are ignored.
    expect(allowed(robotstxt, 'FooBot', foo)).toBe(false);
    expect(allowed(robotstxt, 'BarBot', foo)).toBe(false);
    expect(allowed(robotstxt, 'BazBot', foo)).toBe(false);
  });

  it('ID_LineSyntax_Groups_OtherRules: a Sitemap or unknown line does not close a group', () => {
    const a = 'User-agent: BarBot\nSitemap: https://foo.bar/sitemap\nUser-agent: *\nDisallow: /\n';
    expect(allowed(a, 'FooBot', 'http://foo.bar/')).toBe(false);
    expect(allowed(a, 'BarBot', 'http://foo.bar/')).toBe(false);
    const b = 'User-agent: FooBot\nInvalid-Unknown-Line: unknown\nUser-agent: *\nDisallow: /\n';
    expect(allowed(b, 'FooBot', 'http://foo.bar/')).toBe(false);
    expect(allowed(b, 'BarBot', 'http://foo.bar/')).toBe(false);
  });

  it('ID_REPLineNamesCaseInsensitive', () => {
    for (const t of ['USER-AGENT: FooBot\nALLOW: /x/\nDISALLOW: /\n', 'user-agent: FooBot\nallow: /x/\ndisallow: /\n', 'uSeR-aGeNt: FooBot\nAlLoW: /x/\ndIsAlLoW: /\n']) {
      expect(allowed(t, 'FooBot', 'http://foo.bar/x/y')).toBe(true);
      expect(allowed(t, 'FooBot', 'http://foo.bar/a/b')).toBe(false);
    }
  });

  it('ID_VerifyValidUserAgentsToObey', () => {
    expect(isValidProductToken('Foobot')).toBe(true);
    expect(isValidProductToken('Foobot-Bar')).toBe(true);
    expect(isValidProductToken('Foo_Bar')).toBe(true);
    for (const bad of ['', 'ツ', 'Foobot*', ' Foobot ', 'Foobot/2.1', 'Foobot Bar']) expect(isValidProductToken(bad)).toBe(false);
  });

  it('ID_UserAgentValueCaseInsensitive', () => {
    for (const t of ['User-Agent: FOO BAR\nAllow: /x/\nDisallow: /\n', 'User-Agent: foo bar\nAllow: /x/\nDisallow: /\n', 'User-Agent: FoO bAr\nAllow: /x/\nDisallow: /\n']) {
      for (const agent of ['Foo', 'foo']) {
        expect(allowed(t, agent, 'http://foo.bar/x/y')).toBe(true);
        expect(allowed(t, agent, 'http://foo.bar/a/b')).toBe(false);
      }
    }
  });

  it('GoogleOnly_AcceptUserAgentUpToFirstSpace', () => {
    expect(isValidProductToken('Foobot Bar')).toBe(false);
    const t = 'User-Agent: *\nDisallow: /\nUser-Agent: Foo Bar\nAllow: /x/\nDisallow: /\n';
    expect(allowed(t, 'Foo', 'http://foo.bar/x/y')).toBe(true);
    expect(allowed(t, 'Foo Bar', 'http://foo.bar/x/y')).toBe(false);
  });

  it('ID_GlobalGroups_Secondary', () => {
    const url = 'http://foo.bar/x/y';
    expect(allowed('', 'FooBot', url)).toBe(true);
    const global = 'user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n';
    expect(allowed(global, 'FooBot', url)).toBe(false);
    expect(allowed(global, 'BarBot', url)).toBe(true);
    expect(allowed('user-agent: FooBot\nallow: /\nuser-agent: BarBot\ndisallow: /\nuser-agent: BazBot\ndisallow: /\n', 'QuxBot', url)).toBe(true);
  });

  it('ID_AllowDisallow_Value_CaseSensitive', () => {
    expect(allowed('user-agent: FooBot\ndisallow: /x/\n', 'FooBot', 'http://foo.bar/x/y')).toBe(false);
    expect(allowed('user-agent: FooBot\ndisallow: /X/\n', 'FooBot', 'http://foo.bar/x/y')).toBe(true);
  });

  it('ID_LongestMatch', () => {
    const url = 'http://foo.bar/x/page.html';
    expect(allowed('user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/\n', 'FooBot', url)).toBe(false);
    const b = 'user-agent: FooBot\nallow: /x/page.html\ndisallow: /x/\n';
    expect(allowed(b, 'FooBot', url)).toBe(true);
    expect(allowed(b, 'FooBot', 'http://foo.bar/x/')).toBe(false);
    expect(allowed('user-agent: FooBot\ndisallow: \nallow: \n', 'FooBot', url)).toBe(true);
    expect(allowed('user-agent: FooBot\ndisallow: /\nallow: /\n', 'FooBot', url)).toBe(true);
    const c = 'user-agent: FooBot\ndisallow: /x\nallow: /x/\n';
    expect(allowed(c, 'FooBot', 'http://foo.bar/x')).toBe(false);
    expect(allowed(c, 'FooBot', 'http://foo.bar/x/')).toBe(true);
    expect(allowed('user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/page.html\n', 'FooBot', url)).toBe(true);
    const d = 'user-agent: FooBot\nallow: /page\ndisallow: /*.html\n';
    expect(allowed(d, 'FooBot', 'http://foo.bar/page.html')).toBe(false);
    expect(allowed(d, 'FooBot', 'http://foo.bar/page')).toBe(true);
    const e = 'user-agent: FooBot\nallow: /x/page.\ndisallow: /*.html\n';
    expect(allowed(e, 'FooBot', url)).toBe(true);
    expect(allowed(e, 'FooBot', 'http://foo.bar/x/y.html')).toBe(false);
    const f = 'User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n';
    expect(allowed(f, 'FooBot', 'http://foo.bar/x/page')).toBe(true);
    expect(allowed(f, 'FooBot', 'http://foo.bar/y/page')).toBe(false);
  });

  it('ID_Encoding', () => {
    expect(
      allowed('User-agent: FooBot\nDisallow: /\nAllow: /foo/bar?qux=taz&baz=http://foo.bar?tar&par\n', 'FooBot', 'http://foo.bar/foo/bar?qux=taz&baz=http://foo.bar?tar&par'),
    ).toBe(true);
    const kana = 'User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/ツ\n';
    expect(allowed(kana, 'FooBot', 'http://foo.bar/foo/bar/%E3%83%84')).toBe(true);
    // RFC, not Google: §2.2.2 says octets outside US-ASCII in the URI MUST be percent-encoded
    // before comparison, so the unencoded URL matches too (Google expects the caller to encode it).
    expect(allowed(kana, 'FooBot', 'http://foo.bar/foo/bar/ツ')).toBe(true);
    const encoded = 'User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%E3%83%84\n';
    expect(allowed(encoded, 'FooBot', 'http://foo.bar/foo/bar/%E3%83%84')).toBe(true);
    // RFC, not Google: same reason.
    expect(allowed(encoded, 'FooBot', 'http://foo.bar/foo/bar/ツ')).toBe(true);
    const unreserved = 'User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n';
    // RFC, not Google: the §2.2.2 table says /foo/bar/%62%61%7A matches /foo/bar/baz.
    expect(allowed(unreserved, 'FooBot', 'http://foo.bar/foo/bar/baz')).toBe(true);
    expect(allowed(unreserved, 'FooBot', 'http://foo.bar/foo/bar/%62%61%7A')).toBe(true);
  });

  it('ID_SpecialCharacters', () => {
    const a = 'User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n';
    expect(allowed(a, 'FooBot', 'http://foo.bar/foo/bar/quz')).toBe(false);
    expect(allowed(a, 'FooBot', 'http://foo.bar/foo/quz')).toBe(true);
    expect(allowed(a, 'FooBot', 'http://foo.bar/foo//quz')).toBe(true);
    expect(allowed(a, 'FooBot', 'http://foo.bar/foo/bax/quz')).toBe(true);
    const b = 'User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n';
    expect(allowed(b, 'FooBot', 'http://foo.bar/foo/bar')).toBe(false);
    expect(allowed(b, 'FooBot', 'http://foo.bar/foo/bar/qux')).toBe(true);
    expect(allowed(b, 'FooBot', 'http://foo.bar/foo/bar/')).toBe(true);
    expect(allowed(b, 'FooBot', 'http://foo.bar/foo/bar/baz')).toBe(true);
    const c = 'User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n';
    expect(allowed(c, 'FooBot', 'http://foo.bar/foo/bar')).toBe(true);
    expect(allowed(c, 'FooBot', 'http://foo.bar/foo/quz')).toBe(false);
  });

  it('GoogleOnly_IndexHTMLisDirectory (RFC, not Google, for the directory itself)', () => {
    const t = 'User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n';
    // RFC, not Google: Google reads "Allow: /x/index.html" as also allowing "/x/"; under §2.2.2 the
    // longest match for /allowed-slash/ is "Disallow: /", so it stays disallowed.
    expect(allowed(t, 'foobot', 'http://foo.com/allowed-slash/')).toBe(false);
    expect(allowed(t, 'foobot', 'http://foo.com/allowed-slash/index.htm')).toBe(false);
    expect(allowed(t, 'foobot', 'http://foo.com/allowed-slash/index.html')).toBe(true);
    expect(allowed(t, 'foobot', 'http://foo.com/anyother-url')).toBe(false);
  });

  it('GoogleOnly_LineTooLong', () => {
    const maxLineLen = 2083 * 8;
    let longline = '/x/';
    const maxLength = maxLineLen - longline.length - 'disallow: '.length + 1;
    while (longline.length < maxLength) longline += 'a';
    const a = `user-agent: FooBot\ndisallow: ${longline}/qux\n`;
    expect(allowed(a, 'FooBot', 'http://foo.bar/fux')).toBe(true);
    expect(allowed(a, 'FooBot', `http://foo.bar${longline}/fux`)).toBe(false);

    let la = '/x/';
    let lb = '/x/';
    const max = maxLineLen - la.length - 'allow: '.length + 1;
    while (la.length < max) {
      la += 'a';
      lb += 'b';
    }
    const b = `user-agent: FooBot\ndisallow: /\nallow: ${la}/qux\nallow: ${lb}/qux\n`;
    expect(allowed(b, 'FooBot', 'http://foo.bar/')).toBe(false);
    expect(allowed(b, 'FooBot', `http://foo.bar${la}/qux`)).toBe(true);
    expect(allowed(b, 'FooBot', `http://foo.bar${lb}/fux`)).toBe(true);
  });

  describe('GoogleOnly_DocumentationChecks', () => {
    const cases: [string, string[], string[]][] = [
      ['allow: /fish', ['/fish', '/fish.html', '/fish/salmon.html', '/fishheads', '/fishheads/yummy.html', '/fish.html?id=anything'], ['/bar', '/Fish.asp', '/catfish', '/?id=fish']],
      ['allow: /fish*', ['/fish', '/fish.html', '/fish/salmon.html', '/fishheads', '/fishheads/yummy.html', '/fish.html?id=anything'], ['/bar', '/Fish.bar', '/catfish', '/?id=fish']],
      ['allow: /fish/', ['/fish/', '/fish/salmon', '/fish/?salmon', '/fish/salmon.html', '/fish/?id=anything'], ['/bar', '/fish', '/fish.html', '/Fish/Salmon.html']],
      [
        'allow: /*.php',
        ['/filename.php', '/folder/filename.php', '/folder/filename.php?parameters', '//folder/any.php.file.html', '/filename.php/', '/index?f=filename.php/'],
        ['/bar', '/php/', '/index?php', '/windows.PHP'],
      ],
      ['allow: /*.php$', ['/filename.php', '/folder/filename.php'], ['/bar', '/filename.php?parameters', '/filename.php/', '/filename.php5', '/php/', '/filename?php', '/aaaphpaaa', '//windows.PHP']],
      ['allow: /fish*.php', ['/fish.php', '/fishheads/catfish.php?parameters'], ['/bar', '/Fish.PHP']],
    ];
    for (const [rule, yes, no] of cases) {
      it(`disallow: / with ${rule}`, () => {
        const t = `user-agent: FooBot\ndisallow: /\n${rule}\n`;
        for (const p of yes) expect(allowed(t, 'FooBot', `http://foo.bar${p}`), p).toBe(true);
        for (const p of no) expect(allowed(t, 'FooBot', `http://foo.bar${p}`), p).toBe(false);
      });
    }
    it('order of precedence for group-member records', () => {
      expect(allowed('user-agent: FooBot\nallow: /p\ndisallow: /\n', 'FooBot', 'http://example.com/page')).toBe(true);
      expect(allowed('user-agent: FooBot\nallow: /folder\ndisallow: /folder\n', 'FooBot', 'http://example.com/folder/page')).toBe(true);
      expect(allowed('user-agent: FooBot\nallow: /page\ndisallow: /*.htm\n', 'FooBot', 'http://example.com/page.htm')).toBe(false);
      const t = 'user-agent: FooBot\nallow: /$\ndisallow: /\n';
      expect(allowed(t, 'FooBot', 'http://example.com/')).toBe(true);
      expect(allowed(t, 'FooBot', 'http://example.com/page.html')).toBe(false);
    });
  });

  it('ID_LinesNumbersAreCountedCorrectly: \\n, \\r\\n, \\r, mixed, no final newline', () => {
    const files = [
      'User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /\n',
      'User-Agent: foo\r\nAllow: /some/path\r\nUser-Agent: bar\r\n\r\n\r\nDisallow: /\r\n',
      'User-Agent: foo\rAllow: /some/path\rUser-Agent: bar\r\r\rDisallow: /\r',
      'User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /',
      'User-Agent: foo\nAllow: /some/path\r\nUser-Agent: bar\n\r\n\nDisallow: /',
    ];
    for (const f of files) {
      const s = stats(f);
      expect(s.valid).toBe(4);
      expect(s.lastLine).toBe(6);
    }
  });

  it('ID_UTF8ByteOrderMarkIsSkipped', () => {
    const bytes = (prefix: number[], rest: string) => new Uint8Array([...prefix, ...new TextEncoder().encode(rest)]);
    const body = 'User-Agent: foo\nAllow: /AnyValue\n';
    for (const bom of [[0xef, 0xbb, 0xbf], [0xef, 0xbb], [0xef]]) expect(stats(bytes(bom, body))).toMatchObject({ valid: 2, unknown: 0 });
    // A broken BOM makes the first line garbage.
    expect(stats(bytes([0xef, 0x11, 0xbf], body))).toMatchObject({ valid: 1, unknown: 1 });
    // A BOM is only skipped at the start of the file.
    expect(stats(bytes([], 'User-Agent: foo\n\uFEFFAllow: /AnyValue\n'))).toMatchObject({ valid: 1, unknown: 1 });
    // And the rules after a skipped BOM apply.
    expect(allowed(bytes([0xef, 0xbb], 'User-Agent: foo\nDisallow: /x\n'), 'foo', 'http://a.b/x')).toBe(false);
  });

  it('ID_NonStandardLineExample_Sitemap: a Sitemap line may appear anywhere', () => {
    const loc = 'http://foo.bar/sitemap.xml';
    const rest = 'User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\n';
    expect(stats(`${rest}Sitemap: ${loc}\n`).sitemap).toBe(loc);
    expect(stats(`Sitemap: ${loc}\n${rest}`).sitemap).toBe(loc);
    expect(parseRobotsTxt(`Sitemap: ${loc}\n${rest}`).sitemaps).toEqual([loc]);
  });

  it('TestGetPathParamsQuery', () => {
    const cases: [string, string][] = [
      ['', '/'],
      ['http://www.example.com', '/'],
      ['http://www.example.com/', '/'],
      ['http://www.example.com/a', '/a'],
      ['http://www.example.com/a/', '/a/'],
      ['http://www.example.com/a/b?c=http://d.e/', '/a/b?c=http://d.e/'],
      ['http://www.example.com/a/b?c=d&e=f#fragment', '/a/b?c=d&e=f'],
      ['example.com', '/'],
      ['example.com/', '/'],
      ['example.com/a', '/a'],
      ['example.com/a/', '/a/'],
      ['example.com/a/b?c=d&e=f#fragment', '/a/b?c=d&e=f'],
      ['a', '/'],
      ['a/', '/'],
      ['/a', '/a'],
      ['a/b', '/b'],
      ['example.com?a', '/?a'],
      ['example.com/a;b#c', '/a;b'],
      ['//a/b/c', '/b/c'],
    ];
    for (const [url, path] of cases) expect(robotsPathOf(url), url).toBe(path);
  });

  it('TestMaybeEscapePattern', () => {
    expect(normalise('http://www.example.com', true)).toBe('http://www.example.com');
    expect(normalise('/a/b/c', true)).toBe('/a/b/c');
    expect(normalise('á', true)).toBe('%C3%A1');
    expect(normalise('%aa', true)).toBe('%AA');
  });
});
