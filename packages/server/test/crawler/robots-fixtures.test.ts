/**
 * Real robots.txt files (fixtures/robots, sources in its README): the decisions a person
 * reading each file would make, through the policy the crawler uses.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseRobots } from '../../src/crawler/fetch/robots-policy.js';

const load = (name: string) => readFileSync(new URL(`./fixtures/robots/${name}`, import.meta.url));
const policy = (name: string, origin: string, token = 'siteauditbot') => parseRobots(`${origin}/robots.txt`, load(name), token);

describe('wikipedia.org', () => {
  const O = 'https://en.wikipedia.org';
  const p = policy('wikipedia.txt', O);
  const ok = (path: string, token?: string) => p.isAllowed(`${O}${path}`, token);

  it('starts with a byte order mark, and its first group still applies', () => {
    expect(load('wikipedia.txt').subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(ok('/wiki/Main_Page', 'mj12bot')).toBe(false);
  });

  it('lets us read articles, not the dynamic pages under /w/ or /api/', () => {
    expect(ok('/wiki/Main_Page')).toBe(true);
    expect(ok('/wiki/Robots_exclusion_standard')).toBe(true);
    expect(ok('/w/index.php?title=Robots&action=history')).toBe(false);
    expect(ok('/api/rest_v1/page/summary/Robots')).toBe(false);
    expect(ok('/trap/')).toBe(false);
  });

  it('keeps the longer Allow exceptions inside /w/ and /api/', () => {
    expect(ok('/w/load.php?modules=site&only=styles')).toBe(true);
    expect(ok('/w/api.php?action=mobileview&page=Robots')).toBe(true);
    expect(ok('/w/api.php?action=query')).toBe(false);
    expect(ok('/api/rest_v1/?doc')).toBe(true);
  });

  it('blocks special pages however the colon is written', () => {
    expect(ok('/wiki/Special:Random')).toBe(false);
    expect(ok('/wiki/Special%3ARandom')).toBe(false);
    expect(ok('/wiki/Special%3aRandom')).toBe(false);
  });

  it('matches a non-ASCII page name written raw or percent-encoded', () => {
    expect(ok('/wiki/Käyttäjä:Esimerkki')).toBe(false);
    expect(ok('/wiki/K%C3%A4ytt%C3%A4j%C3%A4:Esimerkki')).toBe(false);
    expect(ok('/wiki/Wikipedia:Löschkandidaten/1._Januar')).toBe(false);
    expect(ok('/wiki/Wikipedia:L%c3%b6schkandidaten/1._Januar')).toBe(false);
    expect(ok('/wiki/K%C3%A4ytt%C3%A4j%C3%A4')).toBe(true);
  });

  it('shuts out the crawlers it names, also under names written with a space or a *', () => {
    for (const bot of ['mj12bot', 'httrack', 'wget', 'webreaper', 'mediapartners-google']) expect(ok('/wiki/Main_Page', bot), bot).toBe(false);
    // "User-agent: Offline Explorer" names offline (Google's reading of a value with a space).
    expect(ok('/wiki/Main_Page', 'offline')).toBe(false);
    // "User-agent: IsraBot" + "Disallow:" (empty): everything allowed, even /w/.
    expect(ok('/w/index.php', 'israbot')).toBe(true);
  });

  it('SemrushBot\'s Crawl-delay line does not end its group: the * rules and the delay are one group (RFC 9309 §2.2.4)', () => {
    expect(ok('/w/index.php', 'semrushbot')).toBe(false);
    expect(ok('/wiki/Main_Page', 'semrushbot')).toBe(true);
    expect(policy('wikipedia.txt', O, 'semrushbot').crawlDelayMs).toBe(5000);
    expect(p.crawlDelayMs).toBe(5000);
  });
});

describe('gitlab.com', () => {
  const O = 'https://gitlab.com';
  const p = policy('gitlab.txt', O);
  const ok = (path: string) => p.isAllowed(`${O}${path}`);

  it('merges its three User-Agent: * groups', () => {
    expect(ok('/search?search=x')).toBe(false);
    expect(ok('/snippets/new')).toBe(false);
    expect(ok('/gitlab-org/gitlab/-/merge_requests/1.diff')).toBe(false);
  });

  it('allows project pages, not their raw, blame or edit views', () => {
    expect(ok('/gitlab-org/gitlab')).toBe(true);
    expect(ok('/gitlab-org/gitlab/-/issues/1')).toBe(true);
    expect(ok('/gitlab-org/gitlab/raw/master/README.md')).toBe(false);
    expect(ok('/gitlab-org/gitlab/blame/master/README.md')).toBe(false);
    expect(ok('/gitlab-org/gitlab/issues/1/edit')).toBe(false);
    expect(ok('/gitlab-org/gitlab.git')).toBe(false);
  });

  it('lets the sign-in page through inside the blocked /users', () => {
    expect(ok('/users/sign_in')).toBe(true);
    expect(ok('/users/sign_up')).toBe(false);
  });

  it('has no Crawl-delay (it is commented out)', () => {
    expect(p.crawlDelayMs).toBeNull();
  });
});

describe('openstreetmap.org', () => {
  const O = 'https://www.openstreetmap.org';
  it('lists its sitemap before any group', () => {
    expect(policy('openstreetmap.txt', O).sitemaps).toEqual(['http://www.openstreetmap.org/sitemap.xml.gz']);
  });

  it('lets everyone browse nodes but not edit, and not map views with coordinates', () => {
    const p = policy('openstreetmap.txt', O);
    expect(p.isAllowed(`${O}/browse/node/123`)).toBe(true);
    expect(p.isAllowed(`${O}/browse/changeset/1`)).toBe(false);
    expect(p.isAllowed(`${O}/edit`)).toBe(false);
    expect(p.isAllowed(`${O}/?lat=51.5&lon=0`)).toBe(false);
    expect(p.isAllowed(`${O}/user/alice`)).toBe(false);
  });

  it('gives Googlebot its own group: user pages yes, their traces and node histories no', () => {
    const g = (path: string) => policy('openstreetmap.txt', O).isAllowed(`${O}${path}`, 'googlebot');
    expect(g('/user/alice')).toBe(true);
    expect(g('/user/alice/traces/1')).toBe(false);
    expect(g('/browse/node/123')).toBe(true);
    expect(g('/browse/node/123/history')).toBe(false);
  });
});

describe('Drupal default', () => {
  const O = 'https://drupal.example';
  const p = policy('drupal.txt', O);
  it('asks for 10 s between requests', () => {
    expect(p.crawlDelayMs).toBe(10_000);
  });
  it('keeps crawlers out of admin, login and search, clean URLs or not', () => {
    expect(p.isAllowed(`${O}/node/1`)).toBe(true);
    expect(p.isAllowed(`${O}/admin/config`)).toBe(false);
    expect(p.isAllowed(`${O}/index.php/admin/config`)).toBe(false);
    expect(p.isAllowed(`${O}/user/login/`)).toBe(false);
    expect(p.isAllowed(`${O}/search/node?keys=x`)).toBe(false);
    expect(p.isAllowed(`${O}/README.txt`)).toBe(false);
  });
});

describe('Mastodon default', () => {
  const O = 'https://mastodon.example';
  const p = policy('mastodon.txt', O);
  it('lets ordinary crawlers read profiles, not the media proxy', () => {
    expect(p.isAllowed(`${O}/@alice`)).toBe(true);
    expect(p.isAllowed(`${O}/media_proxy/1/original`)).toBe(false);
  });
  it('blocks every AI crawler it names, across the comments and blank lines between their user-agent lines', () => {
    for (const bot of ['GPTBot', 'ChatGPT-User', 'OAI-SearchBot', 'Amazonbot', 'Applebot-Extended', 'CCBot', 'Google-Extended', 'ClaudeBot', 'anthropic-ai']) {
      expect(p.isAllowed(`${O}/`, bot.toLowerCase()), bot).toBe(false);
    }
    expect(p.isAllowed(`${O}/`, 'perplexitybot')).toBe(true);
  });
});
