import { describe, expect, it } from 'vitest';
import { Flag, UrlRegistry } from '../../src/crawler/run/url-registry.js';
import { HtmlAnalyser } from '../../src/crawler/page/html-analyser.js';
import { analysePage, pageFacts } from '../../src/crawler/page/page-audit.js';
import type { PageInput } from '../../src/crawler/page/page-facts.js';
import { digestOf, keepDigest, squashKey } from '../../src/crawler/page/page-digest.js';
import { prose } from './fixture-site.js';

const URL_ = 'https://shop.example/dir/page';

function input(html: string, headers: PageInput['headers'] = {}): PageInput {
  const analyser = new HtmlAnalyser(['robots', 'siteauditbot']);
  analyser.write(html);
  return {
    url: URL_,
    status: 200,
    headers,
    ttfbMs: 10,
    depth: 1,
    discoveredVia: 'link',
    html: analyser.end(),
    sizeBytes: html.length,
    isInternal: (u) => new URL(u).hostname === 'shop.example',
    robotsToken: 'siteauditbot',
  };
}

describe('page facts', () => {
  it('resolves links, meta refresh and hreflang against <base>, and reads both canonical sources', () => {
    const facts = pageFacts(
      input(
        '<head><base href="/other/"><link rel="canonical" href="c"><meta http-equiv="refresh" content="0; url=next">' +
          '<link rel="alternate" hreflang="FR" href="fr"></head><body><a href="a" rel="nofollow">a</a><a href="#top">top</a><a href="https://x.example/">x</a></body>',
        { link: '<https://shop.example/from-header>; rel="canonical"', 'x-robots-tag': 'siteauditbot: noindex' },
      ),
    );
    expect(facts.base).toBe('https://shop.example/other/');
    expect([...facts.internal]).toEqual([['https://shop.example/other/a', true]]);
    expect([...facts.external]).toEqual(['https://x.example/']);
    expect(facts.htmlCanonicals).toEqual(['https://shop.example/other/c']);
    expect(facts.headerCanonicals).toEqual(['https://shop.example/from-header']);
    expect(facts.metaRefreshUrl).toBe('https://shop.example/other/next');
    expect(facts.hreflang).toEqual([{ lang: 'fr', url: 'https://shop.example/other/fr' }]);
    expect([facts.noindex, facts.nofollow, facts.xRobotsTag]).toEqual([true, false, 'siteauditbot: noindex']);
  });

  it('keeps 300 hreflang annotations at most, the head’s first, then its Link header’s', () => {
    const head = Array.from({ length: 250 }, (_, i) => `<link rel="alternate" hreflang="h${i}" href="/h/${i}">`).join('');
    const link = Array.from({ length: 250 }, (_, i) => `</l/${i}>; rel="alternate"; hreflang="l${i}"`).join(', ');
    const facts = pageFacts(input(`<head>${head}</head><body></body>`, { link }));
    expect(facts.hreflang).toHaveLength(300);
    expect(facts.hreflangCodes).toHaveLength(300);
    expect(facts.hreflang[249]).toEqual({ lang: 'h249', url: 'https://shop.example/h/249' });
    expect(facts.hreflang[250]).toEqual({ lang: 'l0', url: 'https://shop.example/l/0' });
    expect(facts.hreflang[299].lang).toBe('l49');
  });

  it('keeps the digest the cross-page checks need', () => {
    const { summary } = analysePage(input(`<title>A  Title</title><meta name="description" content="Desc"><main><p>${prose('digest')}</p></main>`));
    const reg = new UrlRegistry();
    const id = reg.add(URL_, 1, 'link').id;
    const words = input(`<main><p>${prose('digest')}</p></main>`).html.mainWords;
    const digest = keepDigest(reg, id, digestOf(summary, words));
    for (const flag of [Flag.Html, Flag.HasTitle, Flag.HasDescription, Flag.HasText, Flag.Indexable]) expect(reg.has(id, flag)).toBe(true);
    expect(reg.titleHash[id]).toBe(squashKey('a title'));
    expect(digest.contentHash).toMatch(/^[0-9a-f]+$/);
    expect(digest.simhash).toMatch(/^[0-9a-f]{16}$/);
  });
});
