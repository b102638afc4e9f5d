/**
 * RFC 9309 (Robots Exclusion Protocol): its examples and MUST/SHOULD sentences, against our
 * parser (robots-txt.ts) and the policy the crawler uses (robots-policy.ts).
 */
import { describe, expect, it } from 'vitest';
import { parseRobots } from '../../../src/crawler/fetch/robots-policy.js';
import { parseRobotsTxt, robotsPathOf, ROBOTS_MAX_BYTES } from '../../../src/crawler/fetch/robots-txt.js';

const allowed = (robotstxt: string, agent: string, path: string) => parseRobotsTxt(robotstxt).rulesFor(agent).allows(robotsPathOf(`https://www.example.com${path}`));

describe('RFC 9309 §2.1/§2.2 groups', () => {
  it('several user-agent lines, with empty lines between them, share the rules that follow', () => {
    const t = 'user-agent: a\n\nuser-agent: b\ndisallow: /x\n';
    expect(allowed(t, 'a', '/x')).toBe(false);
    expect(allowed(t, 'b', '/x')).toBe(false);
  });

  it('§2.2.4: records other than user-agent, allow and disallow do not end a group', () => {
    for (const other of ['Crawl-delay: 1', 'Sitemap: https://www.example.com/s.xml', 'Host: example.com', 'Clean-param: ref']) {
      const t = `User-agent: SiteAuditBot\n${other}\nUser-agent: *\nDisallow: /\n`;
      expect(allowed(t, 'siteauditbot', '/'), other).toBe(false);
      expect(allowed(t, 'siteauditbot', '/private/a'), other).toBe(false);
    }
  });

  it('a Sitemap line between the rules of a group keeps them in that group', () => {
    const t = 'User-agent: SiteAuditBot\nDisallow: /a\nSitemap: https://www.example.com/s.xml\nDisallow: /b\n\nUser-agent: *\nDisallow: /c\n';
    expect(allowed(t, 'siteauditbot', '/a')).toBe(false);
    expect(allowed(t, 'siteauditbot', '/b')).toBe(false);
    expect(allowed(t, 'siteauditbot', '/c')).toBe(true);
  });

  it('§2.2.2: rules before the first user-agent line belong to no group', () => {
    expect(allowed('Disallow: /\nUser-agent: *\nDisallow: /x\n', 'bot', '/y')).toBe(true);
  });
});

describe('RFC 9309 §2.2.1 the user-agent line', () => {
  it('matches the product token case-insensitively', () => {
    expect(allowed('User-agent: EXAMPLEBOT\nDisallow: /\n', 'examplebot', '/a')).toBe(false);
  });

  it('merges all groups of the same agent (the example of §2.2.1)', () => {
    const t = 'user-agent: ExampleBot\ndisallow: /foo\ndisallow: /bar\n\nuser-agent: ExampleBot\ndisallow: /baz\n';
    for (const p of ['/foo', '/bar', '/baz']) expect(allowed(t, 'ExampleBot', p)).toBe(false);
    expect(allowed(t, 'ExampleBot', '/qux')).toBe(true);
  });

  it('falls back to the * group, merged too, and to no rules when there is none', () => {
    const t = 'user-agent: *\ndisallow: /a\n\nuser-agent: other\ndisallow: /\n\nuser-agent: *\ndisallow: /b\n';
    expect(allowed(t, 'examplebot', '/a')).toBe(false);
    expect(allowed(t, 'examplebot', '/b')).toBe(false);
    expect(allowed(t, 'examplebot', '/c')).toBe(true);
    expect(allowed('user-agent: other\ndisallow: /\n', 'examplebot', '/a')).toBe(true);
  });

  it('a group of our own, even with other rules than *, replaces the * group', () => {
    const t = 'user-agent: *\ndisallow: /\n\nuser-agent: examplebot\ndisallow: /private\n';
    expect(allowed(t, 'examplebot', '/page')).toBe(true);
    expect(allowed(t, 'examplebot', '/private/x')).toBe(false);
  });
});

describe('RFC 9309 §2.2.2 allow and disallow', () => {
  it('a group without rules allows everything, even as the last group of the file', () => {
    const t = 'User-agent: *\nDisallow: /\n\nUser-agent: SiteAuditBot\n';
    expect(allowed(t, 'siteauditbot', '/')).toBe(true);
    expect(allowed(t, 'siteauditbot', '/private/a')).toBe(true);
    expect(allowed(t, 'otherbot', '/')).toBe(false);
  });

  it('matches case-sensitively, from the first octet of the path', () => {
    expect(allowed('User-agent: *\nDisallow: /Private\n', 'bot', '/private')).toBe(true);
    expect(allowed('User-agent: *\nDisallow: /Private\n', 'bot', '/Private/x')).toBe(false);
    expect(allowed('User-agent: *\nDisallow: private\n', 'bot', '/private')).toBe(true);
  });

  it('the most specific (longest) match wins; Allow wins a tie', () => {
    const t = 'User-agent: *\nDisallow: /a\nAllow: /a/b\nDisallow: /a/b/c\n';
    expect(allowed(t, 'bot', '/a/x')).toBe(false);
    expect(allowed(t, 'bot', '/a/b/x')).toBe(true);
    expect(allowed(t, 'bot', '/a/b/c/x')).toBe(false);
    expect(allowed('User-agent: *\nDisallow: /page\nAllow: /page\n', 'bot', '/page')).toBe(true);
  });

  it('/robots.txt is always allowed', () => {
    const p = parseRobots('https://www.example.com/robots.txt', 'User-agent: *\nDisallow: /\n', 'bot');
    expect(p.isAllowed('https://www.example.com/robots.txt')).toBe(true);
    expect(p.isAllowed('https://www.example.com/robots.txt2')).toBe(false);
  });

  describe('percent-encoding: the table of §2.2.2, pattern against URL both ways', () => {
    const rows: [string, string][] = [
      ['/foo/bar?baz=quz', '/foo/bar?baz=quz'],
      ['/foo/bar?baz=https://foo.bar', '/foo/bar?baz=https%3A%2F%2Ffoo.bar'],
      ['/foo/bar/ツ', '/foo/bar/%E3%83%84'],
      ['/foo/bar/%E3%83%84', '/foo/bar/%E3%83%84'],
      ['/foo/bar/%62%61%7A', '/foo/bar/baz'],
    ];
    for (const [pattern, path] of rows) {
      it(`${pattern} ~ ${path}`, () => {
        expect(allowed(`User-agent: *\nDisallow: ${pattern}$\n`, 'bot', path)).toBe(false);
        expect(allowed(`User-agent: *\nDisallow: ${path}$\n`, 'bot', pattern)).toBe(false);
      });
    }
    it('hex case does not matter, and an encoded reserved character in a path stays distinct', () => {
      expect(allowed('User-agent: *\nDisallow: /a%2fb\n', 'bot', '/a%2Fb')).toBe(false);
      expect(allowed('User-agent: *\nDisallow: /a%2Fb\n', 'bot', '/a/b')).toBe(true);
    });
  });
});

describe('RFC 9309 §2.2.3 special characters', () => {
  it('# starts a comment, $ ends the pattern, * matches any sequence', () => {
    const t = 'User-agent: *\nDisallow: /a # not /b\nDisallow: /*.gif$\nDisallow: /x/*/y\n';
    expect(allowed(t, 'bot', '/a/1')).toBe(false);
    expect(allowed(t, 'bot', '/b')).toBe(true);
    expect(allowed(t, 'bot', '/img/p.gif')).toBe(false);
    expect(allowed(t, 'bot', '/img/p.gif?s=1')).toBe(true);
    expect(allowed(t, 'bot', '/x/1/2/y')).toBe(false);
    expect(allowed(t, 'bot', '/x/y')).toBe(true);
  });

  it('%2A and %24 in a pattern match a literal * and $ (the table of §2.2.3)', () => {
    const t = 'User-agent: *\nDisallow: /path/file-with-a-%2A.html\nDisallow: /path/foo-%24\n';
    expect(allowed(t, 'bot', '/path/file-with-a-*.html')).toBe(false);
    expect(allowed(t, 'bot', '/path/file-with-a-b.html')).toBe(true);
    expect(allowed(t, 'bot', '/path/foo-$')).toBe(false);
    expect(allowed(t, 'bot', '/path/foo-')).toBe(true);
    expect(allowed(t, 'bot', '/path/foo-x')).toBe(true);
  });

  it('a hostile pattern is matched without backtracking', () => {
    const t = `User-agent: *\nDisallow: /${'*a'.repeat(2000)}*b\nAllow: /${'*a'.repeat(2000)}$\n`;
    const r = parseRobotsTxt(t).rulesFor('bot');
    expect(r.allows(`/${'a'.repeat(100_000)}`)).toBe(true);
    expect(r.allows(`/${'a'.repeat(100_000)}b`)).toBe(false);
    expect(r.allows(`/${'a'.repeat(1999)}b`)).toBe(true);
  });
});

describe('RFC 9309 §5 examples', () => {
  const simple = [
    'User-Agent: *',
    'Disallow: *.gif$',
    'Disallow: /example/',
    'Allow: /publications/',
    '',
    'User-Agent: foobot',
    'Disallow:/',
    'Allow:/example/page.html',
    'Allow:/example/allowed.gif',
    '',
    'User-Agent: barbot',
    'User-Agent: bazbot',
    'Disallow: /example/page.html',
    '',
    'User-Agent: quxbot',
    '',
    'EOF',
  ].join('\n');

  it('§5.1: foobot may fetch only page.html and allowed.gif', () => {
    expect(allowed(simple, 'foobot', '/example/page.html')).toBe(true);
    expect(allowed(simple, 'foobot', '/example/allowed.gif')).toBe(true);
    expect(allowed(simple, 'foobot', '/example/other.html')).toBe(false);
    expect(allowed(simple, 'foobot', '/')).toBe(false);
  });
  it('§5.1: barbot and bazbot may fetch everything but /example/page.html', () => {
    for (const bot of ['barbot', 'bazbot']) {
      expect(allowed(simple, bot, '/example/page.html')).toBe(false);
      expect(allowed(simple, bot, '/example/other.gif')).toBe(true);
    }
  });
  it('§5.1: quxbot, with an empty group, may fetch everything', () => {
    expect(allowed(simple, 'quxbot', '/example/page.html')).toBe(true);
    expect(allowed(simple, 'quxbot', '/x.gif')).toBe(true);
  });
  it('§5.1: everyone else follows *', () => {
    expect(allowed(simple, 'otherbot', '/x.gif')).toBe(false);
    expect(allowed(simple, 'otherbot', '/example/a')).toBe(false);
    expect(allowed(simple, 'otherbot', '/publications/a')).toBe(true);
  });
  it('§5.2: the longest match', () => {
    const t = 'User-Agent: foobot\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n';
    expect(allowed(t, 'foobot', '/example/page/disallowed.gif')).toBe(false);
    expect(allowed(t, 'foobot', '/example/page/ok.gif')).toBe(true);
  });
});

describe('RFC 9309 §2.5 limits', () => {
  it('reads the first 500 KiB, and not a line cut by the limit', () => {
    const head = 'User-agent: *\nDisallow: /early\n';
    const filler = `# ${'x'.repeat(1000)}\n`;
    let body = head;
    while (body.length + filler.length < ROBOTS_MAX_BYTES - 30) body += filler;
    const near = `${body}Disallow: /near-limit\n`;
    const text = `${near}Disallow: /${'c'.repeat(ROBOTS_MAX_BYTES - near.length)}\nDisallow: /beyond\n`;
    const r = parseRobotsTxt(text).rulesFor('bot');
    expect(r.allows('/early')).toBe(false);
    expect(r.allows('/near-limit')).toBe(false);
    // The line straddling the limit is dropped whole, not read as "Disallow: /ccc…" cut short.
    expect(r.allows(`/${'c'.repeat(10)}`)).toBe(true);
    expect(r.allows('/beyond')).toBe(true);
  });
});
